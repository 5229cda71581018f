/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import org.junit.jupiter.params.provider.ValueSource;

/**
 * alltoall through the node leaders ({@code push-hierarchical}, forced and in auto) over a network
 * that delivers late and reordered: nodes of 2, 3 and 4 PEs, leaders whose count is a power of two
 * and not (Bruck's last round then moves fewer places); blocks of 0 to 32 longs, and blocks too
 * large for the leaders' runs (another algorithm then); a sub-team; back to back and between other
 * collectives (round words and push buffers reused call after call; a large reduction right after,
 * which pushes into the landing areas without waiting for anyone to enter). Layouts it cannot take (nodes of different sizes, a node's PEs not consecutive, a PE
 * per node) go another way and must still be right.
 */
class HierarchicalAlltoallInProcessTest {
    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of(new int[] {0, 0, 1, 1}, "push-hierarchical"),
                Arguments.of(new int[] {0, 0, 0, 1, 1, 1, 2, 2, 2}, "push-hierarchical"),
                Arguments.of(new int[] {0, 0, 1, 1, 2, 2, 3, 3, 4, 4}, "auto"),
                Arguments.of(new int[] {0, 0, 0, 0, 1, 1, 1, 1}, "auto"),
                Arguments.of(new int[] {0, 0, 1, 1, 1}, "push-hierarchical"), // nodes of different sizes
                Arguments.of(new int[] {0, 1, 0, 1}, "push-hierarchical"), // not consecutive
                Arguments.of(new int[] {0, 1, 2}, "push-hierarchical")); // a PE per node
    }

    private static long value(int from, int to, long k, int round) {
        return from * 1_000_003L + to * 10_007L + k * 7 + round;
    }

    @ParameterizedTest(name = "nodes {0}, {1}")
    @MethodSource("shapes")
    void everyBlockLandsInItsPlaceOnEveryPe(int[] nodes, String algorithm) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "16m", (pe, t) -> t,
                Map.of("JSHMEM_ALLTOALL_ALGORITHM", algorithm))) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                ShmemTeam world = s.teamWorld();
                ShmemTeam odd = world.splitStrided(1, 2, n / 2, null, 0).orElse(null);
                long most = 2048; // 16 KiB blocks: past the leaders' runs
                SymLongArray src = s.malloc(SymType.LONG, most * n); // malloc is a world collective: once, before the teams
                SymLongArray dst = s.malloc(SymType.LONG, most * n);
                SymLongArray sum = s.malloc(SymType.LONG, 1);
                long bigCount = Math.min(8192, most * n); // 64 KiB: the reduction's rounds fill the landing area
                SymLongArray big = s.malloc(SymType.LONG, bigCount);
                ShmemTeam[] teams = {world, odd, world};
                for (int t = 0; t < teams.length; t++) {
                    ShmemTeam team = teams[t];
                    if (team == null) {
                        continue;
                    }
                    int tn = team.nPes();
                    int tme = team.myPe();
                    int[] worldPe = InProcessJob.worldPes(team, world);
                    long[] counts = {1, 3, 0, 32, most, 1, 2};
                    for (int c = 0; c < counts.length; c++) {
                        long count = counts[c];
                        int round = t * counts.length + c + 1; // the same on every member
                        for (int p = 0; p < tn; p++) {
                            for (long k = 0; k < count; k++) {
                                src.set(p * count + k, value(me, worldPe[p], k, round));
                            }
                        }
                        for (long k = 0; k < Math.max(1, count * tn); k++) {
                            dst.set(k, -1);
                        }
                        team.alltoall(dst, src, count);
                        for (int p = 0; p < tn; p++) {
                            for (long k = 0; k < count; k += Math.max(1, count / 31)) {
                                assertEquals(value(worldPe[p], me, k, round), dst.get(p * count + k), "alltoall of " + count
                                        + " longs over " + team + " on team PE " + tme + ": block " + p + ", element " + k);
                            }
                            if (count > 0) {
                                assertEquals(value(worldPe[p], me, count - 1, round), dst.get(p * count + count - 1), "block " + p + ", last");
                            }
                        }
                        if (count == 0) {
                            assertEquals(-1, dst.get(0), "an alltoall of nothing wrote dest over " + team);
                        }
                        if (round % 2 == 0) {
                            // A large reduction right after (Rabenseifner's: it pushes into the landing
                            // areas without waiting for the receiver to enter, so a leader still in
                            // its last alltoall round must not be using its own).
                            for (long k = 0; k < bigCount; k++) {
                                src.set(k, tme + k);
                            }
                            team.sumReduce(big, src, bigCount);
                            for (long k = 0; k < bigCount; k += 97) {
                                assertEquals((long) tn * (tn - 1) / 2 + tn * k, big.get(k), "large sum_reduce after alltoall over " + team);
                            }
                        }
                        if (round % 3 == 0) { // other collectives between some of them
                            src.set(0, tme);
                            team.sumReduce(sum, src, 1);
                            assertEquals((long) tn * (tn - 1) / 2, sum.get(0), "sum_reduce after alltoall over " + team);
                            team.broadcast(dst, src, 1, tn - 1);
                            assertEquals(tn - 1, dst.get(0), "broadcast after alltoall over " + team);
                        }
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    /**
     * One PE reduces where the others call alltoall through the leaders (a follower: PE 4; a leader:
     * PE 3): the job is aborted naming both operations, not hung and not given wrong data.
     */
    @ParameterizedTest(name = "PE {0} reduces")
    @ValueSource(ints = {3, 4})
    void aReductionAgainstTheLeadersAlltoallAbortsTheJob(int odd) throws Exception {
        int[] nodes = {0, 0, 0, 1, 1, 1, 2, 2, 2};
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, "auto", "8m", (pe, t) -> t, Map.of())) {
            assertThrows(ShmemException.class, () -> job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray src = s.calloc(SymType.LONG, 9);
                SymLongArray dst = s.calloc(SymType.LONG, 9);
                s.barrierAll();
                if (me == odd) {
                    s.teamWorld().sumReduce(dst, src, 1);
                } else {
                    s.teamWorld().alltoall(dst, src, 1);
                }
                s.barrierAll();
                return null;
            }));
            job.assertMismatchAbort("alltoall", "a reduction");
        }
    }
}
