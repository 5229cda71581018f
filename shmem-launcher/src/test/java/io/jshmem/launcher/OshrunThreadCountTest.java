/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * oshrun's own threads do not grow with the number of PEs (issue 35): 64 local PEs (oversubscribed:
 * {@link TestPeMain} in mode {@code hang}, connected to the bootstrap server, past a fence), with the
 * standard error aggregated (the default) and with --tag-output (both streams forwarded). The only
 * threads per PE are the JDK's "process reaper" threads, one per child process, which oshrun cannot
 * avoid while it starts each local PE as a java.lang.Process; PEs on other hosts cost one per host
 * (its launch agent). Counts threads, never times anything.
 */
class OshrunThreadCountTest {
    private static final int NPES = 64;
    /** Every thread of the launcher's JVM but the reapers: the JVM's own (~12), oshrun's, carriers. */
    private static final int BOUND = 40;
    /** Only a guard against a hanging job: 64 JVMs on a loaded machine take a while to start. */
    private static final long GUARD_SECONDS = 300;

    @TempDir
    Path dir;

    @Test
    void aggregatedStandardError() throws Exception {
        check();
    }

    @Test
    void tagOutput() throws Exception {
        check("--tag-output");
    }

    /**
     * The same 64 PEs on 4 "remote" hosts (a fake agent running the host script here): one agent per
     * host, so 4 agent invocations and 4 reapers, and every thread of the launcher stays under the bound.
     */
    @Test
    void remoteHosts() throws Exception {
        Path agent = dir.resolve("fake-agent");
        Files.writeString(agent, "#!/bin/sh\necho \"$1\" >> '" + dir.resolve("agent-hosts") + "'\nshift\nexec \"$@\"\n");
        Files.setPosixFilePermissions(agent, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, Integer> threads = check("--host", "nodeA:16,nodeB:16,nodeC:16,nodeD:16", "--launch-agent",
                agent.toString());
        // One per agent; a pooled reaper of an earlier short-lived child may linger: not one per PE in any case.
        assertTrue(threads.getOrDefault("process reaper", 0) <= 8, threads.toString());
        assertEquals(List.of("nodeA", "nodeB", "nodeC", "nodeD"),
                Files.readAllLines(dir.resolve("agent-hosts")).stream().sorted().toList());
    }

    private Map<String, Integer> check(String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(OshrunEndToEndTest.repositoryRoot().resolve("bin/oshrun").toString(),
                "-np", Integer.toString(NPES), "--oversubscribe", "-q"));
        command.addAll(List.of(options));
        command.addAll(List.of("-cp", Path.of("target/test-classes").toAbsolutePath().toString(),
                TestPeMain.class.getName(), "hang"));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process oshrun = OshrunEndToEndTest.start(command, out, err);
        Map<String, Integer> threads;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(GUARD_SECONDS);
            while (ready(out) < NPES) {
                assertTrue(oshrun.isAlive(), () -> "oshrun ended early: " + read(err));
                assertTrue(System.nanoTime() < deadline, () -> "the PEs did not all start: " + read(err));
                Thread.sleep(200);
            }
            threads = threads(oshrun.pid());
            int reapers = threads.getOrDefault("process reaper", 0);
            int others = threads.values().stream().mapToInt(Integer::intValue).sum() - reapers;
            String report = "oshrun's threads at " + NPES + " PEs " + List.of(options) + ": " + threads;
            System.out.println(report);
            assertTrue(others <= BOUND, report);
            assertTrue(reapers <= NPES, report);
            assertTrue(threads.keySet().stream().noneMatch(name -> name.matches("oshrun-.*pe\\d*")), report);
        } finally {
            oshrun.destroy(); // SIGTERM: oshrun ends its PEs
            if (!oshrun.waitFor(GUARD_SECONDS, TimeUnit.SECONDS)) {
                oshrun.descendants().forEach(ProcessHandle::destroyForcibly);
                oshrun.destroyForcibly();
            }
        }
        assertEquals(143, oshrun.exitValue(), read(err));
        return threads;
    }

    private static int ready(Path out) throws IOException {
        return (int) read(out).lines().filter(l -> l.matches("(\\[PE \\d+\\] )?ready \\d+")).count();
    }

    /** The launcher JVM's threads by name, digits at the end of names removed (so "oshrun-watch-pe"). */
    private static Map<String, Integer> threads(long pid) throws IOException {
        Map<String, Integer> names = new TreeMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip().replaceAll("\\d+$", "");
                    names.merge(name, 1, Integer::sum);
                } catch (IOException e) {
                    // the thread ended meanwhile
                }
            }
        }
        return names;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
