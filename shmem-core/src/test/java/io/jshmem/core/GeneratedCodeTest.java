/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated sources (ShmemCtx, AbstractShmemCtx, Reductions) are what {@code tools/gen_ctx.py}
 * generates now: the generator is run in a temporary directory (it writes paths relative to its
 * working directory) and every file it writes is compared with the checked-in one. Fails, naming the
 * file and the first differing line, when someone edited a generated file by hand or changed the
 * generator without regenerating ({@code python3 tools/gen_ctx.py} from the repository root).
 */
class GeneratedCodeTest {
    private static final List<String> OUTPUT_DIRS = List.of(
            "shmem-api/src/main/java/io/jshmem", "shmem-core/src/main/java/io/jshmem/core/runtime",
            "shmem-core/src/main/java/io/jshmem/core/coll");

    @Test
    void generatedSourcesMatchTheGenerator(@TempDir Path tmp) throws Exception {
        Path root = repositoryRoot();
        Path generator = root.resolve("tools/gen_ctx.py");
        assertTrue(Files.isRegularFile(generator), generator + " is missing");
        Assumptions.assumeTrue(python3Available(), "python3 is not on the PATH: cannot run tools/gen_ctx.py");

        for (String dir : OUTPUT_DIRS) {
            Files.createDirectories(tmp.resolve(dir));
        }
        // -B: no __pycache__ in tools/.
        ProcessBuilder pb = new ProcessBuilder("python3", "-B", generator.toString())
                .directory(tmp.toFile()).redirectErrorStream(true);
        pb.environment().put("PYTHONDONTWRITEBYTECODE", "1");
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "tools/gen_ctx.py did not finish in 120 s");
        assertEquals(0, p.exitValue(), () -> "tools/gen_ctx.py failed:\n" + new String(out, StandardCharsets.UTF_8));

        List<Path> generated;
        try (Stream<Path> s = Files.walk(tmp)) {
            generated = s.filter(Files::isRegularFile).sorted(Comparator.naturalOrder()).toList();
        }
        assertFalse(generated.isEmpty(), "tools/gen_ctx.py wrote no file");
        List<String> problems = new ArrayList<>();
        for (Path g : generated) {
            Path rel = tmp.relativize(g);
            Path checkedIn = root.resolve(rel);
            if (!Files.isRegularFile(checkedIn)) {
                problems.add(rel + ": generated but not in the source tree");
                continue;
            }
            String want = Files.readString(g, StandardCharsets.UTF_8);
            String have = Files.readString(checkedIn, StandardCharsets.UTF_8);
            if (!want.equals(have)) {
                problems.add(rel + ": " + firstDifference(want, have));
            }
        }
        if (!problems.isEmpty()) {
            fail("generated sources differ from what tools/gen_ctx.py generates; edit the generator, not its"
                    + " output, and run `python3 tools/gen_ctx.py` from the repository root:\n  "
                    + String.join("\n  ", problems));
        }
    }

    /** "line N: generator says ... / file has ...". */
    static String firstDifference(String want, String have) {
        String[] w = want.split("\n", -1);
        String[] h = have.split("\n", -1);
        for (int i = 0; i < Math.max(w.length, h.length); i++) {
            String a = i < w.length ? w[i] : "<end of file>";
            String b = i < h.length ? h[i] : "<end of file>";
            if (!a.equals(b)) {
                return "line " + (i + 1) + ": generator: \"" + a.strip() + "\", file: \"" + b.strip() + "\"";
            }
        }
        return "line endings differ";
    }

    static boolean python3Available() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Runs the repository's python tool {@code script} (a checker: exit status 0 when all is well) in the
     * repository's root and fails with its output when it reports a problem; returns its output.
     * Skipped without python3.
     */
    static String assertToolPasses(String script) throws IOException, InterruptedException {
        Path root = repositoryRoot();
        Assumptions.assumeTrue(python3Available(), "python3 is not on the PATH");
        Process p = new ProcessBuilder("python3", "-B", script).directory(root.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), script + " did not finish in 120 s");
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("tools/gen_ctx.py"))) {
                return p;
            }
        }
        throw new AssertionError("tools/gen_ctx.py not found above " + Path.of("").toAbsolutePath());
    }
}
