/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No hand-written main source file of the implementation modules is over {@value #MAX_LINES} lines
 * (issue 32): a file that long holds several jobs, to be split along its seams into focused classes.
 * The modules are found from the repository root, which the tests (run in shmem-core's directory)
 * find above their working directory.
 */
class SourceFileSizeTest {
    static final int MAX_LINES = 800;

    /** The modules whose main sources are checked: the implementation, not the API or the tests. */
    private static final List<String> MODULES = List.of("shmem-core", "shmem-ucx", "shmem-launcher", "shmem-spawn");

    /**
     * Generated, not written by hand: tools/gen_ctx.py writes them (one method per routine and type),
     * GeneratedCodeTest checks them, and their size follows the API's.
     */
    private static final Set<String> GENERATED = Set.of("AbstractShmemCtx.java", "Reductions.java");

    /**
     * Files still over the limit, each with the issue that splits it. Keep it short: an entry that is
     * no longer over the limit (or gone) fails the test too, so that it is taken off when its issue lands.
     */
    private static final Map<String, String> ALLOWED = Map.of();

    @Test
    void noHandWrittenMainSourceIsOverTheLimit() throws IOException {
        Path root = GeneratedCodeTest.repositoryRoot();
        Map<String, Integer> sizes = new TreeMap<>();
        for (String module : MODULES) {
            Path src = root.resolve(module).resolve("src/main/java");
            assertTrue(Files.isDirectory(src), src + " is missing: was a module moved? (update MODULES)");
            sizes.putAll(linesOfJavaFiles(src, root));
        }
        assertTrue(sizes.size() > 100, "the sources were not read: " + sizes.size() + " files");

        List<String> problems = new ArrayList<>();
        Map<String, Integer> over = tooLong(sizes, MAX_LINES);
        for (Map.Entry<String, String> allowed : ALLOWED.entrySet()) {
            boolean stillOver = over.keySet().stream().anyMatch(f -> Path.of(f).endsWith(allowed.getKey()));
            if (!stillOver) {
                problems.add("allowed " + allowed.getKey() + " (" + allowed.getValue() + ") is no longer over "
                        + MAX_LINES + " lines: take it off ALLOWED");
            }
        }
        over.forEach((file, lines) -> {
            if (!ALLOWED.containsKey(Path.of(file).getFileName().toString())) {
                problems.add(file + ": " + lines + " lines");
            }
        });
        if (!problems.isEmpty()) {
            fail("hand-written main sources over " + MAX_LINES + " lines (split each into focused classes"
                    + " along its seams):\n  " + String.join("\n  ", problems));
        }
    }

    /** tooLong on made-up files: it finds the long one, and neither a generated file nor one at the limit. */
    @Test
    void findsALongFile(@TempDir Path tmp) throws IOException {
        Path pkg = Files.createDirectories(tmp.resolve("src/main/java/a"));
        Files.writeString(pkg.resolve("Long.java"), "x\n".repeat(11));
        Files.writeString(pkg.resolve("AtTheLimit.java"), "x\n".repeat(10));
        Files.writeString(pkg.resolve("Reductions.java"), "x\n".repeat(50));
        Files.writeString(pkg.resolve("notes.txt"), "x\n".repeat(50));
        Map<String, Integer> sizes = linesOfJavaFiles(tmp.resolve("src/main/java"), tmp);
        assertEquals(Map.of("src/main/java/a/Long.java", 11), tooLong(sizes, 10));
    }

    /** Every .java file under {@code dir} but the generated ones: its path from {@code root} -> its lines. */
    private static Map<String, Integer> linesOfJavaFiles(Path dir, Path root) throws IOException {
        Map<String, Integer> sizes = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                if (!GENERATED.contains(p.getFileName().toString())) {
                    sizes.put(root.relativize(p).toString(), Files.readAllLines(p, StandardCharsets.UTF_8).size());
                }
            }
        }
        return sizes;
    }

    private static Map<String, Integer> tooLong(Map<String, Integer> sizes, int maxLines) {
        Map<String, Integer> over = new TreeMap<>();
        sizes.forEach((file, lines) -> {
            if (lines > maxLines) {
                over.put(file, lines);
            }
        });
        return over;
    }
}
