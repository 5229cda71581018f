/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs jobs through the real launcher, {@code bin/oshrun}, and collects what they printed. */
final class Oshrun {
    /** oshrun's own --timeout for every job: nothing can hang CI longer than this. */
    static final int JOB_TIMEOUT_SECONDS = 600;
    /** How long the test waits for oshrun itself beyond its --timeout before killing it. */
    private static final int GRACE_SECONDS = 60;
    private static final Pattern CASE_LINE = Pattern.compile("CASE (\\S+) PE (\\d+) (PASS|FAIL|SKIP)(?: (.*))?");

    private static Path root;

    private Oshrun() {
    }

    /** The repository root: the nearest directory, from the working directory up, holding bin/oshrun. */
    static synchronized Path root() {
        if (root == null) {
            Path start = Path.of("").toAbsolutePath();
            for (Path p = start; p != null; p = p.getParent()) {
                if (Files.isRegularFile(p.resolve("bin/oshrun"))) {
                    root = p;
                    return root;
                }
            }
            throw new AssertionError("no bin/oshrun in " + start + " or any directory above it");
        }
        return root;
    }

    static Path oshrun() {
        return root().resolve("bin/oshrun");
    }

    static String conformanceClasses() {
        return root().resolve("conformance/target/classes").toString();
    }

    static String examplesClasses() {
        return root().resolve("shmem-examples/target/classes").toString();
    }

    /** A job in progress: the oshrun process and the files its stdout and stderr go to. */
    static final class Job implements AutoCloseable {
        final Process process;
        final Path out;
        final Path err;
        final List<String> command;

        Job(Process process, Path out, Path err, List<String> command) {
            this.process = process;
            this.out = out;
            this.err = err;
            this.command = command;
        }

        String stdout() {
            return read(out);
        }

        String stderr() {
            return read(err);
        }

        /** Waits for oshrun to end (it has --timeout; this adds a margin), killing it if it does not. */
        Result await() throws InterruptedException {
            if (!process.waitFor(JOB_TIMEOUT_SECONDS + GRACE_SECONDS, TimeUnit.SECONDS)) {
                killTree();
                throw new AssertionError("oshrun did not end within its --timeout " + JOB_TIMEOUT_SECONDS
                        + " s plus " + GRACE_SECONDS + " s: " + String.join(" ", command) + tail(stdout(), stderr()));
            }
            return new Result(process.exitValue(), stdout(), stderr(), command);
        }

        void killTree() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }

        @Override
        public void close() {
            if (process.isAlive()) {
                killTree();
            }
            try {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            } catch (IOException e) {
                // temporary files: never mind
            }
        }
    }

    /** A finished job. */
    record Result(int exitCode, String stdout, String stderr, List<String> command) {
        /** The last lines of stdout and stderr, for assertion messages. */
        String tail() {
            return "\n  command: " + String.join(" ", command) + "\n  exit status: " + exitCode + Oshrun.tail(stdout, stderr);
        }

        List<CaseLine> caseLines() {
            List<CaseLine> lines = new ArrayList<>();
            for (String line : stdout.split("\n")) {
                Matcher m = CASE_LINE.matcher(line);
                if (m.find()) {
                    lines.add(new CaseLine(m.group(1), Integer.parseInt(m.group(2)), m.group(3),
                            m.group(4) == null ? "" : m.group(4)));
                }
            }
            return lines;
        }
    }

    /** One {@code CASE <name> PE <k> <RESULT> [detail]} line. */
    record CaseLine(String name, int pe, String result, String detail) {
        @Override
        public String toString() {
            return "CASE " + name + " PE " + pe + " " + result + (detail.isEmpty() ? "" : " " + detail);
        }
    }

    /** Starts {@code bin/oshrun -np N --timeout 600 -q [options] -cp classpath main args}. */
    static Job start(int npes, List<String> options, String classpath, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(oshrun().toString());
        command.add("-np");
        command.add(Integer.toString(npes));
        command.add("--timeout");
        command.add(Integer.toString(JOB_TIMEOUT_SECONDS));
        // -q: these jobs run more PEs than this machine may have CPUs, and several tests check every
        // line oshrun prints; the line saying that the PEs share the CPUs is OshrunEndToEndTest's.
        command.add("-q");
        command.addAll(options);
        command.add("-cp");
        command.add(classpath);
        command.add(mainClass);
        command.addAll(List.of(args));
        return launch(command);
    }

    /** Runs a job to its end. */
    static Result run(int npes, List<String> options, String classpath, String mainClass, String... args)
            throws IOException, InterruptedException {
        try (Job job = start(npes, options, classpath, mainClass, args)) {
            return job.await();
        }
    }

    /** Runs a program with plain java (a 1-PE job): the test JVM's java, jshmem's classes on the class path. */
    static Result runPlainJava(String mainClass, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = String.join(File.pathSeparator, conformanceClasses(),
                root().resolve("shmem-api/target/classes").toString(), root().resolve("shmem-core/target/classes").toString());
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", cp, mainClass));
        command.addAll(List.of(args));
        try (Job job = launch(command)) {
            return job.await();
        }
    }

    private static Job launch(List<String> command) throws IOException {
        Path out = Files.createTempFile("jshmem-conformance-", ".out");
        Path err = Files.createTempFile("jshmem-conformance-", ".err");
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.directory(root().toFile());
        Map<String, String> env = pb.environment();
        // The JDK running the tests (25+) for oshrun and the PEs; no variables of an enclosing job.
        // JSHMEM_AOT stays: the build runs the tests' jobs without a start-up cache (surefire's
        // environment), which would otherwise preload the classes a training job used (UCX's too).
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.keySet().removeIf(k -> k.startsWith("JSHMEM_") && !k.equals("JSHMEM_SHM_DIR") && !k.equals("JSHMEM_JAVA_OPTS")
                && !k.equals("JSHMEM_AOT"));
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.redirectOutput(out.toFile());
        pb.redirectError(err.toFile());
        return new Job(pb.start(), out, err, command);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }

    /** stdout without the PASS lines (counted instead), and stderr: their last lines. */
    static String tail(String stdout, String stderr) {
        List<String> kept = new ArrayList<>();
        long passes = 0;
        for (String line : stdout.split("\n")) {
            Matcher m = CASE_LINE.matcher(line);
            if (m.find() && m.group(3).equals("PASS")) {
                passes++;
            } else {
                kept.add(line);
            }
        }
        return "\n  --- stdout (last lines; " + passes + " PASS lines left out) ---\n" + lastLines(String.join("\n", kept), 40)
                + "  --- stderr (last lines) ---\n" + lastLines(stderr, 40);
    }

    private static String lastLines(String text, int n) {
        String[] lines = text.split("\n");
        int from = Math.max(0, lines.length - n);
        StringBuilder sb = new StringBuilder();
        if (from > 0) {
            sb.append("  ... (").append(from).append(" lines before)\n");
        }
        for (int i = from; i < lines.length; i++) {
            String l = lines[i];
            sb.append("  ").append(l.length() > 400 ? l.substring(0, 400) + "..." : l).append('\n');
        }
        return sb.toString();
    }
}
