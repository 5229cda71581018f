/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lazy and eager UCX wire-up in real jobs through {@code bin/oshrun} (SHMEM_TRANSPORT=ucx,
 * UCX_TLS=tcp,self: every peer over TCP on this one node), running {@link LazyCases}: first use
 * from 8 threads at once and from created contexts, re-initialization, the TCP connections a PE
 * holds in a 16-PE job, and a PE that died before anyone used it.
 */
class LazyWireUpJobTest {
    @BeforeAll
    static void findTree() {
        UcxJobTest.findTree();
    }

    private static UcxJobTest.Result run(int npes, String wireUp, String what) throws Exception {
        // --oversubscribe: 16 PEs are over 8 a CPU on a machine with fewer than 2 (oshrun refuses that otherwise).
        return UcxJobTest.oshrun("-np", Integer.toString(npes), "--oversubscribe", "-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self",
                "-x", "JSHMEM_UCX_WIREUP=" + wireUp, "-cp", UcxJobTest.testClasses.toString(), LazyCases.class.getName(), what);
    }

    private static void assertAllPassed(UcxJobTest.Result r, int npes) {
        assertEquals(0, r.status(), r.all());
        for (int pe = 0; pe < npes; pe++) {
            assertTrue(r.out().matches("(?s).*PE " + pe + ": \\d+ checks passed\n.*"), "PE " + pe + " did not pass\n" + r.all());
        }
    }

    @Test
    void lazyFirstUseFromThreadsAndContextsAndAfterReinit() throws Exception {
        assertAllPassed(run(4, "lazy", "lazy"), 4);
    }

    @Test
    void eagerWireUpConnectsEveryoneAtInit() throws Exception {
        assertAllPassed(run(4, "eager", "eager"), 4);
    }

    /**
     * 16 PEs put to their right neighbour and run a barrier: with lazy endpoints each holds the
     * connections of the peers it used (the dissemination barrier's 4 targets and 4 sources: it
     * runs among all 16 "nodes", since with SHMEM_TRANSPORT=ucx no PE maps another) and the
     * bootstrap's, at most 2 log2(N) + 2 = 10; with eager wire-up every PE holds 15 + 1.
     */
    @Test
    void aPeHoldsLogarithmicallyManyTcpConnections() throws Exception {
        int npes = 16;
        UcxJobTest.Result r = run(npes, "lazy", "tcp");
        System.out.println("16-PE ring + barrier over UCX/TCP, lazy wire-up:\n" + r.out());
        assertEquals(0, r.status(), r.all());
        int bound = 2 * 4 + 2;
        Matcher m = Pattern.compile("PE (\\d+): tcp (\\d+) endpoints (\\d+) \\[[0-9, ]*\\](.*)").matcher(r.out());
        int seen = 0;
        while (m.find()) {
            seen++;
            int connections = Integer.parseInt(m.group(2));
            assertTrue(connections <= bound, "PE " + m.group(1) + " holds " + connections + " TCP connections (at most " + bound
                    + " expected)\n" + r.all());
            assertTrue(connections >= 2, "PE " + m.group(1) + " holds only " + connections + " TCP connections: not counted?\n" + r.all());
            assertEquals("", m.group(4), r.all());
        }
        assertEquals(npes, seen, r.all());
    }

    @Test
    void aPeDeadBeforeFirstUseEndsTheJobNamingIt() throws Exception {
        InProcessJob.assumeUcxSurvivesPeerLossInWireUp("LazyWireUpJobTest.aPeDeadBeforeFirstUseEndsTheJobNamingIt");
        UcxJobTest.Result r = run(3, "lazy", "dead");
        System.out.println("dead PE before first use: exit " + r.status() + "\n" + r.out() + r.err());
        assertNotEquals(0, r.status(), r.all());
        assertTrue(r.out().contains("PE 2: killing itself"), r.all());
        assertTrue(r.err().contains("oshrun: PE 2 (pid"), r.all());
        assertTrue(!r.out().contains("no error from the dead PE"), r.all());
        // A PE that got to its first operation before oshrun ended it says which PE failed.
        Matcher m = Pattern.compile("PE \\d: first use failed: (.*)").matcher(r.out());
        while (m.find()) {
            assertTrue(m.group(1).contains("PE 2"), r.all());
        }
    }
}
