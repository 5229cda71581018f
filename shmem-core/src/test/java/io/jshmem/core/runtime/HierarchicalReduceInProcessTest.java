/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jshmem.ReduceOp;
import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reductions through the node leaders ({@code push-hierarchical-recursive-doubling}, auto for small
 * ones on teams across nodes with several PEs on some node, and {@code push-hierarchical-rabenseifner},
 * auto for larger ones up to 8 PEs, forced here on larger teams) over a network that delivers late
 * and reordered:
 * every operator, sizes from one element to several landing-area chunks, in place and not,
 * scalar forms, a sub-team, back to back with other collectives; floating-point results bitwise
 * the same on every PE. (A member in another collective: CommInProcessTest.mismatchedCollectivesAbortTheJobNamingBothSides.)
 */
class HierarchicalReduceInProcessTest {
    static Stream<Arguments> shapes() {
        int[] three = {0, 0, 0, 1, 1, 1, 2, 2, 2};                 // 3 leaders: recursive doubling folds one
        int[] roundRobin = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1};        // nodes' members not consecutive
        int[] sixteen = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
        int[] uneven = {0, 0, 0, 0, 0, 1, 2, 2, 3};               // single-PE nodes among shared ones
        return Stream.of(
                Arguments.of(three, "auto"),
                Arguments.of(roundRobin, "auto"),
                Arguments.of(sixteen, "push-hierarchical-recursive-doubling"),
                Arguments.of(uneven, "push-hierarchical-rabenseifner"),
                Arguments.of(three, "push-hierarchical-rabenseifner"),
                Arguments.of(roundRobin, "push-hierarchical-rabenseifner"));
    }

    private static final ReduceOp[] LONG_OPS = {ReduceOp.SUM, ReduceOp.PROD, ReduceOp.MIN, ReduceOp.MAX, ReduceOp.AND,
        ReduceOp.OR, ReduceOp.XOR};

    /** Element k of PE p's input: small, so that sums and products of up to 16 PEs are exact. */
    private static long input(int p, long k) {
        return ((p * 7L + k * 3) % 5) + 1 + ((k & 1) == 0 ? 0 : 8L << (p % 4));
    }

    private static long expected(ReduceOp op, int n, long k, int[] members) {
        long r = input(members[0], k);
        for (int i = 1; i < n; i++) {
            long x = input(members[i], k);
            r = switch (op) {
                case SUM -> r + x;
                case PROD -> r * x;
                case MIN -> Math.min(r, x);
                case MAX -> Math.max(r, x);
                case AND -> r & x;
                case OR -> r | x;
                case XOR -> r ^ x;
                case UMAX -> Long.compareUnsigned(r, x) >= 0 ? r : x;
                case UMIN -> Long.compareUnsigned(r, x) <= 0 ? r : x;
            };
        }
        return r;
    }

    @ParameterizedTest(name = "nodes {0}, JSHMEM_REDUCE_ALGORITHM={1}")
    @MethodSource("shapes")
    void everyOperatorThroughTheNodeLeaders(int[] nodes, String algorithm) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "8m", (pe, t) -> t,
                Map.of("JSHMEM_REDUCE_ALGORITHM", algorithm))) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                ShmemTeam world = s.teamWorld();
                // Every other PE from 1: a sub-team that still spans nodes with shared ones.
                ShmemTeam odd = world.splitStrided(1, 2, n / 2, null, 0).orElse(null);
                long most = 9000;
                SymLongArray src = s.malloc(SymType.LONG, most); // malloc is a world collective: once, before the teams
                SymLongArray dst = s.malloc(SymType.LONG, most);
                for (ShmemTeam team : new ShmemTeam[] {world, odd}) {
                    if (team == null) {
                        continue;
                    }
                    int tn = team.nPes();
                    int[] members = InProcessJob.worldPes(team, world);
                    for (long count : new long[] {1, 37, 700, most}) {
                        for (ReduceOp op : LONG_OPS) {
                            for (boolean inPlace : new boolean[] {false, true}) {
                                for (long k = 0; k < count; k++) {
                                    src.set(k, input(me, k));
                                    dst.set(k, -1);
                                }
                                SymLongArray into = inPlace ? src : dst;
                                reduce(team, op, into, src, count);
                                for (long k = 0; k < count; k += Math.max(1, count / 97)) {
                                    assertEquals(expected(op, tn, k, members), into.get(k), op + " of " + count + " longs"
                                            + (inPlace ? " in place" : "") + " on PE " + me + " over " + team + ", element " + k);
                                }
                                assertEquals(expected(op, tn, count - 1, members), into.get(count - 1), op + " last element");
                            }
                        }
                    }
                    assertEquals((long) tn * (tn + 1) / 2, team.sumReduce((long) team.myPe() + 1), "scalar sum on " + team);
                    assertEquals(tn - 1, team.maxReduce(team.myPe()), "scalar max on " + team);
                }
                s.free(dst);
                s.free(src);
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /**
     * Doubles whose sums round: every PE must get bitwise the same result (the leaders end with
     * the same bits and copy them), checked by collecting each PE's result; back to back with
     * broadcasts, fcollects and barriers, so the reductions' epochs meet the push buffers' syncs.
     */
    @ParameterizedTest(name = "nodes {0}, JSHMEM_REDUCE_ALGORITHM={1}")
    @MethodSource("shapes")
    void floatingPointResultsAreTheSameOnEveryPe(int[] nodes, String algorithm) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "8m", (pe, t) -> t,
                Map.of("JSHMEM_REDUCE_ALGORITHM", algorithm))) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                ShmemTeam world = s.teamWorld();
                int count = 300;
                SymDoubleArray src = s.malloc(SymType.DOUBLE, count);
                SymDoubleArray dst = s.malloc(SymType.DOUBLE, count);
                SymLongArray bits = s.malloc(SymType.LONG, 2);
                SymLongArray all = s.malloc(SymType.LONG, 2L * n);
                for (int round = 0; round < 40; round++) {
                    for (int k = 0; k < count; k++) {
                        src.set(k, 1.0 / (me + k + round + 3) * (me % 2 == 0 ? 1e8 : 1e-3));
                    }
                    world.sumReduce(dst, src, round % 3 == 0 ? count : 3);
                    bits.set(0, Double.doubleToRawLongBits(dst.get(0)));
                    bits.set(1, Double.doubleToRawLongBits(dst.get(2)));
                    world.fcollect(all, bits, 2);
                    for (int p = 0; p < n; p++) {
                        assertEquals(all.get(0), all.get(2L * p), "sum's bits on PE " + p + " and PE 0, round " + round);
                        assertEquals(all.get(1), all.get(2L * p + 1), "sum's element 2 on PE " + p + ", round " + round);
                    }
                    world.broadcast(bits, bits, 1, round % n);
                    if (round % 5 == 0) {
                        s.barrierAll();
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /** Recursive doubling's sum of {@code x[lo, hi)} (with the fold, the lower group first), as the flat form groups it. */
    private static double rdSum(double[] x) {
        int n = x.length;
        int p2 = Integer.highestOneBit(n);
        int rem = n - p2;
        double[] v = new double[p2];
        for (int i = 0; i < p2; i++) {
            v[i] = i < rem ? x[2 * i] + x[2 * i + 1] : x[i + rem];
        }
        for (int w = 1; w < p2; w <<= 1) {
            for (int g = 0; g < p2; g += 2 * w) {
                v[g] = v[g] + v[g + w];
            }
        }
        return v[0];
    }

    /**
     * auto, layouts whose leaders' sums group as recursive doubling's (nodes of a power of two, or
     * 3 + 2), and one whose do not (1 + 3, kept flat): a sum of doubles that each grouping rounds
     * differently must come out as recursive doubling over all PEs, or left to right (the flat
     * form of up to 8 PEs), on every PE.
     */
    @ParameterizedTest(name = "nodes {0}")
    @MethodSource("groupingShapes")
    void doublesGroupAsTheFlatFormDoes(int[] nodes) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true)) {
            int n = job.size();
            double[] x = new double[n];
            for (int i = 0; i < n; i++) {
                x[i] = i == 0 ? 1e16 : 0.7; // each grouping rounds these differently
            }
            double sum = 0;
            for (double xi : x) {
                sum += xi;
            }
            double chain = sum;
            double rd = rdSum(x);
            job.all(me -> {
                Shmem s = job.shmem(me);
                SymDoubleArray src = s.malloc(SymType.DOUBLE, 1);
                SymDoubleArray dst = s.malloc(SymType.DOUBLE, 1);
                src.set(0, x[me]);
                s.teamWorld().sumReduce(dst, src, 1);
                double got = dst.get(0);
                boolean ok = got == rd || n <= 8 && got == chain;
                assertEquals(true, ok, "PE " + me + " of " + java.util.Arrays.toString(nodes) + ": " + got + ", recursive doubling "
                        + rd + ", left to right " + chain);
                return null;
            });
        }
    }

    static Stream<Arguments> groupingShapes() {
        return Stream.of(
                Arguments.of((Object) new int[] {0, 0, 0, 0, 1, 1, 1, 1}),
                Arguments.of((Object) new int[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}),
                Arguments.of((Object) new int[] {0, 0, 0, 1, 1}),
                Arguments.of((Object) new int[] {0, 1, 1, 1}),
                Arguments.of((Object) new int[] {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3}));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void reduce(ShmemTeam team, ReduceOp op, io.jshmem.SymArray dst, io.jshmem.SymArray src, long count) {
        switch (op) {
            case SUM -> team.sumReduce(dst, src, count);
            case PROD -> team.prodReduce(dst, src, count);
            case MIN -> team.minReduce(dst, src, count);
            case MAX -> team.maxReduce(dst, src, count);
            case AND -> team.andReduce(dst, src, count);
            case OR -> team.orReduce(dst, src, count);
            case XOR -> team.xorReduce(dst, src, count);
        }
    }
}
