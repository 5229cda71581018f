/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The parts without a job: timeline aggregation, percentiles, JSON escaping, units. */
class PartsTest {
    @Test
    void denseLanesAreMergedIntoTheBudgetKeepingCountsAndBusyTime() {
        List<Op> ops = new ArrayList<>();
        long t = 0;
        long busy = 0;
        for (int i = 0; i < 100_000; i++) {
            Kind k = i % 3 == 0 ? Kind.TRANSFER : Kind.SYNC;
            long d = 500 + i % 7;
            ops.add(new Op(k, k == Kind.SYNC ? "barrier_all" : "put", null, i, t, d, 1024, 1, null));
            busy += d;
            t += d + 1000;
        }
        List<Timeline.Block> lane = Timeline.lane(ops, 1000, t);
        assertTrue(lane.size() <= 1000 && lane.size() > 10, lane.size() + " blocks");
        assertEquals(100_000, lane.stream().mapToInt(Timeline.Block::count).sum());
        assertEquals(busy, lane.stream().mapToLong(Timeline.Block::busy).sum());
        assertEquals(100_000L * 1024, lane.stream().mapToLong(Timeline.Block::bytes).sum());
        for (int i = 1; i < lane.size(); i++) {
            assertTrue(lane.get(i - 1).start() <= lane.get(i).start(), "sorted");
        }
        assertTrue(lane.stream().allMatch(b -> b.routine() != null), "each merged block is of one kind, so of one routine here");
        assertEquals(500, Timeline.lane(ops.subList(0, 500), 1000, t).size(), "no merging under the budget");
    }

    /** A job of 4 PEs on one node whose k-th barrier's last arrival is PE lateAt[k]. */
    private static Recordings.Job barriers(int... lateAt) {
        List<PeRecording> pes = new ArrayList<>();
        for (int pe = 0; pe < 4; pe++) {
            List<Op> ops = new ArrayList<>();
            for (int k = 0; k < lateAt.length; k++) {
                boolean late = lateAt[k] == pe;
                ops.add(new Op(Kind.SYNC, "barrier_all", "SHMEM_TEAM_WORLD", k + 1, k * 1000L + (late ? 500 : pe), late ? 10 : 510 - pe,
                        0, -1, "linear"));
            }
            pes.add(new PeRecording(pe, java.nio.file.Path.of("j-pe" + pe + ".jfr"), "node1", java.util.Map.of(), ops, 0));
        }
        return new Recordings.Job("j", pes, lateAt.length * 1000L, 0);
    }

    @Test
    void summaryNamesALatePeOnlyWhenOneStandsOut() {
        LateArrivals one = new LateArrivals(barriers(2, 2, 2, 1));
        assertEquals("PE 2 was last at 75% of barriers/syncs (3 of 4); the others waited 4 µs for it.", one.summary());
        assertEquals(500 - 3, one.instances.get(0).margin(), "PE 2 came 500 ns after PE 3, which came at 3");
        assertEquals("No PE was last more often than the others at barriers/syncs (at most 2 of 4 each).",
                new LateArrivals(barriers(0, 1, 0, 1)).summary());
        assertEquals("No PE stands out as late at barriers/syncs: the most often last, PE 0, was last at 33% (3 of 9),"
                + " an even share being 25%.", new LateArrivals(barriers(0, 1, 2, 3, 0, 1, 2, 3, 0)).summary());
        assertEquals("No barrier, sync or collective with two or more PEs was recorded.", new LateArrivals(barriers()).summary());
    }

    /**
     * 64 PEs of 20,000 events each (barriers, collectives, transfers, waits): the page stays a few
     * MiB, and every barrier is still matched across the 64 PEs.
     */
    @Test
    void sixtyFourDensePesMakeAPageOfAFewMib() throws Exception {
        int npes = 64;
        int rounds = 5_000;
        List<PeRecording> pes = new ArrayList<>();
        for (int pe = 0; pe < npes; pe++) {
            List<Op> ops = new ArrayList<>();
            for (int k = 0; k < rounds; k++) {
                long t = k * 10_000L;
                ops.add(new Op(Kind.SYNC, "barrier_all", "SHMEM_TEAM_WORLD", 2L * k + 1, t + pe, 2_000 - pe, 0, -1, "dissemination"));
                ops.add(new Op(Kind.TRANSFER, "put", null, 0, t + 2_100, 300, 65_536, (pe + 1) % npes, null));
                ops.add(new Op(Kind.WAIT, "wait_until", null, 0, t + 2_500, 1_000 + pe, 0, -1, null));
                ops.add(new Op(Kind.COLLECTIVE, "sum_reduce", "SHMEM_TEAM_WORLD", 2L * k + 2, t + 4_000 + (pe == 7 ? 900 : 0),
                        pe == 7 ? 100 : 1_000, 8, -1, null));
            }
            pes.add(new PeRecording(pe, java.nio.file.Path.of("j-pe" + pe + ".jfr"), "node" + pe / 16, java.util.Map.of(), ops, 0));
        }
        Page page = new Page(new Recordings.Job("j", pes, rounds * 10_000L, 0));
        String html = page.html();
        assertTrue(html.length() < 6 * 1024 * 1024, "page of " + html.length() + " characters");
        assertEquals(rounds, page.late().syncs);
        assertEquals(rounds, page.late().collectives);
        assertEquals(rounds, page.late().lastCollectives[7], "PE 7 arrives last at every reduction");
        assertEquals(rounds * 65_536L, page.traffic().bytes[63][0]);
        assertTrue(page.late().summary().contains("PE 7 was last at 100% of collectives (5000 of 5000)"), page.late().summary());
    }

    @Test
    void percentilesAreNearestRank() {
        long[] d = new long[100];
        for (int i = 0; i < 100; i++) {
            d[i] = i + 1;
        }
        assertEquals(50, RoutineStats.percentile(d, 0.50));
        assertEquals(99, RoutineStats.percentile(d, 0.99));
        assertEquals(7, RoutineStats.percentile(new long[] {7}, 0.99));
    }

    @Test
    void jsonCannotEndTheScriptElement() {
        StringBuilder sb = new StringBuilder();
        new Json(sb).open('{').key("a").value("</script>\"\\\n").key("b").micros(1_234_567).key("c").micros(2_000).close('}');
        assertEquals("{\"a\":\"\\u003c/script\\u003e\\\"\\\\\\n\",\"b\":1234.6,\"c\":2}", sb.toString());
    }

    @Test
    void units() {
        assertEquals("4.1 s", Units.seconds(4_100_000_000L));
        assertEquals("12.3 ms", Units.seconds(12_300_000L));
        assertEquals("850 µs", Units.seconds(850_000L));
        assertEquals("128.0 KiB", Units.bytes(128 * 1024));
        assertEquals("512 B", Units.bytes(512));
    }
}
