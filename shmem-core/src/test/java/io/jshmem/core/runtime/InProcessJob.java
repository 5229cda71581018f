/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;
import io.jshmem.core.base.Config;
import io.jshmem.core.comm.Comm;
import io.jshmem.core.testing.InProcessBootstrap;
import io.jshmem.core.testing.PeThreads;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.IntFunction;

/**
 * N PEs of real {@link ShmemRuntime}s inside one JVM, one thread each, spread over simulated
 * nodes: PEs of one node map each other's (real /dev/shm) heaps; PEs of different nodes reach each
 * other through a {@link LoopbackTransport}. So teams, collectives, locks and atomics run over
 * {@link Comm} exactly as in a job of several nodes, with no process or network in the way.
 * Each step has a deadline ({@link PeThreads}): a PE that hangs fails the case, named.
 */
final class InProcessJob implements AutoCloseable {
    private final InProcessBootstrap[] pes;
    final ShmemRuntime[] runtimes;
    final LoopbackTransport[] transports;
    private final PeThreads threads;

    /**
     * @param nodes     the node of each PE, e.g. {0, 0, 1, 1}: two nodes of two PEs
     * @param coherent  whether the loopback says its atomics are coherent with CPU atomics
     * @param atomics   SHMEM_ATOMICS: auto, cpu or transport
     * @param posted    whether the loopback delivers puts and non-fetching atomics later, reordered between fences
     */
    InProcessJob(int[] nodes, boolean coherent, String atomics, boolean posted) throws Exception {
        this(nodes, coherent, atomics, posted, "auto");
    }

    /** As above, with JSHMEM_COLL_ALGORITHM {@code collAlgorithm}. */
    InProcessJob(int[] nodes, boolean coherent, String atomics, boolean posted, String collAlgorithm) throws Exception {
        this(nodes, coherent, atomics, posted, collAlgorithm, "8m", (pe, t) -> t);
    }

    /**
     * As above, with SHMEM_SYMMETRIC_SIZE {@code symmetricSize} (small for many PEs), and each PE's
     * transport being {@code wrap.apply(pe, its loopback)} (a counting wrapper: the simulator).
     */
    InProcessJob(int[] nodes, boolean coherent, String atomics, boolean posted, String collAlgorithm, String symmetricSize,
            BiFunction<Integer, LoopbackTransport, RemoteTransport> wrap) throws Exception {
        this(nodes, coherent, atomics, posted, collAlgorithm, symmetricSize, wrap, Map.of());
    }

    /** As above, with more settings ({@code settings}, e.g. JSHMEM_REDUCE_ALGORITHM). */
    InProcessJob(int[] nodes, boolean coherent, String atomics, boolean posted, String collAlgorithm, String symmetricSize,
            BiFunction<Integer, LoopbackTransport, RemoteTransport> wrap, Map<String, String> settings) throws Exception {
        int n = nodes.length;
        String jobId = "coretest" + ProcessHandle.current().pid() + "x" + System.nanoTime();
        pes = InProcessBootstrap.job(jobId, nodes, () -> false);
        runtimes = new ShmemRuntime[n];
        transports = new LoopbackTransport[n];
        threads = new PeThreads("in-process job " + jobId + " (nodes " + java.util.Arrays.toString(nodes) + ")", n);
        Map<String, String> env = new java.util.HashMap<>(settings);
        env.putAll(Map.of("SHMEM_SYMMETRIC_SIZE", symmetricSize, "JSHMEM_COLL_ALGORITHM", collAlgorithm, "SHMEM_ATOMICS", atomics));
        Config config = Config.fromEnvironment(env);
        MemorySegment[] heaps = new MemorySegment[n];
        all(pe -> {
            runtimes[pe] = ShmemRuntime.create(pes[pe], config, ThreadLevel.MULTIPLE, heap -> {
                heaps[pe] = heap.self();
                boolean remote = false;
                for (MemorySegment s : heap.peers()) {
                    remote |= s == null;
                }
                if (!remote && !atomics.equals("transport")) {
                    pes[pe].fence();
                    return null;
                }
                transports[pe] = new LoopbackTransport(heaps, coherent, posted);
                pes[pe].fence(); // like a real wire-up, collective: every PE's heap is known before use
                return wrap.apply(pe, transports[pe]);
            });
            return null;
        });
    }

    /** The world PE of each member of {@code team}, in team order. */
    static int[] worldPes(io.jshmem.ShmemTeam team, io.jshmem.ShmemTeam world) {
        int[] pes = new int[team.nPes()];
        for (int i = 0; i < pes.length; i++) {
            pes[i] = team.translatePe(i, world);
        }
        return pes;
    }

    int size() {
        return pes.length;
    }

    Shmem shmem(int pe) {
        return runtimes[pe];
    }

    /** The reasons the job was aborted with, in order. */
    List<String> aborts() {
        return pes[0].aborts;
    }

    /**
     * Asserts that the job was aborted as collective calls that do not match, with a message that
     * names each of {@code named} (the operations, a PE).
     */
    void assertMismatchAbort(String... named) {
        assertFalse(aborts().isEmpty(), "the job was not aborted");
        String why = aborts().get(0);
        assertTrue(why.contains("collective calls do not match"), why);
        for (String n : named) {
            assertTrue(why.contains(n), "no \"" + n + "\" in: " + why);
        }
    }

    /**
     * Runs {@code body} for every PE at once, each on its own thread; rethrows the first failure, or
     * fails naming the PEs still inside it after {@link PeThreads#STEP_DEADLINE}.
     */
    <T> List<T> all(IntFunction<T> body) throws Exception {
        return threads.all(body);
    }

    @Override
    public void close() throws Exception {
        if (!aborts().isEmpty() || threads.stuck()) {
            // An aborted job cannot finalize collectively, nor can one with a PE stuck in a step:
            // tear down like a failing PE does (a stuck PE's next heap access then fails, ending its thread).
            threads.closeAndWait();
            for (ShmemRuntime rt : runtimes) {
                if (rt != null) {
                    rt.st.failed = true;
                    rt.st.heap.close();
                }
            }
            return;
        }
        try {
            all(pe -> {
                if (runtimes[pe] != null) {
                    runtimes[pe].close();
                }
                return null;
            });
        } finally {
            threads.close();
        }
    }
}
