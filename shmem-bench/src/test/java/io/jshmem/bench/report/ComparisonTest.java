/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ComparisonTest {
    private static List<Comparison> pair(String... lines) {
        return Comparison.pair(Stream.of(lines).map(Row::parse).toList());
    }

    @Test
    void latencyTargetIsAnUpperBoundOnTheRatio() {
        List<Comparison> c = pair("jshmem,shm,2,put,8,lat_p50_us,0.050,us", "oshmem,shm,2,put,8,lat_p50_us,0.100,us",
                "jshmem,shm,2,get,8,lat_p50_us,0.300,us", "oshmem,shm,2,get,8,lat_p50_us,0.100,us");
        assertEquals(0.5, c.get(0).ratio().getAsDouble(), 1e-12);
        assertEquals(Comparison.Status.MET, c.get(0).status());
        assertEquals(Comparison.Status.MISSED, c.get(1).status());
    }

    @Test
    void bandwidthTargetIsALowerBoundOnTheRatio() {
        List<Comparison> c = pair("jshmem,shm,2,put,1048576,bw_p50_MBps,9000,MB/s",
                "oshmem,shm,2,put,1048576,bw_p50_MBps,10000,MB/s", "jshmem,shm,2,get,1048576,bw_p50_MBps,8000,MB/s",
                "oshmem,shm,2,get,1048576,bw_p50_MBps,10000,MB/s",
                // p99: the slow window's bandwidth at least 1/1.5 of OSHMEM's
                "jshmem,shm,2,put,1048576,bw_p99_MBps,6000,MB/s", "oshmem,shm,2,put,1048576,bw_p99_MBps,10000,MB/s",
                "jshmem,shm,2,get,1048576,bw_p99_MBps,7000,MB/s", "oshmem,shm,2,get,1048576,bw_p99_MBps,10000,MB/s",
                "jshmem,shm,2,get,1048576,bw_MBps,1,MB/s", "oshmem,shm,2,get,1048576,bw_MBps,10000,MB/s");
        assertEquals(List.of(Comparison.Status.MET, Comparison.Status.MISSED, Comparison.Status.MISSED,
                        Comparison.Status.MET, Comparison.Status.NO_TARGET),
                c.stream().map(Comparison::status).toList());
    }

    @Test
    void rowsWithoutTargetAndMissingRows() {
        List<Comparison> c = pair("jshmem,shm,2,swap,8,lat_p50_us,0.01,us", "oshmem,shm,2,swap,8,lat_p50_us,1,us",
                "oshmem,shm,4,broadcast,8,lat_p50_us,0.4,us", "oshmem,shm,2,put,8,lat_p99_us,0.1,us");
        Comparison swap = c.stream().filter(x -> x.key().op().equals("swap")).findFirst().orElseThrow();
        Comparison bcast = c.stream().filter(x -> x.key().op().equals("broadcast")).findFirst().orElseThrow();
        Comparison put = c.stream().filter(x -> x.key().op().equals("put")).findFirst().orElseThrow();
        assertEquals(Comparison.Status.NO_TARGET, swap.status());
        assertEquals(Comparison.Status.MISSING, bcast.status());
        assertEquals(Comparison.Status.MISSING, put.status());
    }

    @Test
    void groupsByPeCountKeepingFileOrderWithin() {
        List<Comparison> c = pair("oshmem,shm,4,get,8,lat_us,1,us", "oshmem,shm,2,put,8,lat_us,1,us",
                "oshmem,shm,2,get,8,lat_us,1,us", "oshmem,shm,4,put,8,lat_us,1,us");
        assertEquals(List.of("2 put", "2 get", "4 get", "4 put"),
                c.stream().map(x -> x.key().pes() + " " + x.key().op()).toList());
    }

    @Test
    void summaryListsMissedTargets() {
        String md = Summary.markdown(pair("jshmem,shm,2,get,8,lat_p50_us,0.300,us", "oshmem,shm,2,get,8,lat_p50_us,0.100,us",
                "jshmem,shm,2,get,8,lat_p99_us,0.300,us", "oshmem,shm,2,get,8,lat_p99_us,0.100,us",
                "oshmem,shm,4,alltoall,8,lat_us,2,us"), List.of("get_lat_2pe.png"), "");
        assertTrue(md.contains("0 of 2 rows meet their targets on both the median (p50) and the p99"), md);
        assertTrue(md.contains("* **missed**: get 8 B lat_p50_us at 2 PEs on shm: jshmem/oshmem = 3.00, target ≤ 0.50"), md);
        assertTrue(md.contains("* **missed**: get 8 B lat_p99_us at 2 PEs on shm: jshmem/oshmem = 3.00, target ≤ 1.50"), md);
        // A row with only a loop mean is missed on both quantiles: the mean cannot stand in for them.
        assertTrue(md.contains("* **missed**: alltoall 8 B lat_p50_us at 4 PEs on shm: measured by neither side"), md);
        assertTrue(md.contains("* **missed**: alltoall 8 B lat_p99_us at 4 PEs on shm: measured by neither side"), md);
        assertTrue(md.contains("![get_lat_2pe.png](get_lat_2pe.png)"), md);
    }

    @Test
    void theLoopMeanIsShownButNeverDecides() {
        // The loop mean says jshmem is 10x faster; the median and p99 decide (median missed).
        String md = Summary.markdown(pair("jshmem,shm,2,pingpong,8,lat_us,0.02,us", "oshmem,shm,2,pingpong,8,lat_us,0.2,us",
                "jshmem,shm,2,pingpong,8,lat_p50_us,0.30,us", "oshmem,shm,2,pingpong,8,lat_p50_us,0.20,us",
                "jshmem,shm,2,pingpong,8,lat_p99_us,0.50,us", "oshmem,shm,2,pingpong,8,lat_p99_us,0.40,us"),
                List.of(), "");
        assertTrue(md.contains("0 of 1 rows meet"), md);
        assertTrue(md.contains("| pingpong 8 B | latency | 2 | shm | 0.300 / 0.200 | 1.50 | ≤ 1.00 | **NO** "
                + "| 0.500 / 0.400 | 1.25 | ≤ 1.50 | yes | 0.10 | **NO** |"), md);
    }

    @Test
    void collectivesWithTheFollowingBarrierAndStartUpCpuHaveTargets() {
        List<Comparison> c = pair("jshmem,shm,4,broadcast+barrier_all,8,lat_p50_us,1,us",
                "oshmem,shm,4,broadcast+barrier_all,8,lat_p50_us,2,us",
                "jshmem,ucx-tcp,2,alltoall+barrier_all,65536,lat_p99_us,40,us",
                "oshmem,ucx-tcp,2,alltoall+barrier_all,65536,lat_p99_us,20,us",
                "jshmem,shm,4,startup,0,cpu_p50_s,0.48,s", "oshmem,shm,4,startup,0,cpu_p50_s,0.18,s",
                "jshmem,shm,4,startup_src,0,cpu_p99_s,0.50,s", "oshmem,shm,4,startup_src,0,cpu_p99_s,0.40,s",
                "jshmem,shm,4,startup,0,lat_p50_us,800000,us", "oshmem,shm,4,startup,0,lat_p50_us,900000,us",
                "jshmem,shm,2,put,8,first1000_us,900,us", "oshmem,shm,2,put,8,first1000_us,100,us");
        assertEquals(List.of("put first1000_us NO_TARGET -", "broadcast+barrier_all lat_p50_us MET ≤ 1.00",
                        "startup cpu_p50_s MISSED ≤ 1.00", "startup_src cpu_p99_s MET ≤ 1.50",
                        "startup lat_p50_us MET ≤ 1.00", "alltoall+barrier_all lat_p99_us MISSED ≤ 1.50"),
                c.stream().map(x -> x.key().op() + " " + x.key().metric().label() + " " + x.status() + " "
                        + x.target().map(Target::describe).orElse("-")).toList());
    }

    @Test
    void quickModePrintsNoRatiosAndNoTargets() {
        String md = Summary.markdown(pair("jshmem,shm,2,get,8,lat_p50_us,0.300,us", "oshmem,shm,2,get,8,lat_p50_us,0.100,us",
                "jshmem,shm,2,job_rma,0,cpu_s,3.0,s", "oshmem,shm,2,job_rma,0,cpu_s,2.0,s"), List.of(), "", true);
        assertTrue(md.contains("quick mode: no ratios, too few repetitions to judge"), md);
        assertTrue(md.contains("| get | 8 | lat_p50_us | 2 | shm | 0.300 | 0.100 |"), md);
        assertTrue(!md.contains("1.50") && !md.contains("(faster)") && !md.contains("(slower)") && !md.contains("targets met")
                && !md.contains("meet their targets"), md);
    }

    @Test
    void pingPongAndBarrierTargetsCoverMedianAndTail() {
        List<Comparison> c = pair("jshmem,shm,2,pingpong,8,lat_us,0.20,us", "oshmem,shm,2,pingpong,8,lat_us,0.25,us",
                "jshmem,shm,2,pingpong,8,lat_p50_us,0.30,us", "oshmem,shm,2,pingpong,8,lat_p50_us,0.25,us",
                "jshmem,shm,2,pingpong,8,lat_p99_us,0.90,us", "oshmem,shm,2,pingpong,8,lat_p99_us,0.50,us",
                "jshmem,shm,2,barrier_all,0,lat_p99_us,0.70,us", "oshmem,shm,2,barrier_all,0,lat_p99_us,0.50,us",
                "jshmem,ucx-tcp,4,pingpong,8,lat_us,12,us", "oshmem,ucx-tcp,4,pingpong,8,lat_us,10,us",
                "jshmem,shm,4,pingpong,8,lat_p99_us,9,us", "oshmem,shm,4,pingpong,8,lat_p99_us,1,us");
        // p50 at most OSHMEM's, p99 at most 1.5x OSHMEM's p99 (0.90/0.50 misses, 0.70/0.50 meets);
        // the loop mean has no target; pingpong at 4 PEs on shm has none.
        assertEquals(List.of(Comparison.Status.NO_TARGET, Comparison.Status.MISSED, Comparison.Status.MISSED,
                        Comparison.Status.MET, Comparison.Status.NO_TARGET, Comparison.Status.NO_TARGET),
                c.stream().map(Comparison::status).toList());
    }

    @Test
    void ucxTargetsCoverEveryWaitAndCollectiveAtTwoAndFourPes() {
        List<Comparison> c = pair("jshmem,ucx-tcp,2,put,8,lat_p50_us,11,us", "oshmem,ucx-tcp,2,put,8,lat_p50_us,10,us",
                "jshmem,ucx-tcp,4,barrier_all,0,lat_p99_us,29,us", "oshmem,ucx-tcp,4,barrier_all,0,lat_p99_us,10,us",
                "jshmem,ucx-tcp,4,broadcast,65536,lat_us,9,us", "oshmem,ucx-tcp,4,broadcast,65536,lat_us,10,us",
                "jshmem,ucx-tcp,4,broadcast,65536,lat_p50_us,20,us", "oshmem,ucx-tcp,4,broadcast,65536,lat_p50_us,10,us",
                "jshmem,ucx-tcp,4,get,1048576,bw_p50_MBps,85,MB/s", "oshmem,ucx-tcp,4,get,1048576,bw_p50_MBps,100,MB/s",
                "jshmem,ucx-tcp,4,job_amo,0,cpu_s,14,s", "oshmem,ucx-tcp,4,job_amo,0,cpu_s,10,s",
                "jshmem,ucx-tcp,4,job_coll,0,cpu_s,16,s", "oshmem,ucx-tcp,4,job_coll,0,cpu_s,10,s",
                "jshmem,shm,2,fetch_add,8,lat_p50_us,0.6,us", "oshmem,shm,2,fetch_add,8,lat_p50_us,1,us",
                "jshmem,ucx-tcp,8,barrier_all,0,lat_p50_us,29,us", "oshmem,ucx-tcp,8,barrier_all,0,lat_p50_us,10,us");
        assertEquals(List.of("2 shm fetch_add lat_p50_us MISSED", "2 ucx-tcp put lat_p50_us MISSED",
                        "4 ucx-tcp barrier_all lat_p99_us MISSED", "4 ucx-tcp broadcast lat_us NO_TARGET",
                        "4 ucx-tcp broadcast lat_p50_us MISSED", "4 ucx-tcp get bw_p50_MBps MISSED",
                        "4 ucx-tcp job_amo cpu_s MET", "4 ucx-tcp job_coll cpu_s MISSED",
                        "8 ucx-tcp barrier_all lat_p50_us NO_TARGET"),
                c.stream().map(x -> x.key().pes() + " " + x.key().transport() + " " + x.key().op() + " "
                        + x.key().metric().label() + " " + x.status()).toList());
    }

    @Test
    void jobRowsGoToTheirOwnTable() {
        String md = Summary.markdown(pair("jshmem,shm,2,job_coll,0,cpu_s,3.0,s", "oshmem,shm,2,job_coll,0,cpu_s,2.0,s",
                "jshmem,shm,2,job_coll,0,bind_core,1,flag", "oshmem,shm,2,job_coll,0,bind_core,1,flag",
                "jshmem,shm,2,job_coll,0,load_avg,0.5,load"), List.of(), "");
        assertTrue(md.contains("0 of 0 rows meet their targets"), md);
        assertTrue(md.contains("| coll | 2 | shm | yes / yes |  | 3.00 / 2.00 | 1.50 | 0.50 / - |  |"), md);
        assertTrue(!md.contains("| job_coll |"), md);
        // UCX jobs have a CPU-seconds target (at most 1.5x OSHMEM's): the table says whether it is met.
        String ucx = Summary.markdown(pair("jshmem,ucx-tcp,4,job_amo,0,cpu_s,14,s", "oshmem,ucx-tcp,4,job_amo,0,cpu_s,10,s",
                "jshmem,ucx-tcp,4,job_coll,0,cpu_s,16,s", "oshmem,ucx-tcp,4,job_coll,0,cpu_s,10,s"), List.of(), "");
        assertTrue(ucx.contains("| amo | 4 | ucx-tcp |  |  | 14.0 / 10.0 | 1.40 (≤ 1.50: met) |  |  |"), ucx);
        assertTrue(ucx.contains("| coll | 4 | ucx-tcp |  |  | 16.0 / 10.0 | 1.60 (≤ 1.50: **missed**) |  |  |"), ucx);
    }

    @Test
    void malformedRowsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> Row.parse("jshmem,shm,2,put,8,lat_us,0.1"));
        assertThrows(IllegalArgumentException.class, () -> Row.parse("jshmem,shm,two,put,8,lat_us,0.1,us"));
        assertThrows(IllegalArgumentException.class, () -> Row.parse("jshmem,shm,2,put,8,lat_ms,0.1,us"));
    }

    @Test
    void roundsGiveMediansAndTheMedianOfPerRoundRatios() {
        // Round 2 caught a slow machine for both sides: its ratio is still 1; the medians alone would say 0.5.
        List<Comparison> c = pair("jshmem,shm,2,pingpong,8,lat_p50_us,0.12,us,1", "oshmem,shm,2,pingpong,8,lat_p50_us,0.16,us,1",
                "jshmem,shm,2,pingpong,8,lat_p50_us,0.40,us,2", "oshmem,shm,2,pingpong,8,lat_p50_us,0.40,us,2",
                "jshmem,shm,2,pingpong,8,lat_p50_us,0.13,us,3", "oshmem,shm,2,pingpong,8,lat_p50_us,0.40,us,3");
        assertEquals(1, c.size());
        assertEquals(0.13, c.get(0).jshmem().getAsDouble(), 1e-12);
        assertEquals(0.40, c.get(0).oshmem().getAsDouble(), 1e-12);
        assertEquals(0.75, c.get(0).ratio().getAsDouble(), 1e-12); // median of 0.75, 1.0, 0.325
        String md = Summary.markdown(c, List.of(), "");
        assertTrue(md.contains("| 0.75 (faster) | 3: 0.33-1.00 |"), md);
    }

    @Test
    void aRoundWithOneSideMissingDoesNotPair() {
        List<Comparison> c = pair("jshmem,shm,2,put,8,lat_us,1,us,1", "oshmem,shm,2,put,8,lat_us,2,us,2");
        assertEquals(0, c.get(0).roundRatios().length);
        assertEquals(0.5, c.get(0).ratio().getAsDouble(), 1e-12); // falls back to the medians
        assertThrows(IllegalArgumentException.class, () -> Row.parse("jshmem,shm,2,put,8,lat_us,1,us,0"));
    }
}
