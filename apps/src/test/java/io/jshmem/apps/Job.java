/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A job run to its end through the real launcher, {@code bin/oshrun}, with the kernels' classes
 * (main and test) on the PEs' class path; what it printed and its exit status.
 */
record Job(int exitCode, String stdout, String stderr, List<String> command) {
    /** oshrun's own --timeout: nothing hangs the build longer than this. */
    private static final int TIMEOUT_SECONDS = 300;

    static Job run(int npes, List<String> options, String mainClass, String... args) throws IOException, InterruptedException {
        Path root = root();
        List<String> command = new ArrayList<>(List.of(root.resolve("bin/oshrun").toString(), "-np", Integer.toString(npes),
                "--timeout", Integer.toString(TIMEOUT_SECONDS)));
        command.addAll(options);
        command.add("-cp");
        command.add(root.resolve("apps/target/classes") + File.pathSeparator + root.resolve("apps/target/test-classes"));
        command.add(mainClass);
        command.addAll(List.of(args));
        Path out = Files.createTempFile("jshmem-apps-", ".out");
        Path err = Files.createTempFile("jshmem-apps-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(root.toFile());
            // The JDK running the tests (25+) for oshrun and the PEs; no variables of an enclosing job.
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
            // JSHMEM_AOT stays: the build's test jobs make and use no start-up cache (surefire's environment).
            pb.environment().keySet().removeIf(k -> k.startsWith("JSHMEM_") && !k.equals("JSHMEM_SHM_DIR") && !k.equals("JSHMEM_AOT"));
            pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.redirectOutput(out.toFile());
            pb.redirectError(err.toFile());
            Process p = pb.start();
            if (!p.waitFor(TIMEOUT_SECONDS + 60, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("oshrun did not end within its --timeout: " + String.join(" ", command));
            }
            return new Job(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), command);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** The repository root: the nearest directory, from the working directory up, holding bin/oshrun. */
    static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("bin/oshrun"))) {
                return p;
            }
        }
        throw new AssertionError("no bin/oshrun above " + Path.of("").toAbsolutePath());
    }

    long count(String regex) {
        return stdout.lines().filter(l -> l.matches(regex)).count();
    }

    /** For assertion messages: the command, the status and everything printed. */
    String describe() {
        return "\n  command: " + String.join(" ", command) + "\n  exit status: " + exitCode
                + "\n  stdout:\n" + stdout + "\n  stderr:\n" + stderr;
    }
}
