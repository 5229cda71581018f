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
 * PEs whose job-wide settings differ (a collective algorithm, the atomics, the heap size) end the
 * job at init, the PE that finds it naming the setting and both values, instead of hanging in the
 * first collective; PEs that agree all start. Real heaps (in /dev/shm), PEs as threads with in-process
 * bootstraps, on simulated nodes.
 */
class SettingsAgreementTest {
    private static final Map<String, String> BASE = Map.of("SHMEM_SYMMETRIC_SIZE", "1m");

    @Test
    void aNodeMateWithAnotherAlgorithmEndsTheJob() throws Exception {
        Outcome o = run(new int[] {0, 0, 1, 1}, 3, Map.of("JSHMEM_REDUCE_ALGORITHM", "push-recursive-doubling"));
        o.everyPeFailed();
        // PE 3 and its node-mate PE 2 each find it; whichever aborts first, both values are named.
        assertTrue(o.aborted("JSHMEM_REDUCE_ALGORITHM=push-recursive-doubling on PE 3 but auto on PE 2")
                || o.aborted("JSHMEM_REDUCE_ALGORITHM=auto on PE 2 but push-recursive-doubling on PE 3"), o.aborts().toString());
    }

    @Test
    void onePePerNodeIsComparedWithThePreviousPe() throws Exception {
        // No node-mates: only the chain of previous PEs connects them, so only PE 2 can find it.
        Outcome o = run(new int[] {0, 1, 2, 3}, 2, Map.of("SHMEM_ATOMICS", "transport"));
        o.everyPeFailed();
        assertTrue(o.aborted("PE 2: the PEs of this job run with different settings: SHMEM_ATOMICS=transport on PE 2 but auto on PE 1."),
                o.aborts().toString());
        assertTrue(o.outcomes().get(2).contains("SHMEM_ATOMICS=transport on PE 2 but auto on PE 1"), o.outcomes().get(2));
    }

    @Test
    void aDifferentHeapSizeIsNamed() throws Exception {
        Outcome o = run(new int[] {0, 0, 1, 1}, 2, Map.of("SHMEM_SYMMETRIC_SIZE", "2m"));
        o.everyPeFailed();
        assertTrue(o.aborted("SHMEM_SYMMETRIC_SIZE=2 MiB on PE 2 but 1 MiB on PE "), o.aborts().toString());
    }

    @Test
    void agreeingPesAllStart() throws Exception {
        Outcome o = run(new int[] {0, 0, 1, 1, 2}, -1, Map.of());
        assertEquals(List.of("ok", "ok", "ok", "ok", "ok"), o.outcomes());
        assertEquals(List.of(), o.aborts());
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

    /** Each PE's exception message or "ok", and the reasons the job was aborted with. */
    private record Outcome(List<String> outcomes, List<String> aborts) {
        void everyPeFailed() {
            for (int pe = 0; pe < outcomes.size(); pe++) {
                assertTrue(!outcomes.get(pe).equals("ok"), "PE " + pe + " started although the settings differ");
            }
        }

        boolean aborted(String part) {
            return aborts.stream().anyMatch(a -> a.contains(part));
        }
    }

    /** Creates every PE's heap, PE {@code odd} with {@code extra} settings. */
    private static Outcome run(int[] nodes, int odd, Map<String, String> extra) throws Exception {
        InProcessBootstrap[] pes = InProcessBootstrap.job("agree" + ProcessHandle.current().pid() + "x" + System.nanoTime(), nodes,
                () -> false);
        try (PeThreads threads = new PeThreads("settings agreement", nodes.length)) {
            List<String> outcomes = threads.all(pe -> {
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
            return new Outcome(outcomes, List.copyOf(pes[0].aborts));
        }
    }
}
