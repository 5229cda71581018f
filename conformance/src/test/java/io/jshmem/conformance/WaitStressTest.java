/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Waiting and waking under stress: 8 PEs on this machine's cores run 100,000 barriers (with
 * broadcasts and reductions), 20,000 rounds of a put-with-signal token ring and 20,000 p/waitUntil
 * ping-pongs, all checked exactly ({@link WaitStress}), while this test stops one PE after another
 * with SIGSTOP for a second. The others wait long enough to go to sleep on their futexes and must
 * be woken when the stopped PE resumes: a lost wake-up would hang the job until oshrun's --timeout.
 */
class WaitStressTest {
    private static final String PROGRAM = "io.jshmem.conformance.WaitStress";
    private static final int NPES = 8;

    @Test
    void barriersSignalsAndWaitsSurviveStoppedPes() throws Exception {
        stress(NPES, List.of(), 100_000, 20_000);
    }

    /**
     * The same with every peer over UCX/TCP (4 PEs, fewer rounds: a barrier costs ~100 us there).
     * There a sleeping PE is woken by its own progress thread after it applied a peer's write
     * (RemoteTransport.remoteWritesWake), and the waiter hands the worker to it when it sleeps.
     */
    @Test
    void overUcxTcpToo() throws Exception {
        String why = io.jshmem.conformance.spawn.Jobs.ucxUnavailable().orElse(null);
        Assumptions.assumeTrue(why == null, () -> "UCX: " + why);
        stress(4, List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self"), 20_000, 4_000);
    }

    private static void stress(int npes, List<String> options, int barriers, int rounds) throws Exception {
        Pattern pidLine = Pattern.compile("(?m)^PID (\\d+) (\\d+)$");
        int stops = 0;
        try (Oshrun.Job job = Oshrun.start(npes, options, Oshrun.conformanceClasses(), PROGRAM,
                Integer.toString(barriers), Integer.toString(rounds))) {
            Map<Integer, Long> pids = new HashMap<>();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (pids.size() < npes || !job.stdout().contains("STARTED")) {
                Matcher m = pidLine.matcher(job.stdout());
                while (m.find()) {
                    pids.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
                }
                if (!job.process.isAlive()) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    fail("the PEs did not all start within 120 s" + Oshrun.tail(job.stdout(), job.stderr()));
                }
                Thread.sleep(50);
            }
            // Stop PE 1, 2, ... in turn for a second each, with a second of running in between.
            for (int k = 0; job.process.isAlive() && k < npes; k++) {
                long pid = pids.getOrDefault(1 + k % (npes - 1), -1L);
                if (pid > 0 && signal("STOP", pid)) {
                    stops++;
                    Thread.sleep(1000);
                    signal("CONT", pid);
                }
                job.process.waitFor(1, TimeUnit.SECONDS);
            }
            Oshrun.Result r = job.await();
            assertEquals(0, r.exitCode(), "wait stress job" + r.tail());
            assertTrue(r.stdout().contains("WAITSTRESS OK barriers=" + barriers + " rounds=" + rounds + " pes=" + npes),
                    "no OK line" + r.tail());
            assertFalse(r.stdout().contains("FAIL"), "a check failed" + r.tail());
        }
        System.out.println("WaitStressTest " + options + ": " + stops + " PEs stopped for 1 s while the job ran");
        assertTrue(stops > 0, "the job ended before any PE could be stopped: it no longer stresses waiting");
    }

    private static boolean signal(String sig, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + sig, Long.toString(pid)).redirectErrorStream(true).start();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }
}
