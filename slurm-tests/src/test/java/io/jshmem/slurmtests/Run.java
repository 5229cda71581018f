/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.slurmtests;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A command run to completion (or to its time limit), with its output.
 *
 * @param command  the command line
 * @param exit     exit status, or -1 if it was killed at the time limit
 * @param stdout   standard output
 * @param stderr   standard error
 * @param seconds  how long it ran
 * @param timedOut whether it was killed at the time limit
 */
record Run(List<String> command, int exit, String stdout, String stderr, double seconds, boolean timedOut) {

    /** Runs {@code command} in {@code dir} with {@code env} added to this JVM's environment. */
    static Run of(List<String> command, Map<String, String> env, Path dir, long timeoutSeconds) {
        Started s = start(command, env, dir);
        return s.await(timeoutSeconds);
    }

    /** A command that is running; its output is collected in the background. */
    static final class Started {
        final List<String> command;
        final Process process;
        final long startNanos = System.nanoTime();
        private final StringBuffer out = new StringBuffer();
        private final StringBuffer err = new StringBuffer();
        private final CompletableFuture<Void> outDone;
        private final CompletableFuture<Void> errDone;

        Started(List<String> command, Process process) {
            this.command = command;
            this.process = process;
            this.outDone = CompletableFuture.runAsync(() -> pump(process.getInputStream(), out));
            this.errDone = CompletableFuture.runAsync(() -> pump(process.getErrorStream(), err));
        }

        String stdoutSoFar() {
            return out.toString();
        }

        String stderrSoFar() {
            return err.toString();
        }

        /** Waits until {@code condition} holds for the output so far, up to {@code seconds}; whether it did. */
        boolean waitForOutput(Predicate<String> condition, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < deadline) {
                if (condition.test(out.toString())) {
                    return true;
                }
                if (!process.isAlive()) {
                    return condition.test(out.toString());
                }
                Thread.sleep(100);
            }
            return false;
        }

        /** Waits for the end, killing the command (SIGTERM, then SIGKILL) after {@code timeoutSeconds}. */
        Run await(long timeoutSeconds) {
            boolean timedOut = false;
            try {
                if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    timedOut = true;
                    process.destroy(); // srun forwards SIGTERM to the step
                    if (!process.waitFor(10, TimeUnit.SECONDS)) {
                        process.destroyForcibly();
                        process.waitFor(10, TimeUnit.SECONDS);
                    }
                }
                outDone.get(10, TimeUnit.SECONDS);
                errDone.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                // output incomplete: reported as is
            }
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            return new Run(command, timedOut ? -1 : process.exitValue(), out.toString(), err.toString(), seconds, timedOut);
        }

        private static void pump(InputStream in, StringBuffer into) {
            byte[] buf = new byte[8192];
            try (in) {
                for (int n; (n = in.read(buf)) > 0; ) {
                    into.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                // process gone
            }
        }
    }

    static Started start(List<String> command, Map<String, String> env, Path dir) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        pb.directory(dir.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        try {
            return new Started(List.copyOf(command), pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    /** The last lines of both streams, for assertion messages. */
    String tail() {
        return "\n--- command: " + String.join(" ", command) + "\n--- exit " + exit + (timedOut ? " (killed at the time limit)" : "")
                + String.format(" after %.1f s", seconds) + "\n--- stdout (end):\n" + lastLines(stdout, 40)
                + "\n--- stderr (end):\n" + lastLines(stderr, 40);
    }

    static String lastLines(String text, int n) {
        List<String> lines = new ArrayList<>(text.lines().toList());
        return String.join("\n", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }
}
