/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.dist;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A finished command of the integration tests: its status and output.
 *
 * @param command what ran
 * @param status  its exit status, -1 if it timed out
 * @param out     its standard output
 * @param err     its standard error
 */
record Run(List<String> command, int status, String out, String err) {

    /** {@return the command, its status and output, for assertion messages} */
    String describe() {
        return String.join(" ", command) + "\nexit status " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }

    /**
     * Runs {@code command} in {@code dir} with standard input from /dev/null; kills it and its
     * descendants after {@code timeoutSeconds}.
     *
     * @param env the whole environment, or empty to inherit this process's
     */
    static Run run(List<String> command, Path dir, Map<String, String> env, int timeoutSeconds)
            throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile());
        if (!env.isEmpty()) {
            pb.environment().clear();
            pb.environment().putAll(env);
        }
        Path out = Files.createTempFile("dist-out", ".txt");
        Path err = Files.createTempFile("dist-err", ".txt");
        try {
            pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(
                    new File("/dev/null")));
            Process p = pb.start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
                return new Run(command, -1, Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8) + "\n(timed out after " + timeoutSeconds + " s)");
            }
            return new Run(command, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }
}
