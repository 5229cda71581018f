/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * fcollect and collect through the node leaders ({@code push-hierarchical}) over a network that
 * delivers late and reordered: node layouts whose leaders fold (3, 6), do not (2, 4), with
 * single-PE nodes among shared ones, and (collect) a PE per node; sizes from one element to
 * several hundred KiB in all, a collect's differing by PE and some empty; a sub-team; back to back
 * and between other collectives (the leaders' words and the followers' exit words reused call
 * after call, fcollects and collects sharing them). A layout whose nodes' PEs are not consecutive
 * takes another algorithm (fcollect: Bruck's or another; collect: the same as if each PE were on a
 * node of its own), and must still be right.
 */
class HierarchicalCollectInProcessTest {
    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of((Object) new int[] {0, 0, 0, 1, 1, 1, 2, 2, 2}),
                Arguments.of((Object) new int[] {0, 0, 1, 1}),
                Arguments.of((Object) new int[] {0, 0, 1, 1, 1, 2, 3, 3}),
                Arguments.of((Object) new int[] {0, 0, 0, 0, 0, 1, 2, 2, 3}),
                Arguments.of((Object) new int[] {0, 0, 1, 2, 2, 3, 4, 4, 4, 5}),
                Arguments.of((Object) new int[] {0, 1, 0, 1, 2})); // not consecutive: another algorithm
    }

    static Stream<Arguments> collectShapes() {
        return Stream.concat(shapes(), Stream.of(Arguments.of((Object) new int[] {0, 1, 2}), Arguments.of((Object) new int[] {0, 1}),
                Arguments.of((Object) new int[] {0, 1, 2, 0, 1, 2, 0, 1, 2})));
    }

    private static long value(int pe, long k, int round) {
        return pe * 1_000_003L + k * 7 + round;
    }

    @ParameterizedTest(name = "nodes {0}")
    @MethodSource("shapes")
    void everyBlockLandsInItsPlaceOnEveryPe(int[] nodes) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "16m", (pe, t) -> t,
                Map.of("JSHMEM_FCOLLECT_ALGORITHM", "push-hierarchical"))) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                ShmemTeam world = s.teamWorld();
                ShmemTeam odd = world.splitStrided(1, 2, n / 2, null, 0).orElse(null);
                long most = 9000;
                SymLongArray src = s.malloc(SymType.LONG, most); // malloc is a world collective: once, before the teams
                SymLongArray dst = s.malloc(SymType.LONG, most * n);
                SymLongArray sum = s.malloc(SymType.LONG, 1);
                int round = 0;
                for (ShmemTeam team : new ShmemTeam[] {world, odd}) {
                    if (team == null) {
                        continue;
                    }
                    int tn = team.nPes();
                    int tme = team.myPe();
                    int[] worldPe = InProcessJob.worldPes(team, s.teamWorld());
                    for (long count : new long[] {1, 13, 1000, most, 1, 2}) {
                        round++;
                        for (long k = 0; k < count; k++) {
                            src.set(k, value(me, k, round));
                        }
                        for (long k = 0; k < count * tn; k++) {
                            dst.set(k, -1);
                        }
                        team.fcollect(dst, src, count);
                        for (int p = 0; p < tn; p++) {
                            for (long k = 0; k < count; k += Math.max(1, count / 53)) {
                                assertEquals(value(worldPe[p], k, round), dst.get(p * count + k), "fcollect of " + count + " longs over "
                                        + team + " on team PE " + tme + ": block " + p + ", element " + k);
                            }
                            assertEquals(value(worldPe[p], count - 1, round), dst.get(p * count + count - 1), "block " + p + ", last");
                        }
                        if (round % 3 == 0) { // other collectives between some of them
                            src.set(0, tme);
                            team.sumReduce(sum, src, 1);
                            assertEquals((long) tn * (tn - 1) / 2, sum.get(0), "sum_reduce after fcollect over " + team);
                            team.broadcast(dst, src, 1, tn - 1);
                            assertEquals(tn - 1, dst.get(0), "broadcast after fcollect over " + team);
                        }
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /** A collect's count on world PE {@code pe} in call {@code call}: 0 to {@code most}, some empty, a PE's own each time. */
    private static long count(int pe, int call, long most) {
        long c = (pe * 37L + call * 11L) % 7;
        return c == 0 ? 0 : call % 4 == 3 ? most - pe * 13L - c : c * (call % 4 == 1 ? 100 : 1);
    }

    @ParameterizedTest(name = "nodes {0}")
    @MethodSource("collectShapes")
    void everyCollectBlockLandsInItsPlaceOnEveryPe(int[] nodes) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "16m", (pe, t) -> t, Map.of())) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                ShmemTeam world = s.teamWorld();
                ShmemTeam odd = world.splitStrided(1, 2, n / 2, null, 0).orElse(null);
                long most = 9000;
                SymLongArray src = s.malloc(SymType.LONG, most);
                SymLongArray dst = s.malloc(SymType.LONG, most * n);
                // one element short of 4 per member, for each team (malloc: once, before the teams)
                SymLongArray[] small = {s.malloc(SymType.LONG, 4L * n - 1), s.malloc(SymType.LONG, Math.max(1, 4L * (n / 2) - 1))};
                int call = 0;
                ShmemTeam[] teams = {world, odd};
                for (int t = 0; t < teams.length; t++) {
                    ShmemTeam team = teams[t];
                    if (team == null) {
                        continue;
                    }
                    int tn = team.nPes();
                    int[] worldPe = InProcessJob.worldPes(team, s.teamWorld());
                    for (int c = 0; c < 9; c++) {
                        call++;
                        long mine = count(me, call, most);
                        for (long k = 0; k < Math.max(mine, 3); k++) {
                            src.set(k, value(me, k, call));
                        }
                        for (long k = 0; k < most * n; k += 97) {
                            dst.set(k, -1);
                        }
                        long total = 0;
                        for (int p = 0; p < tn; p++) {
                            total += count(worldPe[p], call, most);
                        }
                        if (total < most * n) {
                            dst.set(total, -7); // a guard past the data
                        }
                        if (c == 4) { // an fcollect between the collects: the same words
                            team.fcollect(dst, src, 3);
                            for (int p = 0; p < tn; p++) {
                                assertEquals(value(worldPe[p], 2, call), dst.get(3L * p + 2), "fcollect between collects, block " + p);
                            }
                            continue;
                        }
                        team.collect(dst, src, mine);
                        long at = 0;
                        for (int p = 0; p < tn; p++) {
                            long cp = count(worldPe[p], call, most);
                            for (long k = 0; k < cp; k += Math.max(1, cp / 41)) {
                                assertEquals(value(worldPe[p], k, call), dst.get(at + k), "collect over " + team + " call " + call
                                        + ": block " + p + " (" + cp + " longs at " + at + "), element " + k);
                            }
                            if (cp > 0) {
                                assertEquals(value(worldPe[p], cp - 1, call), dst.get(at + cp - 1), "block " + p + ", last");
                            }
                            at += cp;
                        }
                        if (total < most * n) {
                            assertEquals(-7, dst.get(total), "the guard past " + total + " longs, call " + call);
                        }
                    }
                    // dest one element short on every PE: all throw the same error, and the team still works
                    if (tn > 1) {
                        for (long k = 0; k < 4; k++) {
                            src.set(k, value(me, k, 0));
                        }
                        SymLongArray shortDest = small[t];
                        ShmemException x = assertThrows(ShmemException.class,
                                () -> team.collect(shortDest, src, 4), "collect into a dest one short over " + team);
                        assertTrue(x.getMessage().contains("needs " + 32L * tn + " bytes"), x.getMessage());
                        // At once a large reduction, which pushes into the landing areas where the
                        // leaders kept the node totals of the failed call.
                        for (long k = 0; k < most; k++) {
                            dst.set(k, k + me);
                        }
                        team.sumReduce(src, dst, most);
                        long members = java.util.Arrays.stream(worldPe).asLongStream().sum();
                        assertEquals((most - 1) * tn + members, src.get(most - 1), "sum_reduce after the error over " + team);
                    }
                    for (long k = 0; k < 4; k++) {
                        src.set(k, value(me, k, 0));
                    }
                    team.collect(dst, src, 4);
                    for (int p = 0; p < tn; p++) {
                        assertEquals(value(worldPe[p], 3, 0), dst.get(4L * p + 3), "collect after the error, block " + p);
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /** What each PE of a mismatch case calls, between two barriers, on 4 longs into 20. */
    private interface Calls {
        void run(int me, Shmem s, SymLongArray dst, SymLongArray src);
    }

    /** Runs {@code calls} on every PE of a job on {@code nodes}: the job must be aborted for calls that do not match, not hang. */
    private static void assertAbortedAsMismatch(int[] nodes, Calls calls) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true)) {
            assertThrows(ShmemException.class, () -> job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray src = s.calloc(SymType.LONG, 4);
                SymLongArray dst = s.calloc(SymType.LONG, 20);
                s.barrierAll();
                calls.run(me, s, dst, src);
                s.barrierAll();
                return null;
            }));
            job.assertMismatchAbort();
        }
    }

    /**
     * One member calls collect where the others call fcollect, both through the node leaders on
     * the same words: the job must be aborted naming both operations, not hang, whether the odd
     * one is a leader (PE 2) or a follower (PE 3).
     */
    @ParameterizedTest(name = "collect on PE {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 3})
    void aCollectAgainstFcollectsAbortsTheJob(int odd) throws Exception {
        assertAbortedAsMismatch(new int[] {0, 0, 1, 1, 1}, (me, s, dst, src) -> {
            if (me == odd) {
                s.teamWorld().collect(dst, src, 4);
            } else {
                s.teamWorld().fcollect(dst, src, 4);
            }
        });
    }

    /**
     * A member that goes through the epoch without waiting for anyone, the root of a small
     * broadcast, while the others fcollect through the node leaders, then all reach a barrier: the
     * job must be aborted naming both operations, not hang, whether the root is a leader (PE 2) or
     * a follower (PE 3). The others come late, when the root's arrival word is already past the
     * epoch: what shows the mismatch is the push it left in the leaders' counter, a leader past the
     * epoch that never released it, or a follower past it (each of which a wait took for nothing).
     */
    @ParameterizedTest(name = "the root: PE {0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {2, 3})
    void aBroadcastRootAgainstHierarchicalCollectsAbortsTheJob(int root) throws Exception {
        assertAbortedAsMismatch(new int[] {0, 0, 1, 1}, (me, s, dst, src) -> {
            if (me == root) {
                s.teamWorld().broadcast(dst, src, 4, root);
            } else {
                // the root pushes and goes on to the barrier first: its arrival word is past the epoch
                for (long until = System.nanoTime() + 300_000_000L; System.nanoTime() < until; ) {
                    java.util.concurrent.locks.LockSupport.parkNanos(10_000_000L);
                }
                s.teamWorld().fcollect(dst, src, 4);
            }
        });
    }
}
