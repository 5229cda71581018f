/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import io.jshmem.core.base.Config;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.testing.InProcessBootstrap;
import io.jshmem.core.testing.PeThreads;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * N PEs inside one JVM, for testing {@link UcxTransport} directly: each PE has its own symmetric
 * heap (a real /dev/shm segment), its own UCX context and worker, and shmem-core's in-process test
 * bootstrap ({@link InProcessBootstrap}: keys through a shared map, a barrier as fence). The peers
 * are not mapped (SHMEM_TRANSPORT=ucx), so every access between them goes through UCX for real.
 * Each step has a deadline ({@link PeThreads}): a PE that hangs fails the case, named.
 */
final class InProcessJob implements AutoCloseable {
    final SymmetricHeap[] heaps;
    final UcxTransport[] transports;
    final InProcessBootstrap[] pes;
    private final PeThreads threads;

    /** Skips the calling test class (saying so on stdout) where libucp cannot be loaded. */
    static void assumeLibucp(Class<?> test) {
        String why = Ucp.unavailableReason();
        if (why != null) {
            System.out.println(test.getSimpleName() + " skipped: " + why);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(why == null, why);
    }

    /**
     * Skips a test whose PE makes its first endpoint to a PE that has died: UCX up to 1.13 can abort
     * the process on that path (a SIGSEGV in uct_md_mem_dereg, wire-up assertions), which is why
     * JSHMEM_UCX_WIREUP=auto wires up eagerly with it ({@link WireUp#eager}).
     */
    static void assumeUcxSurvivesPeerLossInWireUp(String test) {
        if (Ucp.abortsOnPeerLossInWireUp()) {
            String why = "UCX " + Ucp.version() + " can abort the process when a peer fails during a wire-up"
                    + " (JSHMEM_UCX_WIREUP=auto wires up eagerly with it); " + test + " runs with a later UCX";
            System.out.println(test + " skipped: " + why);
            org.junit.jupiter.api.Assumptions.abort(why);
        }
    }

    InProcessJob(int n, long heapBytes, Map<String, String> env) throws Exception {
        String jobId = "ucxtest" + ProcessHandle.current().pid() + "x" + System.nanoTime();
        pes = InProcessBootstrap.job(jobId, new int[n], () -> false);
        heaps = new SymmetricHeap[n];
        transports = new UcxTransport[n];
        threads = new PeThreads("in-process UCX job " + jobId, n);
        Config config = Config.fromEnvironment(java.util.Map.of("SHMEM_SYMMETRIC_SIZE", Long.toString(heapBytes), "SHMEM_TRANSPORT", "ucx"));
        all(pe -> {
            heaps[pe] = SymmetricHeap.create(pes[pe], config);
            transports[pe] = UcxTransport.create(pes[pe], heaps[pe], env);
            return null;
        });
    }

    /**
     * Runs {@code body} for every PE at once, each on its own thread; rethrows the first failure, or
     * fails naming the PEs still inside it after {@link PeThreads#STEP_DEADLINE}.
     */
    <T> List<T> all(IntFunction<T> body) throws Exception {
        return threads.all(body);
    }

    /** Non-collective teardown of every PE (after a failure), then the heaps. */
    void abandon() {
        try {
            for (int pe = 0; pe < pes.length; pe++) {
                if (transports[pe] != null) {
                    transports[pe].abandon();
                }
                if (heaps[pe] != null) {
                    heaps[pe].close();
                }
            }
        } finally {
            threads.close();
        }
    }

    @Override
    public void close() throws Exception {
        if (threads.stuck()) {
            abandon(); // a PE is still inside a step: no collective close
            return;
        }
        try {
            all(pe -> {
                if (transports[pe] != null) {
                    transports[pe].close();
                }
                if (heaps[pe] != null) {
                    heaps[pe].close();
                }
                return null;
            });
        } finally {
            threads.close();
        }
    }
}
