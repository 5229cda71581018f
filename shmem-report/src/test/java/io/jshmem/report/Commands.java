/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs the real commands of the tests (bin/oshrun, bin/shmem-report, chromium) with a guard against a hang. */
final class Commands {
    record Result(int status, String out, String err) {
    }

    private Commands() {
    }

    static Result run(Path workDir, long guardSeconds, List<String> command) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        Path out = Files.createTempFile(workDir, "out", ".txt");
        Path err = Files.createTempFile(workDir, "err", ".txt");
        Process p = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        if (!p.waitFor(guardSeconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("hung for " + guardSeconds + " s: " + String.join(" ", command));
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** A script of the source tree's bin/ with its arguments. */
    static List<String> bin(String script, String... args) {
        List<String> command = new ArrayList<>();
        command.add(repositoryRoot().resolve("bin").resolve(script).toString());
        command.addAll(List.of(args));
        return command;
    }

    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isExecutable(p.resolve("bin/oshrun"))) {
                return p;
            }
        }
        throw new AssertionError("bin/oshrun not found above " + Path.of("").toAbsolutePath());
    }
}
