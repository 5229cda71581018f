/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.multinode;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The real bin/oshrun, run on this machine, its output in files. */
final class Oshrun {
    /** Only against a hanging oshrun: each job bounds itself with --timeout too. */
    private static final long HANG_GUARD_SECONDS = 600;
    private static final Pattern READY = Pattern.compile("^ready pe (\\d+) pid (\\d+) host (\\S+)$", Pattern.MULTILINE);

    record Result(int status, String out, String err, double seconds) {
        @Override
        public String toString() {
            return "status " + status + " after " + String.format("%.1f", seconds) + " s\n--- stdout\n" + out
                    + "--- stderr\n" + err;
        }
    }

    /** A PE announced by a {@code ready pe P pid X host H} line. */
    record Ready(int pe, long pid, String hostname) {
    }

    private final Process process;
    private final Path out;
    private final Path err;
    private final long started = System.nanoTime();

    private Oshrun(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /** Starts oshrun with {@code args}, the JDK running these tests as JAVA_HOME. */
    static Oshrun start(String name, List<String> args) throws IOException {
        Path dir = Path.of("target", "jobs");
        Files.createDirectories(dir);
        Path out = dir.resolve(name + ".out");
        Path err = dir.resolve(name + ".err");
        List<String> command = new ArrayList<>();
        command.add(Cluster.REPO.resolve("bin/oshrun").toString());
        command.addAll(args);
        System.out.println("[multinode] " + String.join(" ", command));
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile());
        pb.environment().put("JAVA_HOME", Cluster.JDK.toString());
        return new Oshrun(pb.start(), out, err);
    }

    static Result run(String name, List<String> args) throws IOException, InterruptedException {
        return start(name, args).finish();
    }

    Result finish() throws IOException, InterruptedException {
        if (!process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            throw new AssertionError("oshrun hung: " + Files.readString(err));
        }
        Result r = new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), (System.nanoTime() - started) / 1e9);
        System.out.printf("[multinode] oshrun ended with status %d after %.1f s%n", r.status(), r.seconds());
        return r;
    }

    /** Waits until {@code npes} PEs printed their ready line; fails if oshrun ends first. */
    List<Ready> awaitReady(int npes, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String text = Files.readString(out, StandardCharsets.UTF_8);
            List<Ready> ready = new ArrayList<>();
            Matcher m = READY.matcher(text);
            while (m.find()) {
                ready.add(new Ready(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)), m.group(3)));
            }
            if (ready.size() == npes) {
                return ready;
            }
            if (!process.isAlive()) {
                throw new AssertionError("oshrun ended before the PEs were ready:\n" + finish());
            }
            Thread.sleep(100);
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        throw new AssertionError("the PEs did not get ready in " + seconds + " s:\n" + finish());
    }
}
