/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Scans across nodes over a network that delivers late and reordered: through the node leaders
 * (nodes of several PEs, each node's consecutive, even and uneven, leaders a power of two and
 * not), by recursive doubling over all PEs (a PE per node; nodes whose PEs are not consecutive),
 * both whole and in chunks, pushed to the successors (small teams, small data) and pulled (large
 * data of a small team); inclusive and
 * exclusive, longs, ints and doubles, in place, a sub-team, back to back past the push buffers'
 * reuse and between other collectives. Every element of every result is checked against sums
 * computed here.
 */
class ScanInProcessTest {
    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of((Object) new int[] {0, 0, 0, 1, 1, 1, 2, 2, 2}),
                Arguments.of((Object) new int[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}),
                Arguments.of((Object) new int[] {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}),
                Arguments.of((Object) new int[] {0, 0, 1, 1}),
                Arguments.of((Object) new int[] {0, 0, 1, 2, 2, 2, 2, 3, 4, 4}),
                Arguments.of((Object) new int[] {0, 1, 2, 0, 1, 2, 0, 1, 2})); // not consecutive: flat
    }

    private static long value(int pe, long k, int call) {
        return (pe + 1) * 1_000L + k * 3 + call;
    }

    @ParameterizedTest(name = "nodes {0}")
    @MethodSource("shapes")
    void everyScanElementIsTheSumOfItsPredecessors(int[] nodes) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true)) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                ShmemTeam world = s.teamWorld();
                ShmemTeam odd = world.splitStrided(1, 2, n / 2, null, 0).orElse(null);
                // Up to 4,800 B: in chunks of a push buffer's share at 9-16 PEs (up to 3 of them); at 4
                // the successors' push up to 256 longs, recursive doubling up to 341 (ceil(log2 4) + 1
                // inputs in 8 KiB), then pulled.
                long most = 600;
                SymLongArray src = s.malloc(SymType.LONG, most);
                SymLongArray dst = s.malloc(SymType.LONG, most);
                SymIntArray isrc = s.malloc(SymType.INT, most);
                SymIntArray idst = s.malloc(SymType.INT, most);
                SymDoubleArray dsrc = s.malloc(SymType.DOUBLE, most);
                SymDoubleArray ddst = s.malloc(SymType.DOUBLE, most);
                SymLongArray sum = s.malloc(SymType.LONG, 1);
                int call = 0;
                for (ShmemTeam team : new ShmemTeam[] {world, odd}) {
                    if (team == null) {
                        continue;
                    }
                    int tn = team.nPes();
                    int tme = team.myPe();
                    int[] worldPe = InProcessJob.worldPes(team, world);
                    for (long count : new long[] {1, 7, 100, 204, 256, 257, 300, 341, most, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 1, 1}) {
                        call++;
                        boolean inclusive = call % 2 == 0;
                        boolean inPlace = call % 5 == 0;
                        for (long k = 0; k < count; k++) {
                            src.set(k, value(me, k, call));
                            isrc.set(k, (int) value(me, k, call));
                            dsrc.set(k, value(me, k, call) * 0.5);
                        }
                        SymLongArray d = inPlace ? src : dst;
                        if (inclusive) {
                            team.sumInscan(d, src, count);
                            team.sumInscan(idst, isrc, count);
                            team.sumInscan(ddst, dsrc, count);
                        } else {
                            team.sumExscan(d, src, count);
                            team.sumExscan(idst, isrc, count);
                            team.sumExscan(ddst, dsrc, count);
                        }
                        int upto = inclusive ? tme + 1 : tme;
                        for (long k = 0; k < count; k++) {
                            long want = 0;
                            for (int p = 0; p < upto; p++) {
                                want += value(worldPe[p], k, call);
                            }
                            String what = (inclusive ? "sum_inscan" : "sum_exscan") + " of " + count + " over " + team + " on team PE "
                                    + tme + ", element " + k + (inPlace ? ", in place" : "");
                            assertEquals(want, d.get(k), what);
                            assertEquals((int) want, idst.get(k), what + " (ints)");
                            assertEquals(want * 0.5, ddst.get(k), what + " (doubles)");
                        }
                        if (call % 7 == 0) {
                            src.set(0, tme);
                            team.sumReduce(sum, src, 1);
                            assertEquals((long) tn * (tn - 1) / 2, sum.get(0), "sum_reduce after scans over " + team);
                        }
                    }
                }
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }
}
