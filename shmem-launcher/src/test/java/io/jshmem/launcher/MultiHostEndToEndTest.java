/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/oshrun with a host list, on this machine only: "remote" hosts are reached through a fake launch
 * agent that records the host and runs the command locally, so the whole remote path (agent, start
 * script on standard input, lifeline, marker, exit status) runs for real. The multinode module runs
 * the same with Docker containers as hosts.
 */
class MultiHostEndToEndTest {
    private static final long HANG_GUARD_SECONDS = 90;
    private static final String MAIN = TestPeMain.class.getName();
    private static final Pattern PE_LINE = Pattern.compile("pid (\\d+) bootstrap (\\S+):(\\d+) pe (\\d+)");

    @TempDir
    Path dir;

    private record Result(int status, String out, String err, double seconds) {
    }

    @Test
    void pesArePlacedOnTheHostsInOrderWithNodeIdsFromTheList() throws Exception {
        Result r = oshrun("--host", "localhost:1,nodeA:2,nodeB:1", "--launch-agent", fakeAgent(), "-x", "TEST_VAR=xyz",
                "-cp", testClasses(), MAIN, "ok");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("placement pe 0 node 0 local 0 of 1\n"), r.out());
        assertTrue(r.out().contains("placement pe 1 node 1 local 0 of 2\n"), r.out());
        assertTrue(r.out().contains("placement pe 2 node 1 local 1 of 2\n"), r.out());
        assertTrue(r.out().contains("placement pe 3 node 2 local 0 of 1\n"), r.out());
        for (int pe = 0; pe < 4; pe++) {
            assertTrue(r.out().contains("hello from " + pe + " of 4 TEST_VAR=xyz\n"), "-x reaches remote PEs: " + r.out());
        }
        assertFalse(r.out().contains(RemoteCommand.STARTED_MARKER), r.out());
        assertEquals(List.of("nodeA", "nodeB"), agentHosts(),
                "one agent per host (nodeA's two PEs by one), localhost started without the agent");
        assertNothingLeft(r, 4);
        // The job secret: in a private file per PE (oshrun's for the local PE, the start script's for the
        // others), removed by the PE once read, never in its environment; nothing of it is left.
        Matcher m = Pattern.compile("secret pe (\\d) file (\\S+) dir (\\S+) secret-env (\\S+)").matcher(r.out());
        int seen = 0;
        while (m.find()) {
            seen++;
            assertEquals("clean", m.group(4), "PE " + m.group(1) + ": " + r.out());
            assertFalse(Files.exists(Path.of(m.group(3))), "the secret's directory " + m.group(3) + " was left");
        }
        assertEquals(4, seen, r.out());
    }

    @Test
    void tagOutputCoversRemotePes() throws Exception {
        Result r = oshrun("--host", "nodeA:1,nodeB:1", "--launch-agent", fakeAgent(), "--tag-output", "-cp",
                testClasses(), MAIN, "ok");
        assertEquals(0, r.status(), r.err());
        for (String line : r.out().split("\n")) {
            assertTrue(line.matches("\\[PE [01]\\] .*"), line);
        }
        assertTrue(r.out().contains("[PE 1] hello from 1 of 2"), r.out());
    }

    /**
     * Several PEs per host are started by ONE agent invocation (issue 35), their output still tagged
     * per PE after travelling together through it; the job leaves nothing in /dev/shm, its secret
     * directories included.
     */
    @Test
    void oneAgentStartsAllThePesOfItsHost() throws Exception {
        Result r = oshrun("--host", "nodeA:3,nodeB:3", "--launch-agent", fakeAgent(), "--tag-output", "-cp",
                testClasses(), MAIN, "ok");
        assertEquals(0, r.status(), r.err());
        assertEquals(List.of("nodeA", "nodeB"), agentHosts(), "one agent invocation per host");
        for (int pe = 0; pe < 6; pe++) {
            assertTrue(r.out().contains("[PE " + pe + "] hello from " + pe + " of 6"), r.out());
            assertTrue(r.out().contains("[PE " + pe + "] placement pe " + pe + " node " + pe / 3 + " local " + pe % 3
                    + " of 3\n"), r.out());
        }
        for (String line : r.out().split("\n")) {
            assertTrue(line.matches("\\[PE [0-5]\\] .*"), line);
        }
        assertNothingLeft(r, 6);
        Matcher m = Pattern.compile("secret pe \\d file \\S+/jshmem-secret-([a-z0-9]+)-\\S+").matcher(r.out());
        assertTrue(m.find(), r.out());
        String jobId = m.group(1);
        try (var left = Files.list(Path.of("/dev/shm"))) {
            List<String> names = left.map(f -> f.getFileName().toString()).filter(n -> n.contains(jobId)).toList();
            assertEquals(List.of(), names, "left in /dev/shm by job " + jobId);
        }
    }

    @Test
    void aRemotePeFailingIsNamedWithItsHost() throws Exception {
        Result r = oshrun("--host", "nodeA:1,nodeB:2", "--launch-agent", fakeAgent(), "-cp", testClasses(), MAIN, "die1");
        assertEquals(3, r.status(), r.err());
        assertTrue(r.err().contains("oshrun: PE 1 (pid " + pidOf(r, 1) + " on host nodeB) exited with status 3"
                + " before finalize; ending the job\n"), r.err());
        assertNothingLeft(r, 3);
    }

    @Test
    void aRemotePeKilledBySignalEndsTheJobPromptly() throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process oshrun = startOshrun(out, err, "--host", "nodeA:2,nodeB:2", "--launch-agent", fakeAgent(), "-cp",
                testClasses(), MAIN, "hang");
        long victim = awaitReady(oshrun, out, 4).get(3);
        long t0 = System.nanoTime();
        ProcessHandle.of(victim).orElseThrow().destroyForcibly();
        Result r = finish(oshrun, out, err, t0);
        assertEquals(137, r.status(), r.err());
        assertTrue(r.err().startsWith("oshrun: PE 3 (pid " + victim + " on host nodeB) was killed by signal 9 (SIGKILL)"
                + " before finalize; ending the job\n"), r.err());
        assertTrue(r.seconds() < 15, "took " + r.seconds() + " s");
        assertNothingLeft(r, 4);
    }

    /**
     * A host's launch agent killed (the connection to the host lost, as ssh ends) while its PE runs:
     * the PE is reported lost with the agent, not as killed itself (its fate is unknown here).
     */
    @Test
    void aLostLaunchAgentIsReportedAsSuch() throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        String agent = agent("piped", "shift\ncat | \"$@\"\n"); // the agent stays the script's parent, as ssh does
        Process oshrun = startOshrun(out, err, "--host", "nodeA:1,nodeB:1", "--launch-agent", agent, "-cp",
                testClasses(), MAIN, "hang");
        long pe1 = awaitReady(oshrun, out, 2).get(1);
        ProcessHandle agentB = oshrun.descendants()
                .filter(h -> h.info().commandLine().map(c -> c.contains(agent + " nodeB")).orElse(false))
                .findFirst().orElseThrow();
        long t0 = System.nanoTime();
        agentB.destroyForcibly();
        Result r = finish(oshrun, out, err, t0);
        assertEquals(137, r.status(), r.err());
        assertTrue(r.err().startsWith("oshrun: PE 1 (pid " + pe1 + " on host nodeB) was lost with the launch agent of host"
                + " nodeB (which was killed by signal 9 (SIGKILL) without reporting the PE's exit"), r.err());
        assertNothingLeft(r, 2);
    }

    @Test
    void anAgentThatFailsIsReportedWithTheHost() throws Exception {
        Result r = oshrun("--host", "localhost:1,nodeA:1", "--launch-agent", "false", "-cp", testClasses(), MAIN, "ok");
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("oshrun: PE 1 could not be started on host nodeA: the launch agent"
                + " (\"false nodeA /bin/sh -s\") exited with status 1"), r.err());
    }

    /**
     * One host's agent fails (as ssh does, status 255) while another's is still connecting (it does
     * not read its standard input): the failure ends the job, naming the PE and host, and the agent
     * still connecting is ended with it rather than left to the remote grace.
     */
    @Test
    void anAgentThatFailsEndsTheJobWhileAnotherIsStillConnecting() throws Exception {
        Path marker = dir.resolve("still-connecting");
        String agent = agent("mixed", "host=$1; shift\n"
                + "if [ \"$host\" = nodeB ]; then echo 'ssh: connect to host nodeB port 22: No route to host' >&2; exit 255; fi\n"
                + "echo $$ > '" + marker + "'\n"
                + "sleep 600\n"
                + "exec \"$@\"\n");
        Result r = oshrun("--host", "localhost:1,nodeA:1,nodeB:1", "--launch-agent", agent, "-cp", testClasses(), MAIN, "ok");
        assertEquals(255, r.status(), r.err());
        assertTrue(r.err().contains("oshrun: PE 2 could not be started on host nodeB: the launch agent"
                + " (\"" + agent + " nodeB /bin/sh -s\") exited with status 255"), r.err());
        if (Files.exists(marker)) {
            long pid = Long.parseLong(Files.readString(marker).strip());
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false),
                    "the agent still connecting to nodeA outlived the job");
        }
    }

    @Test
    void anAgentThatDoesNotPassStandardInputOnIsDetected() throws Exception {
        Result r = oshrun("--host", "nodeA:1", "--launch-agent", agent("no-stdin", "shift\nexec \"$@\" </dev/null\n"),
                "-cp", testClasses(), MAIN, "ok");
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("without running the start script") && r.err().contains("docker exec needs -i"),
                r.err());
    }

    @Test
    void anUnreachableHostIsAClearErrorWithoutHanging() throws Exception {
        Result r = oshrun("--host", "jshmem-no-such-host.invalid:2", "-cp", testClasses(), MAIN, "ok");
        assertNotEquals(0, r.status(), r.err());
        assertTrue(Pattern.compile("oshrun: (PE \\d could not be started|cannot start PE \\d) on host"
                + " jshmem-no-such-host\\.invalid: ").matcher(r.err()).find(), r.err());
        assertTrue(r.seconds() < 30, "took " + r.seconds() + " s");
    }

    @Test
    void anAgentThatHangsHitsTheLaunchTimeout() throws Exception {
        Result r = oshrun("--host", "nodeA:1", "--launch-agent", agent("hang", "exec sleep 600\n"), "--launch-timeout",
                "1", "-cp", testClasses(), MAIN, "ok");
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().contains("PE 0 did not start on host nodeA within 1 s (--launch-timeout)"), r.err());
        assertTrue(r.seconds() < 20, "took " + r.seconds() + " s");
    }

    @Test
    void pesDieWithAKilledOshrun() throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        // PE 0 is local: the orphan guard halts it; PEs 1, 2 are "remote": their lifeline ends them.
        // PE 0's standard error is a pipe to oshrun (which prints repeated diagnostics once), dead with it.
        Process oshrun = startOshrun(out, err, "--host", "localhost:1,nodeA:2", "--launch-agent", fakeAgent(),
                "--jvm-opt", "-Djshmem.bootstrap.orphanGraceMillis=1000", "-cp", testClasses(), MAIN, "hang");
        List<Long> pids = awaitReady(oshrun, out, 3);
        oshrun.toHandle().destroyForcibly(); // bin/oshrun execs the launcher's JVM: this is SIGKILL to oshrun
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(h -> {
                try {
                    h.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (Exception e) {
                    h.destroyForcibly();
                    throw new AssertionError("PE pid " + pid + " outlived the killed oshrun", e);
                }
            });
        }
        String said = Files.readString(out) + Files.readString(err);
        assertTrue(said.contains("lost the connection to the launcher"), said);
        // The local PE, oshrun's child, says at once that its launcher died (issue 31: it used to exit
        // without a word), on its standard output since its standard error went to the dead oshrun.
        assertTrue(Files.readString(out).contains("jshmem: PE 0: the launcher (oshrun, pid " + oshrun.pid()
                + ") died before finalize; ending this PE\n"), Files.readString(out) + Files.readString(err));
    }

    @Test
    void pesOnDifferentNodesOfThisMachineDoNotShareMemory() throws Exception {
        // Two nodes by the host list, although one machine: shared memory only within a node.
        Result shm = oshrun("--host", "localhost:1,127.0.0.1:1", "-x", "SHMEM_TRANSPORT=shm", "-cp", testClasses(),
                ShmemPeMain.class.getName());
        assertNotEquals(0, shm.status(), shm.out());
        assertTrue(shm.err().contains("SHMEM_TRANSPORT=shm but some PEs are on other nodes"), shm.err());
        Result oneNode = oshrun("--host", "localhost:2", "-x", "SHMEM_TRANSPORT=shm", "-cp", testClasses(),
                ShmemPeMain.class.getName());
        assertEquals(0, oneNode.status(), oneNode.err());
        assertTrue(oneNode.out().contains("jshmem pe 1 of 2 node 0"), oneNode.out());
    }

    // ------------------------------------------------------------------ helpers

    /** A launch agent that records the host in agent-hosts and runs the command here. */
    private String fakeAgent() throws IOException {
        return agent("fake", "echo \"$1\" >> '" + dir.resolve("agent-hosts") + "'\nshift\nexec \"$@\"\n");
    }

    private String agent(String name, String body) throws IOException {
        Path script = dir.resolve(name + "-agent");
        Files.writeString(script, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script.toString();
    }

    private List<String> agentHosts() throws IOException {
        return Files.readAllLines(dir.resolve("agent-hosts")).stream().sorted().toList();
    }

    private static long pidOf(Result r, int pe) {
        Matcher m = PE_LINE.matcher(r.out());
        while (m.find()) {
            if (Integer.parseInt(m.group(4)) == pe) {
                return Long.parseLong(m.group(1));
            }
        }
        throw new AssertionError("no pid line for PE " + pe + ": " + r.out());
    }

    /** Waits for every PE to print "ready"; returns the pids by PE. */
    private static List<Long> awaitReady(Process oshrun, Path out, int npes) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
        while (System.nanoTime() < deadline && oshrun.isAlive()) {
            String text = Files.readString(out);
            if (Pattern.compile("^ready ", Pattern.MULTILINE).matcher(text).results().count() == npes) {
                Map<Integer, Long> pids = new HashMap<>();
                Matcher m = PE_LINE.matcher(text);
                while (m.find()) {
                    pids.put(Integer.parseInt(m.group(4)), Long.parseLong(m.group(1)));
                }
                List<Long> byPe = new ArrayList<>();
                for (int pe = 0; pe < npes; pe++) {
                    byPe.add(pids.get(pe));
                }
                return byPe;
            }
            Thread.sleep(50);
        }
        oshrun.descendants().forEach(ProcessHandle::destroyForcibly);
        oshrun.destroyForcibly();
        throw new AssertionError("the PEs did not get ready: " + Files.readString(out));
    }

    /** Every PE printed its pid and the job's bootstrap address: none may survive, nothing may listen. */
    private static void assertNothingLeft(Result r, int npes) {
        Matcher m = PE_LINE.matcher(r.out());
        List<Long> pids = new ArrayList<>();
        String host = null;
        int port = -1;
        while (m.find()) {
            pids.add(Long.parseLong(m.group(1)));
            host = m.group(2);
            port = Integer.parseInt(m.group(3));
        }
        assertEquals(npes, pids.size(), "every PE should have started: " + r.out());
        for (long pid : pids) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "PE pid " + pid + " survived");
        }
        String bootstrapHost = host;
        int bootstrapPort = port;
        assertThrows(ConnectException.class, () -> new Socket(bootstrapHost, bootstrapPort).close(),
                "the bootstrap server still listens");
    }

    private Result oshrun(String... args) throws IOException, InterruptedException {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        long t0 = System.nanoTime();
        return finish(startOshrun(out, err, args), out, err, t0);
    }

    private static Process startOshrun(Path out, Path err, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(repositoryRoot().resolve("bin/oshrun").toString());
        command.addAll(List.of(args));
        return new ProcessBuilder(command)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
    }

    private static Result finish(Process oshrun, Path out, Path err, long t0) throws IOException, InterruptedException {
        if (!oshrun.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS)) {
            oshrun.descendants().forEach(ProcessHandle::destroyForcibly);
            oshrun.destroyForcibly();
            throw new AssertionError("oshrun hung; stderr: " + Files.readString(err));
        }
        return new Result(oshrun.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), (System.nanoTime() - t0) / 1e9);
    }

    private static Path repositoryRoot() {
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
}
