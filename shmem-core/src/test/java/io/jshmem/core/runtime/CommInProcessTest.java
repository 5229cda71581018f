/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.core.comm.Comm;
import io.jshmem.core.team.TeamImpl;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.SignalOp;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Teams, collectives, locks, atomics and signals over {@link Comm}, in one JVM: real runtimes on
 * threads, simulated nodes joined by {@link LoopbackTransport}, for each atomics policy. Every
 * check is an exact value (totals under contention, collective results).
 */
class CommInProcessTest {
    private static final int ROUNDS = 200;

    /**
     * Shapes: nodes of each PE, whether the transport's atomics are CPU-coherent, SHMEM_ATOMICS,
     * whether the transport delivers puts and posted atomics late and out of order between fences.
     */
    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of(new int[] {0, 0, 1, 1}, true, "auto", false),       // two nodes, CPU atomics on-node
                Arguments.of(new int[] {0, 0, 1, 1}, false, "auto", false),      // device atomics: all through the transport
                Arguments.of(new int[] {0, 1, 2}, true, "cpu", false),           // every PE on its own node
                Arguments.of(new int[] {0, 0, 0, 0}, true, "transport", false),  // one node, atomics forced through it
                Arguments.of(new int[] {0, 0, 1, 1}, true, "auto", true),        // as a real network: posted, reordered
                Arguments.of(new int[] {0, 0, 1, 1}, false, "auto", true),
                Arguments.of(new int[] {0, 1, 2, 3}, true, "auto", true));
    }

    private static boolean atomicsThroughTransport(boolean coherent, String policy) {
        return policy.equals("transport") || policy.equals("auto") && !coherent;
    }

    @ParameterizedTest(name = "nodes {0}, coherent {1}, SHMEM_ATOMICS={2}, posted {3}")
    @MethodSource("shapes")
    void atomicsLocksAndSignalsGiveExactTotals(int[] nodes, boolean coherent, String policy, boolean posted) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, coherent, policy, posted)) {
            int n = job.size();
            List<long[]> results = job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray counters = s.calloc(SymType.LONG, n);
                SymIntArray ints = s.calloc(SymType.INT, 2);
                SymLongArray lock = s.calloc(SymType.LONG, 1);
                SymLongArray shared = s.calloc(SymType.LONG, 1);
                SymLongArray data = s.calloc(SymType.LONG, n);
                SymLongArray sig = s.calloc(SymType.LONG, 1);
                s.barrierAll();
                for (int r = 0; r < ROUNDS; r++) {
                    for (int pe = 0; pe < n; pe++) {
                        s.atomicFetchAdd(counters, me, 1, pe);                  // slot me on every PE, itself included
                    }
                    s.atomicAdd(ints, 0, 2, (me + r) % n);
                    int old;
                    do {                                                          // an increment by compare-and-swap
                        old = s.atomicFetch(ints, 1, 0);
                    } while (s.atomicCompareSwap(ints, 1, old, old + 1, 0) != old);
                    s.setLock(lock, 0);                                          // a non-atomic increment under the lock
                    long v = s.g(shared, 0, 0);
                    s.p(shared, 0, v + 1, 0);
                    s.quiet();
                    s.clearLock(lock, 0);
                }
                s.atomicOr(counters, 0, 1L << 40 << me, n - 1);
                s.putSignal(data, me, new long[] {100 + me}, 0, 1, sig, 0, 1, SignalOp.ADD, 0);
                long before = job.transports[me] == null ? 0 : job.transports[me].atomics.get();
                s.atomicFetchAdd(counters, me, 0, me);                           // one atomic on this PE's own heap
                long ownAtomics = (job.transports[me] == null ? 0 : job.transports[me].atomics.get()) - before;
                if (me == 0) {
                    s.signalWaitUntil(sig, 0, Cmp.GE, n);
                }
                s.barrierAll();
                long[] out = new long[3 * n + 4];
                for (int i = 0; i < n; i++) {
                    out[i] = s.g(counters, i, me);
                    out[n + i] = s.g(data, i, 0);
                }
                out[2 * n] = s.g(ints, 0, me);
                out[2 * n + 1] = s.g(ints, 1, 0);
                out[2 * n + 2] = s.g(shared, 0, 0);
                out[2 * n + 3] = ownAtomics;
                s.barrierAll();
                return out;
            });
            long orBits = 0;
            for (int pe = 0; pe < n; pe++) {
                orBits |= 1L << 40 << pe;
            }
            for (int me = 0; me < n; me++) {
                long[] out = results.get(me);
                for (int i = 0; i < n; i++) {
                    long expect = ROUNDS + (me == n - 1 && i == 0 ? orBits : 0);
                    assertEquals(expect, out[i], "PE " + me + " counter of PE " + i);
                    assertEquals(100 + i, out[n + i], "data put with signal by PE " + i);
                }
                assertEquals((long) ROUNDS * n, out[2 * n + 1], "compare-and-swap increments on PE 0");
                assertEquals((long) ROUNDS * n, out[2 * n + 2], "increments under the lock");
                assertEquals(atomicsThroughTransport(coherent, policy) ? 1 : 0, out[2 * n + 3],
                        "PE " + me + ": atomics on its own heap through the transport");
            }
            long adds = 0;
            for (int me = 0; me < n; me++) {
                adds += results.get(me)[2 * n];
            }
            assertEquals(2L * ROUNDS * n, adds, "atomic adds of 2 spread over the PEs");
            assertEquals(List.of(), job.aborts());
        }
    }

    @ParameterizedTest(name = "nodes {0}, coherent {1}, SHMEM_ATOMICS={2}, posted {3}")
    @MethodSource("shapes")
    void collectivesOverTeamsSpanningNodes(int[] nodes, boolean coherent, String policy, boolean posted) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, coherent, policy, posted)) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                for (ShmemTeam team : new ShmemTeam[] {s.teamWorld(), s.teamShared()}) {
                    int tn = team.nPes();
                    int tme = team.myPe();
                    for (int len : new int[] {1, 100, 5000}) {             // push-sized and pull-sized
                        SymLongArray src = s.malloc(SymType.LONG, len * (long) tn);
                        SymLongArray dst = s.malloc(SymType.LONG, len * (long) tn);
                        for (int i = 0; i < len * tn; i++) {
                            src.set(i, 1000L * tme + i);
                        }
                        team.sync();
                        for (int root = 0; root < tn; root++) {
                            team.broadcast(dst, src, len, root);
                            for (int i = 0; i < len; i++) {
                                assertEquals(1000L * root + i, dst.get(i), team + " broadcast from " + root);
                            }
                        }
                        team.sumReduce(dst, src, len);
                        for (int i = 0; i < len; i++) {
                            assertEquals(1000L * tn * (tn - 1) / 2 + (long) tn * i, dst.get(i), team + " sum_reduce [" + i + "]");
                        }
                        team.fcollect(dst, src, len);
                        for (int p = 0; p < tn; p++) {
                            assertEquals(1000L * p + len - 1, dst.get((long) p * len + len - 1), team + " fcollect block " + p);
                        }
                        team.alltoall(dst, src, len);
                        for (int p = 0; p < tn; p++) {
                            assertEquals(1000L * p + (long) tme * len, dst.get((long) p * len), team + " alltoall from " + p);
                        }
                        team.sumInscan(dst, src, len);
                        assertEquals(1000L * tme * (tme + 1) / 2 + (long) (tme + 1) * (len - 1), dst.get(len - 1),
                                team + " sum_inscan");
                        team.sync();
                        s.free(dst);
                        s.free(src);
                    }
                    SymLongArray mine = s.malloc(SymType.LONG, tn + 1L);
                    SymLongArray all = s.malloc(SymType.LONG, (long) tn * (tn + 1) / 2 + tn);
                    for (int i = 0; i <= tme; i++) {
                        mine.set(i, tme);
                    }
                    team.collect(all, mine, tme + 1);                          // PE i gives i+1 elements
                    long at = 0;
                    for (int p = 0; p < tn; p++) {
                        long[] block = new long[p + 1];
                        long[] want = new long[p + 1];
                        java.util.Arrays.fill(want, p);
                        for (int i = 0; i <= p; i++) {
                            block[i] = all.get(at + i);
                        }
                        assertArrayEquals(want, block, team + " collect block of PE " + p);
                        at += p + 1;
                    }
                    s.free(all);
                    s.free(mine);
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
            assertTrue(n > 1);
        }
    }

    /**
     * Broadcast across nodes down the binomial tree (auto above 8 PEs, or forced) and flat (forced),
     * from every root, with a network that delivers late and reordered, back to back (buffer reuse)
     * and with a mismatched root among the calls caught.
     */
    @ParameterizedTest(name = "nodes {0}, JSHMEM_COLL_ALGORITHM={1}")
    @MethodSource("broadcastShapes")
    void broadcastAcrossNodesFromEveryRoot(int[] nodes, String algorithm) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, algorithm)) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray src = s.malloc(SymType.LONG, 1000);
                SymLongArray dst = s.malloc(SymType.LONG, 1000);
                for (int len : new int[] {1, 1000}) {
                    for (int i = 0; i < len; i++) {
                        src.set(i, 1_000_000L * me + i);
                    }
                    s.barrierAll();
                    for (int rep = 0; rep < 3; rep++) {
                        for (int root = 0; root < n; root++) {
                            dst.set(len - 1, -1);
                            s.teamWorld().broadcast(dst, src, len, root);
                            assertEquals(1_000_000L * root, dst.get(0), "broadcast from " + root + " [0] on PE " + me);
                            assertEquals(1_000_000L * root + len - 1, dst.get(len - 1),
                                    "broadcast from " + root + " [" + (len - 1) + "] on PE " + me);
                        }
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /**
     * Bruck's alltoall and fcollect (forced) on 7 PEs over 3 nodes, with a network that delivers
     * late and reordered, back to back with no barrier between: blocks whose rounds all fit a push
     * buffer, all go past one (straight into the receiver's dest after its word that the place is
     * free) and a mix, so that a fast PE's next call meets a slow PE still in the last one.
     */
    @Test
    void bruckRoundsPastAPushBufferBackToBack() throws Exception {
        int[] nodes = {0, 0, 1, 1, 1, 2, 2};
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "8m", (pe, t) -> t,
                java.util.Map.of("JSHMEM_ALLTOALL_ALGORITHM", "push-bruck", "JSHMEM_FCOLLECT_ALGORITHM", "push-bruck"))) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                int max = 1500; // 12,000 B a block: every round of 7 PEs past a push buffer
                SymLongArray src = s.malloc(SymType.LONG, (long) n * max);
                SymLongArray dst = s.malloc(SymType.LONG, (long) n * max);
                s.barrierAll();
                int[] sizes = {1, max, 600, 1, 600, max}; // 600: fcollect's first round fits, its others do not
                for (int rep = 0; rep < 4; rep++) {
                    for (int k = 0; k < sizes.length; k++) {
                        int len = sizes[k];
                        long tag = (rep * 10L + k) << 40;
                        long last = len > 1 ? 1 << 16 : 0; // (a block of one element: the same element)
                        for (int to = 0; to < n; to++) {
                            src.set((long) to * len, tag | (long) me << 20 | to);
                            src.set((long) to * len + len - 1, tag | (long) me << 20 | last | to);
                        }
                        s.teamWorld().alltoall(dst, src, len);
                        for (int from = 0; from < n; from++) {
                            assertEquals(tag | (long) from << 20 | me, dst.get((long) from * len), "alltoall of " + len + " from " + from + " on PE " + me);
                            assertEquals(tag | (long) from << 20 | last | me, dst.get((long) from * len + len - 1),
                                    "alltoall of " + len + " from " + from + ", last, on PE " + me);
                        }
                        src.set(0, tag | me);
                        src.set(len - 1, tag | last | me);
                        s.teamWorld().fcollect(dst, src, len);
                        for (int from = 0; from < n; from++) {
                            assertEquals(tag | from, dst.get((long) from * len), "fcollect of " + len + " from " + from + " on PE " + me);
                            assertEquals(tag | last | from, dst.get((long) from * len + len - 1),
                                    "fcollect of " + len + " from " + from + ", last, on PE " + me);
                        }
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /**
     * A Bruck alltoall whose rounds go past a push buffer against a Bruck fcollect on one PE: the
     * round words carry the operation, so the job is aborted naming both, not hung.
     */
    @Test
    void bruckRoundsPastAPushBufferAgainstAnotherCollectiveAbortTheJob() throws Exception {
        int[] nodes = {0, 0, 1, 1, 2};
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "8m", (pe, t) -> t,
                java.util.Map.of("JSHMEM_ALLTOALL_ALGORITHM", "push-bruck", "JSHMEM_FCOLLECT_ALGORITHM", "push-bruck"))) {
            int n = job.size();
            assertThrows(ShmemException.class, () -> job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray src = s.calloc(SymType.LONG, n * 2000L);
                SymLongArray dst = s.calloc(SymType.LONG, n * 2000L);
                s.barrierAll();
                if (me == 2) {
                    s.teamWorld().fcollect(dst, src, 2000);
                } else {
                    s.teamWorld().alltoall(dst, src, 2000);
                }
                return null;
            }));
            job.assertMismatchAbort("alltoall", "collect");
        }
    }

    /**
     * The pipelined broadcast (forced, so small calls take it too) on 9 PEs over 4 nodes, with a
     * network that delivers late and reordered, back to back with no barrier between: every root
     * (so data flows up and down the fixed tree), sizes of no bytes, within one chunk, over several
     * (with an odd tail) and over 16 chunks of the least size, and calls in place (dest is source).
     */
    @Test
    void pipelinedBroadcastsFromEveryRootBackToBack() throws Exception {
        int[] nodes = {0, 0, 1, 1, 1, 2, 2, 3, 3};
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "16m", (pe, t) -> t,
                java.util.Map.of("JSHMEM_BROADCAST_ALGORITHM", "push-pipelined"))) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                int max = 40_001; // longs: 320,008 B, 16 chunks of 20,001 B
                SymLongArray src = s.malloc(SymType.LONG, max);
                SymLongArray dst = s.malloc(SymType.LONG, max);
                s.barrierAll();
                int[] sizes = {1, 0, 2048, 2049, 8193, max, 3};
                for (int rep = 0; rep < 2; rep++) {
                    for (int root = 0; root < n; root++) {
                        int len = sizes[(rep * n + root) % sizes.length];
                        long tag = (rep * 100L + root) << 32;
                        SymLongArray d = root % 3 == 2 ? src : dst; // in place on every third root
                        if (me == root) {
                            for (int i = 0; i < len; i++) {
                                src.set(i, tag | i);
                            }
                        }
                        if (len < max) {
                            d.set(len, -7); // nothing may be written past the data
                        }
                        s.teamWorld().broadcast(d, src, len, root);
                        for (int i = 0; i < len; i++) {
                            if (d.get(i) != (tag | i)) {
                                assertEquals(tag | i, d.get(i), "broadcast of " + len + " from " + root + " [" + i + "] on PE " + me);
                            }
                        }
                        if (len < max) {
                            assertEquals(-7, d.get(len), "broadcast of " + len + " from " + root + ": past the data on PE " + me);
                        }
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /** A pipelined broadcast of more than 16 MiB: 17 chunks of up to a MiB, every element checked, from a root in the middle. */
    @Test
    void pipelinedBroadcastOfMoreThanSixteenMiB() throws Exception {
        try (InProcessJob job = new InProcessJob(new int[] {0, 1, 2}, true, "auto", true, "auto", "40m", (pe, t) -> t,
                java.util.Map.of("JSHMEM_BROADCAST_ALGORITHM", "push-pipelined"))) {
            job.all(me -> {
                Shmem s = job.shmem(me);
                int len = (16 << 17) + 3; // longs: 16 MiB + 24 B
                SymLongArray src = s.malloc(SymType.LONG, len);
                SymLongArray dst = s.malloc(SymType.LONG, len);
                for (int i = 0; i < len; i++) {
                    src.set(i, me == 1 ? i : -1);
                }
                s.barrierAll();
                s.teamWorld().broadcast(dst, src, len, 1);
                for (int i = 0; i < len; i++) {
                    if (dst.get(i) != i) {
                        assertEquals(i, dst.get(i), "broadcast of " + len + " longs [" + i + "] on PE " + me);
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /**
     * On a team across nodes of more than 8 PEs, a root whose broadcast fits the push buffers
     * (pushed down a binomial tree, the root leaving at once) while the others pass a size that
     * is pipelined: the job is aborted, not hung. The root's push lands on the counter the
     * pipelined PEs count chunks on, and the root is in its next call by then (so the arrival
     * words show nothing): only each chunk's wait checking the identity of what came keeps it
     * from being taken for a chunk (without that check, this job hangs with stale data forwarded).
     */
    @Test
    void broadcastSizesThatPickDifferentAlgorithmsAbortTheJob() throws Exception {
        int[] nodes = java.util.stream.IntStream.range(0, 10).toArray();
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "8m", (pe, t) -> t)) {
            assertThrows(ShmemException.class, () -> job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray src = s.calloc(SymType.LONG, 6000);
                SymLongArray dst = s.calloc(SymType.LONG, 6000);
                s.barrierAll();
                if (me != 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000_000); // the root is in its next call when the others enter this one
                }
                s.teamWorld().broadcast(dst, src, me == 0 ? 1000 : 6000, 0); // 8,000 B against 48,000 B
                s.teamWorld().broadcast(dst, src, 6000, 0);
                return null;
            }));
            job.assertMismatchAbort("broadcast");
        }
    }

    /** Pipelined broadcasts with different roots: the entry notices carry the arguments, so the job is aborted naming both, not hung. */
    @Test
    void pipelinedBroadcastsWithDifferentRootsAbortTheJob() throws Exception {
        int[] nodes = {0, 0, 1, 1, 2};
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "8m", (pe, t) -> t,
                java.util.Map.of("JSHMEM_BROADCAST_ALGORITHM", "push-pipelined"))) {
            assertThrows(ShmemException.class, () -> job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray src = s.calloc(SymType.LONG, 10_000);
                SymLongArray dst = s.calloc(SymType.LONG, 10_000);
                s.barrierAll();
                s.teamWorld().broadcast(dst, src, 10_000, me == 3 ? 1 : 0);
                return null;
            }));
            job.assertMismatchAbort("broadcast");
        }
    }

    /**
     * On one node (linear barrier), a barrier that follows "barrier, then broadcast from r" lets
     * every other member leave only after r has left: r then pushes its data before the others
     * look for it. A loop of barriers alone is not ordered, and the broadcasts' data stays exact.
     */
    @Test
    void afterBarrierThenBroadcastTheRootLeavesTheNextBarrierFirst() throws Exception {
        try (InProcessJob job = new InProcessJob(new int[] {0, 0, 0, 0}, true, "auto", false)) {
            int n = job.size();
            List<Integer> gated = job.all(me -> {
                Shmem s = job.shmem(me);
                TeamImpl world = (TeamImpl) s.teamWorld();
                SymLongArray src = s.malloc(SymType.LONG, 1);
                SymLongArray dst = s.malloc(SymType.LONG, 1);
                int checked = 0;
                int root = -1;
                for (int i = 0; i < ROUNDS; i++) {
                    s.barrierAll();
                    long e = world.epoch();
                    if (root >= 0 && root != me) {
                        assertTrue(world.exitEpoch(root) >= e, "PE " + me + " left barrier #" + i + " (epoch " + e
                                + ") before the previous broadcast's root, PE " + root + " (it had left epoch " + world.exitEpoch(root) + ")");
                        checked++;
                    }
                    if (i % 4 == 3) {
                        root = -1; // next: a barrier after a barrier
                        continue;
                    }
                    root = i % n;
                    src.set(0, 1000L * i + me);
                    s.teamWorld().broadcast(dst, src, 1, root);
                    assertEquals(1000L * i + root, dst.get(0), "broadcast #" + i + " on PE " + me);
                }
                return checked;
            });
            for (int checked : gated) {
                assertTrue(checked > ROUNDS / 3, "barriers checked per PE: " + gated);
            }
            assertEquals(List.of(), job.aborts());
        }
    }

    /**
     * complexSumReduce and complexProdReduce (interleaved (re, im) floats and doubles) through every
     * reduction algorithm: in the push buffers on one node and across nodes (gathered at team PE 0;
     * two members exchanging), reduce-scatter on one node (slices pushed into every dest, or pulled
     * with 2 members or {@code pull}), across nodes the whole-input exchange of two members and the
     * pushed rounds of the landing area (one and several), and {@code pull} across nodes; in place
     * and not. Parts are small integers, so every result is exact: it must equal the product (or
     * sum) taken in team order, computed here.
     */
    @ParameterizedTest(name = "nodes {0}, JSHMEM_COLL_ALGORITHM={1}")
    @MethodSource("complexShapes")
    void complexReductionsThroughEveryAlgorithm(int[] nodes, String algorithm) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, algorithm)) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                ShmemTeam team = s.teamWorld();
                for (SymType<?> t : List.of(SymType.FLOAT, SymType.DOUBLE)) {
                    for (long count : new long[] {1, 200, 3000, 9000}) {
                        io.jshmem.SymArray<?> src = s.malloc(t, 2 * count);
                        io.jshmem.SymArray<?> dst = s.malloc(t, 2 * count);
                        for (boolean prod : new boolean[] {false, true}) {
                            for (boolean inPlace : new boolean[] {false, true}) {
                                for (long k = 0; k < count; k++) {
                                    setPart(src, 2 * k, complexPart(me, k, 0));
                                    setPart(src, 2 * k + 1, complexPart(me, k, 1));
                                }
                                io.jshmem.SymArray<?> into = inPlace ? src : dst;
                                complexReduce(team, prod, into, src, count);
                                for (long k = 0; k < count; k++) {
                                    double wr = complexPart(0, k, 0);
                                    double wi = complexPart(0, k, 1);
                                    for (int p = 1; p < n; p++) {
                                        double yr = complexPart(p, k, 0);
                                        double yi = complexPart(p, k, 1);
                                        double r = prod ? wr * yr - wi * yi : wr + yr;
                                        wi = prod ? wr * yi + wi * yr : wi + yi;
                                        wr = r;
                                    }
                                    String what = (prod ? "complex_prod_reduce" : "complex_sum_reduce") + " of " + count + " "
                                            + t.name() + " pairs" + (inPlace ? " in place" : "") + " on PE " + me + ", element " + k;
                                    // Equal as numbers: recursive doubling and Rabenseifner group the team-order
                                    // products in a tree, which with these small integers can only flip a zero's sign.
                                    assertEquals(wr, getPart(into, 2 * k), 0.0, what + " (re)");
                                    assertEquals(wi, getPart(into, 2 * k + 1), 0.0, what + " (im)");
                                }
                            }
                        }
                        s.free(dst);
                        s.free(src);
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    static Stream<Arguments> complexShapes() {
        return Stream.of(
                Arguments.of(new int[] {0, 0, 0, 0}, "auto"),
                Arguments.of(new int[] {0, 0}, "auto"),
                Arguments.of(new int[] {0, 0, 0, 0}, "pull"),
                Arguments.of(new int[] {0, 0, 1, 1}, "auto"),
                Arguments.of(new int[] {0, 1}, "auto"),
                Arguments.of(new int[] {0, 0, 1, 1}, "pull"),
                Arguments.of(new int[] {0, 1, 2}, "tree"),
                // over 8 PEs across nodes: through the node leaders (small; {0, 0, 1, 1}: all sizes), and
                // Rabenseifner (chunked above 32 KiB) with the fold; one PE per node: recursive doubling too
                Arguments.of(new int[] {0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5}, "auto"),
                Arguments.of(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8}, "push"),
                Arguments.of(new int[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}, "auto"));
    }

    /** Part {@code im} (0: re, 1: im) of complex number k of PE p: re 1, 2 or -1; im -1, 1 or 2, never 0. */
    private static double complexPart(int p, long k, int im) {
        return im == 0 ? new int[] {1, 2, -1}[(int) ((p + k) % 3)] : new int[] {-1, 1, 2}[(int) ((2 * p + k) % 3)];
    }

    private static void setPart(io.jshmem.SymArray<?> a, long i, double v) {
        if (a instanceof io.jshmem.SymFloatArray f) {
            f.set(i, (float) v);
        } else {
            ((io.jshmem.SymDoubleArray) a).set(i, v);
        }
    }

    private static double getPart(io.jshmem.SymArray<?> a, long i) {
        return a instanceof io.jshmem.SymFloatArray f ? f.get(i) : ((io.jshmem.SymDoubleArray) a).get(i);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void complexReduce(ShmemTeam team, boolean prod, io.jshmem.SymArray dst, io.jshmem.SymArray src, long count) {
        if (prod) {
            team.complexProdReduce(dst, src, count);
        } else {
            team.complexSumReduce(dst, src, count);
        }
    }

    static Stream<Arguments> broadcastShapes() {
        return Stream.of(
                Arguments.of(new int[] {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3}, "auto"), // 11 PEs on 4 nodes: tree
                Arguments.of(new int[] {0, 0, 1, 1, 2}, "tree"),
                Arguments.of(new int[] {0, 1, 2, 3, 4, 5, 6}, "tree"),
                Arguments.of(new int[] {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3}, "push"));
    }

    /**
     * Collective matching where syncs are dissemination rounds through the transport (a team
     * spanning nodes) and through flags on this node (more members than the linear sync takes):
     * one PE calls barrierAll while the others reduce; the job is aborted naming both sides. With
     * several PEs on a node across nodes the reduction goes through the node leaders: the odd one
     * out is a follower, then a leader.
     */
    @ParameterizedTest(name = "nodes {0}, PE {1} calls barrierAll")
    @MethodSource("mismatchShapes")
    void mismatchedCollectivesAbortTheJobNamingBothSides(int[] nodes, int odd) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true)) {
            int n = job.size();
            assertThrows(ShmemException.class, () -> job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray src = s.calloc(SymType.LONG, 4);
                SymLongArray dst = s.calloc(SymType.LONG, 4);
                s.barrierAll();
                if (me == odd) {
                    s.barrierAll();
                } else {
                    s.teamWorld().sumReduce(dst, src, 4);
                }
                return null;
            }));
            job.assertMismatchAbort("barrier/sync", "a reduction", "PE " + odd);
        }
    }

    /**
     * Reductions whose rounds are signalled by word ({@code RoundPushes}) against a broadcast: PE 1
     * broadcasts (as root, so it does not wait) and then reduces, the others reduce twice. The
     * reducers' round words come late or past the epoch, from a partner already in the next
     * operation; what shows the mismatch is the broadcast's push into the epoch's counter. The job
     * must be aborted naming both operations, not hang (the step deadline bounds the wait).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"push-recursive-doubling", "push-rabenseifner"})
    void aBroadcastAgainstRoundReductionsAbortsTheJob(String algorithm) throws Exception {
        int[] nodes = {0, 0, 0, 1, 1, 1, 2, 2, 2};
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "8m", (pe, t) -> t,
                java.util.Map.of("JSHMEM_REDUCE_ALGORITHM", algorithm))) {
            assertThrows(ShmemException.class, () -> job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray src = s.calloc(SymType.LONG, 4);
                SymLongArray dst = s.calloc(SymType.LONG, 4);
                s.barrierAll();
                if (me == 1) {
                    s.teamWorld().broadcast(dst, src, 4, 1);
                } else {
                    s.teamWorld().sumReduce(dst, src, 4);
                }
                s.teamWorld().sumReduce(dst, src, 4);
                return null;
            }));
            job.assertMismatchAbort("broadcast", "a reduction");
        }
    }

    static Stream<Arguments> mismatchShapes() {
        int[] threeNodes = {0, 0, 0, 1, 1, 1, 2, 2, 2}; // through the node leaders: PE 8 follows, PE 3 leads
        return Stream.of(Arguments.of(new int[] {0, 0, 1, 1}, 3), Arguments.of(new int[] {0, 1}, 1),
                Arguments.of(new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 9), // recursive doubling
                Arguments.of(threeNodes, 8), Arguments.of(threeNodes, 3),
                Arguments.of(new int[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, 9));
    }
}
