/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.testing.InProcessBootstrap;
import io.jshmem.core.testing.PeThreads;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * PEs whose job-wide settings differ (a collective algorithm, the atomics, the heap size) fail
 * together at init, every PE naming the setting and both values, instead of hanging in the first
 * collective; PEs that agree all start. Real heaps (in /dev/shm), PEs as threads with in-process
 * bootstraps, on simulated nodes.
 */
class SettingsAgreementTest {
    private static final Map<String, String> BASE = Map.of("SHMEM_SYMMETRIC_SIZE", "1m");

    @Test
    void aNodeMateWithAnotherAlgorithmFailsTheWholeJob() throws Exception {
        List<String> out = run(new int[] {0, 0, 1, 1}, 3, Map.of("JSHMEM_REDUCE_ALGORITHM", "push-recursive-doubling"));
        for (int pe = 0; pe < 4; pe++) {
            assertTrue(out.get(pe).contains("JSHMEM_REDUCE_ALGORITHM=") && out.get(pe).contains("push-recursive-doubling")
                    && out.get(pe).contains("auto"), "PE " + pe + ": " + out.get(pe));
            assertTrue(out.get(pe).startsWith("PE " + pe + ": "), out.get(pe));
        }
        assertTrue(out.get(3).contains("JSHMEM_REDUCE_ALGORITHM=push-recursive-doubling on PE 3 but auto on PE 2"), out.get(3));
        assertTrue(out.get(0).contains("initialization failed"), out.get(0));
    }

    @Test
    void onePePerNodeIsComparedWithThePreviousPe() throws Exception {
        // No node-mates: only the chain of previous PEs connects them.
        List<String> out = run(new int[] {0, 1, 2, 3}, 2, Map.of("SHMEM_ATOMICS", "transport"));
        assertTrue(out.get(2).contains("SHMEM_ATOMICS=transport on PE 2 but auto on PE 1"), out.get(2));
        for (int pe = 0; pe < 4; pe++) {
            assertTrue(out.get(pe).contains("SHMEM_ATOMICS"), "PE " + pe + ": " + out.get(pe));
        }
    }

    @Test
    void aDifferentHeapSizeAcrossNodesIsNamed() throws Exception {
        List<String> out = run(new int[] {0, 0, 1, 1}, 2, Map.of("SHMEM_SYMMETRIC_SIZE", "2m"));
        assertTrue(out.get(2).contains("SHMEM_SYMMETRIC_SIZE=2 MiB on PE 2 but 1 MiB on PE 3"), out.get(2));
    }

    @Test
    void agreeingPesAllStart() throws Exception {
        assertEquals(List.of("ok", "ok", "ok", "ok", "ok"), run(new int[] {0, 0, 1, 1, 2}, -1, Map.of()));
    }

    @Test
    void differenceNamesEachSettingAndAcceptsOldRecords() {
        Config a = Config.fromEnvironment(BASE);
        Config b = Config.fromEnvironment(Map.of("SHMEM_SYMMETRIC_SIZE", "1m", "JSHMEM_BARRIER_ALGORITHM", "dissemination",
                "SHMEM_DEBUG", "1"));
        assertNull(SettingsAgreement.difference(0, SettingsAgreement.values(a), 1, SettingsAgreement.values(a)));
        assertNull(SettingsAgreement.difference(0, SettingsAgreement.values(a), 1, null), "a record without settings");
        String d = SettingsAgreement.difference(1, SettingsAgreement.values(b), 0, SettingsAgreement.values(a));
        assertTrue(d.startsWith("PE 1: the PEs of this job run with different settings: SHMEM_DEBUG=on on PE 1 but off on"
                + " PE 0; JSHMEM_BARRIER_ALGORITHM=dissemination on PE 1 but auto on PE 0. Every PE must use the same"), d);
    }

    /** Creates every PE's heap, PE {@code odd} with {@code extra} settings; each PE's exception message or "ok". */
    private static List<String> run(int[] nodes, int odd, Map<String, String> extra) throws Exception {
        InProcessBootstrap[] pes = InProcessBootstrap.job("agree" + ProcessHandle.current().pid() + "x" + System.nanoTime(), nodes,
                () -> false);
        try (PeThreads threads = new PeThreads("settings agreement", nodes.length)) {
            return threads.all(pe -> {
                Map<String, String> env = new java.util.HashMap<>(BASE);
                if (pe == odd) {
                    env.putAll(extra);
                }
                try {
                    SymmetricHeap heap = SymmetricHeap.create(pes[pe], Config.fromEnvironment(env));
                    pes[pe].fence(); // every PE has mapped its node-mates' segments before any unmaps
                    heap.close();
                    return "ok";
                } catch (ShmemException e) {
                    return e.getMessage();
                }
            });
        }
    }
}
