/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real {@code bin/oshrun} with {@link TestPeMain} as the program. Needs the module's classes
 * compiled (as they are when Maven runs tests) and a JDK 25 for the script to find.
 */
class OshrunEndToEndTest {
    /** Only a guard against a hanging oshrun; every job here ends in a few seconds. */
    private static final long HANG_GUARD_SECONDS = 60;
    private static final String MAIN = TestPeMain.class.getName();
    private static final Pattern PE_LINE = Pattern.compile("pid (\\d+) bootstrap 127\\.0\\.0\\.1:(\\d+)");

    @TempDir
    Path dir;

    private record Result(int status, String out, String err) {
    }

    @Test
    void cleanJobExitsZero() throws Exception {
        Result r = oshrun("-np", "3", "-x", "TEST_VAR=xyz", "-cp", testClasses(), MAIN, "ok");
        assertEquals(0, r.status(), r.err());
        for (int pe = 0; pe < 3; pe++) {
            assertTrue(r.out().contains("hello from " + pe + " of 3 TEST_VAR=xyz\n"), r.out());
        }
        assertNothingLeft(r, 3);
    }

    @Test
    void tagOutputPrefixesEveryLine() throws Exception {
        Result r = oshrun("-np", "2", "--tag-output", "-cp", testClasses(), MAIN, "ok");
        assertEquals(0, r.status(), r.err());
        for (String line : r.out().split("\n")) {
            assertTrue(line.matches("\\[PE [01]\\] .*"), line);
        }
        assertTrue(r.out().contains("[PE 0] hello from 0 of 2"), r.out());
        assertTrue(r.out().contains("[PE 1] hello from 1 of 2"), r.out());
        assertNothingLeft(r, 2);
    }

    @Test
    void peDyingBeforeFinalizeEndsTheJobWithItsStatus() throws Exception {
        // -q: without the line saying that 3 PEs share the CPUs (on a machine with fewer), the launcher's only one is this.
        Result r = oshrun("-np", "3", "-q", "-cp", testClasses(), MAIN, "die1");
        assertEquals(3, r.status(), r.err());
        assertTrue(r.err().matches("(?s)oshrun: PE 1 \\(pid \\d+\\) exited with status 3 before finalize; ending the job\n.*"),
                r.err());
        assertEquals(1, count(r.err(), "oshrun: "), "exactly one launcher message: " + r.err());
        assertNothingLeft(r, 3);
        Matcher segments = Pattern.compile("segment (\\S+)").matcher(r.out());
        int swept = 0;
        for (; segments.find(); swept++) {
            assertFalse(Files.exists(Path.of(segments.group(1))), "not swept: " + segments.group(1));
        }
        assertTrue(swept > 0, r.out());
    }

    @Test
    void aStoppedPeIsDroppedAfterTheHeartbeatTimeout() throws Exception {
        Result r = oshrun("-np", "2", "--heartbeat-timeout", "3", "-cp", testClasses(), MAIN, "stop1");
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().matches("(?s).*oshrun: PE 1 \\(pid \\d+\\) stopped answering: nothing from it for 3 s, before"
                + " finalize \\(it is stopped \\(SIGSTOP or SIGTSTP\\).*"), r.err());
        assertNothingLeft(r, 2);
    }

    @Test
    void abortEndsTheJobWithTheAbortStatus() throws Exception {
        Result r = oshrun("-np", "3", "-q", "-cp", testClasses(), MAIN, "abort"); // -q: the abort is the first line
        assertEquals(7, r.status(), r.err());
        assertTrue(r.err().startsWith("oshrun: PE 0 aborted the job with status 7: test abort\n"), r.err());
        assertNothingLeft(r, 3);
    }

    @Test
    void timeoutEndsTheJobWith124() throws Exception {
        // Long enough for both PE JVMs to start and say so on a loaded machine (at load 20 one took
        // over 1 s), which assertNothingLeft needs to find their pids and files.
        Result r = oshrun("-np", "2", "--timeout", "8", "-cp", testClasses(), MAIN, "sleep");
        assertEquals(124, r.status(), r.err());
        assertTrue(r.err().contains("oshrun: job exceeded --timeout 8 s; ending the job"), r.err());
        assertNothingLeft(r, 2);
    }

    @Test
    void helpVersionAndUsageErrors() throws Exception {
        Result help = oshrun("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: oshrun -np N"), help.out());
        Result version = oshrun("-V");
        assertEquals(0, version.status());
        assertTrue(version.out().startsWith("oshrun (jshmem "), version.out());
        Result usage = oshrun("-np", "zero", MAIN);
        assertEquals(2, usage.status());
        assertEquals("oshrun: -np needs a positive integer, got \"zero\"\nsee oshrun --help\n", usage.err());
        Result badJar = oshrun("-np", "1", "-jar", dir.resolve("missing.jar").toString());
        assertEquals(2, badJar.status());
        assertTrue(badJar.err().startsWith("oshrun: cannot read jar"), badJar.err());
    }

    /**
     * --output-filename and --jfr-dir refuse a directory other users can write to: they could put
     * links there under the names oshrun writes, and have the job overwrite the files they point to.
     */
    @Test
    void outputDirectoriesOthersCanWriteToAreRefused() throws Exception {
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        Path target = Files.writeString(dir.resolve("target"), "kept");
        Files.createSymbolicLink(open.resolve("pe0.stdout"), target);
        for (List<String> option : List.of(List.of("--output-filename", open.toString()), List.of("--jfr", "--jfr-dir", open.toString()))) {
            List<String> args = new ArrayList<>(List.of("-np", "1"));
            args.addAll(option);
            args.addAll(List.of("-cp", testClasses(), MAIN, "ok"));
            Result r = oshrun(args.toArray(String[]::new));
            assertEquals(2, r.status(), option + ": " + r.err());
            assertTrue(r.err().contains(open + " is writable by other users (mode 777)"), option + ": " + r.err());
        }
        assertEquals("kept", Files.readString(target), "the link's target was written");
        Result made = oshrun("-np", "1", "--jfr", "--jfr-dir", dir.resolve("new/jfr").toString(), "-cp", testClasses(), MAIN, "ok");
        assertEquals(0, made.status(), made.err());
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(dir.resolve("new/jfr"))));
        assertFalse(Files.exists(dir.resolve("new/jfr/" + PeCommand.JFR_REPOSITORY)), "JFR's repository, empty, stays after the job");
    }

    /** --report-bindings names each PE's CPU; --output-filename, --timestamp-output; PEs sharing CPUs said, -q not. */
    @Test
    void mpirunHabits() throws Exception {
        Result r = oshrun("-np", "2", "--report-bindings", "--output-filename", dir.resolve("out").toString(),
                "-cp", testClasses(), MAIN, "ok");
        assertEquals(0, r.status(), r.err());
        for (int pe = 0; pe < 2; pe++) {
            String prefix = "oshrun: PE " + pe + " on this machine (node 0): ";
            assertTrue(r.err().lines().anyMatch(l -> l.startsWith(prefix) && (l.matches(".*: bound to CPU \\d+ \\(core \\d+, socket \\d+\\)")
                    || l.contains("not bound (more PEs than CPUs here"))), r.err());
            String out = Files.readString(dir.resolve("out/pe" + pe + ".stdout"));
            assertTrue(out.contains("hello from " + pe + " of 2"), out);
            assertTrue(Files.isRegularFile(dir.resolve("out/pe" + pe + ".stderr")));
        }
        assertFalse(r.out().contains("hello from"), "with --output-filename the output is in the files: " + r.out());
        if (CoreBinding.allowedCpus().size() >= 2 && CoreBinding.taskset() != null) {
            assertTrue(r.err().contains("oshrun: PE 1 on this machine (node 0): bound to CPU "), r.err());
        }

        Result t = oshrun("-np", "2", "--timestamp-output", "-cp", testClasses(), MAIN, "ok");
        assertEquals(0, t.status(), t.err());
        assertTrue(t.out().lines().allMatch(l -> l.matches("\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] .*")), t.out());
        assertTrue(t.out().contains("] hello from 1 of 2"), t.out());

        int many = CoreBinding.allowedCpus().size() + 1;
        Result shared = oshrun("-np", Integer.toString(many), "-cp", testClasses(), MAIN, "ok");
        assertEquals(0, shared.status(), shared.err());
        assertEquals(1, count(shared.err(), "oshrun: " + many + " PEs share this machine's " + (many - 1) + " CPUs"), shared.err());
        Result quiet = oshrun("-np", Integer.toString(many), "-q", "-cp", testClasses(), MAIN, "ok");
        assertEquals(0, quiet.status(), quiet.err());
        assertFalse(quiet.err().contains("share this machine"), quiet.err());
    }

    /** A local -np far above the CPUs is refused before anything starts, unless --oversubscribe. */
    @Test
    void farTooManyLocalPesNeedOversubscribe() throws Exception {
        int cpus = CoreBinding.allowedCpus().size();
        int npes = 8 * cpus + 1;
        Result r = oshrun("-np", Integer.toString(npes), "-cp", testClasses(), MAIN, "ok");
        assertEquals(2, r.status(), r.err());
        assertEquals("oshrun: " + npes + " PEs on this machine's " + cpus + " CPUs is over 8 a CPU: add --oversubscribe to"
                + " start them anyway\nsee oshrun --help\n", r.err());
        assertEquals("", r.out(), "no PE started");
    }

    /**
     * Every PE printed its pid, the job's bootstrap port and its secret's file: none may survive, nothing
     * may listen, neither the file nor its directory may be left (oshrun removes those of PEs that never
     * read theirs, as in mode sleep).
     */
    private static void assertNothingLeft(Result r, int npes) {
        Matcher files = Pattern.compile("secret-file (\\S+)").matcher(r.out());
        int seen = 0;
        while (files.find()) {
            seen++;
            Path file = Path.of(files.group(1));
            assertFalse(Files.exists(file) || Files.exists(file.getParent()), "left after the job: " + file);
        }
        assertEquals(npes, seen, "every PE should have printed its secret's file: " + r.out());
        Matcher m = PE_LINE.matcher(r.out());
        List<Long> pids = new ArrayList<>();
        int port = -1;
        while (m.find()) {
            pids.add(Long.parseLong(m.group(1)));
            port = Integer.parseInt(m.group(2));
        }
        assertEquals(npes, pids.size(), "every PE should have started: " + r.out());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "PE pid " + pid + " survived");
        }
        int bootstrapPort = port;
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", bootstrapPort).close(),
                "the bootstrap server still listens");
    }

    private Result oshrun(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(repositoryRoot().resolve("bin/oshrun").toString());
        command.addAll(List.of(args));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process oshrun = start(command, out, err);
        if (!oshrun.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS)) {
            oshrun.descendants().forEach(ProcessHandle::destroyForcibly);
            oshrun.destroyForcibly();
            throw new AssertionError("oshrun hung: " + String.join(" ", args));
        }
        return new Result(oshrun.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Starts {@code command} (bin/oshrun and its arguments) reading /dev/null, writing to {@code out} and {@code err}. */
    static Process start(List<String> command, Path out, Path err) throws IOException {
        return new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
    }

    static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isExecutable(p.resolve("bin/oshrun"))) {
                return p;
            }
        }
        throw new AssertionError("bin/oshrun not found above " + Path.of("").toAbsolutePath());
    }

    private static String testClasses() {
        return Path.of("target/test-classes").toAbsolutePath().toString();
    }

    private static int count(String text, String what) {
        return text.split(Pattern.quote(what), -1).length - 1;
    }
}
