/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import io.jshmem.test.ShmemCases;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The conformance cases, run for real: one job through bin/oshrun per PE count and configuration
 * (2 and 4 PEs with every case; 4 PEs again with the dissemination sync and pull collectives forced;
 * 8 PEs with the barrier loop and the collectives; 4 PEs on two "hosts" joined by UCX with atomics
 * through UCX; over UCX the other algorithms forced, among them Bruck's, pairwise and ring alltoall
 * and fcollect, and the reductions by recursive doubling and Rabenseifner), reported through
 * jshmem-test's {@link ShmemCases}: one dynamic test per case and job
 * asserting that every PE reported PASS (a case that reports SKIP is a skipped test), plus one per
 * job asserting it exited with status 0.
 */
class ConformanceSuiteTest {
    private static final String RUNNER = "io.jshmem.conformance.CaseRunner";

    @TestFactory
    Stream<DynamicNode> cases() {
        // Default algorithms on shared memory: linear syncs on arrival words and push collectives; the
        // 4-PE job with the other algorithms forced (dissemination syncs, pull collectives).
        List<String> eight = AllCases.names().stream().filter(n -> n.equals("order.barrier-loop") || n.startsWith("coll.")).toList();
        return Stream.of(
                job(2, AllCases.names(), List.of(), List.of()),
                job(4, AllCases.names(), List.of(), List.of()),
                job(4, AllCases.names(), List.of(), List.of("-x", "JSHMEM_BARRIER_ALGORITHM=dissemination",
                        "-x", "JSHMEM_COLL_ALGORITHM=pull")),
                job(8, eight, List.of("order.barrier-loop", "coll."), List.of()),
                // Two "hosts" of 2 PEs (the cluster shape: shared memory on-node, UCX over TCP
                // off-node), with every atomic forced through UCX as on InfiniBand/RoCE.
                ucxJob(AllCases.names(), List.of(), List.of("--host", "localhost:2,127.0.0.1:2", "-x", "UCX_TLS=tcp,self",
                        "-x", "SHMEM_ATOMICS=transport")),
                // The other algorithms forced in turn (the defaults ran above): every peer over UCX, then 2 hosts.
                ucxJob(teamCases(), TEAM_FILTERS, List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self",
                        "-x", "JSHMEM_COLL_ALGORITHM=tree", "-x", "JSHMEM_BARRIER_ALGORITHM=dissemination",
                        "-x", "JSHMEM_ALLTOALL_ALGORITHM=push-bruck", "-x", "JSHMEM_FCOLLECT_ALGORITHM=push-bruck")),
                ucxJob(collCases(), List.of("coll."), List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self",
                        "-x", "JSHMEM_ALLTOALL_ALGORITHM=push-pairwise", "-x", "JSHMEM_FCOLLECT_ALGORITHM=push-ring",
                        "-x", "JSHMEM_REDUCE_ALGORITHM=push-recursive-doubling", "-x", "JSHMEM_BROADCAST_ALGORITHM=push-pipelined")),
                ucxJob(teamCases(), TEAM_FILTERS, List.of("--host", "localhost:2,127.0.0.1:2", "-x", "UCX_TLS=tcp,self",
                        "-x", "JSHMEM_COLL_ALGORITHM=pull", "-x", "JSHMEM_BARRIER_ALGORITHM=hierarchical")),
                // The reductions across nodes that auto takes only above 8 PEs, forced (where they can
                // run) on 4 PEs: recursive doubling in the coll. job above (every peer over UCX),
                // Rabenseifner on 2 hosts.
                ucxJob(reduceCases(), REDUCE_FILTERS, List.of("--host", "localhost:2,127.0.0.1:2", "-x", "UCX_TLS=tcp,self",
                        "-x", "JSHMEM_REDUCE_ALGORITHM=push-rabenseifner")),
                // Through the node leaders (what auto takes on 2 hosts of 2 in the job above), forced
                // on 5 PEs of 2 hosts (3 + 2): the leaders' recursive doubling, then their Rabenseifner
                // (with the fcollects, which auto takes through the leaders there); then 3 hosts of 2,
                // whose 3 leaders fold.
                ucxJob(5, reduceCases(), REDUCE_FILTERS, List.of("--host", "localhost:3,127.0.0.1:2", "-x", "UCX_TLS=tcp,self",
                        "-x", "JSHMEM_REDUCE_ALGORITHM=push-hierarchical-recursive-doubling")),
                ucxJob(5, leaderCases(), LEADER_FILTERS, List.of("--host", "localhost:3,127.0.0.1:2", "-x", "UCX_TLS=tcp,self",
                        "-x", "JSHMEM_REDUCE_ALGORITHM=push-hierarchical-rabenseifner")),
                ucxJob(6, leaderCases(), LEADER_FILTERS, List.of("--host", "localhost:2,127.0.0.1:2,127.0.0.2:2", "-x",
                        "UCX_TLS=tcp,self")),
                // Layouts whose node sums would not group as the flat sums do (1 + 3: auto keeps the
                // reductions flat) and whose nodes' PEs are not consecutive (round-robin over 2 hosts:
                // collect as if each PE were on a node of its own, scans and reductions flat).
                ucxJob(4, leaderCases(), LEADER_FILTERS, List.of("--host", "localhost:1,127.0.0.1:3", "-x", "UCX_TLS=tcp,self")),
                ucxJob(6, leaderCases(), LEADER_FILTERS, List.of("--map-by", "node", "--host", "localhost:3,127.0.0.1:3", "-x",
                        "UCX_TLS=tcp,self")));
    }

    private static final List<String> REDUCE_FILTERS = List.of("coll.reduce.");

    /** What goes through the node leaders: reductions, (f)collects, scans and alltoalls; and all of them back to back. */
    private static final List<String> LEADER_FILTERS = List.of("coll.reduce.", "coll.fcollect", "coll.collect", "coll.scan",
            "coll.alltoall", "coll.back-to-back", "coll.bad-arguments");

    private static List<String> leaderCases() {
        return AllCases.names().stream().filter(n -> LEADER_FILTERS.stream().anyMatch(n::startsWith)).toList();
    }

    private static List<String> reduceCases() {
        return AllCases.names().stream().filter(n -> n.startsWith("coll.reduce.")).toList();
    }

    /** The collective, synchronization and team cases: what the algorithm settings change. */
    private static final List<String> TEAM_FILTERS = List.of("coll.", "sync.", "team.", "order.barrier-loop");

    /** The collective cases: what JSHMEM_BROADCAST_ALGORITHM, JSHMEM_ALLTOALL_ALGORITHM and JSHMEM_FCOLLECT_ALGORITHM change. */
    private static List<String> collCases() {
        return AllCases.names().stream().filter(n -> n.startsWith("coll.")).toList();
    }

    private static List<String> teamCases() {
        return AllCases.names().stream().filter(n -> TEAM_FILTERS.stream().anyMatch(n::startsWith)).toList();
    }

    private static DynamicNode ucxJob(List<String> cases, List<String> filters, List<String> options) {
        return ucxJob(4, cases, filters, options);
    }

    private static DynamicNode ucxJob(int npes, List<String> cases, List<String> filters, List<String> options) {
        String why = io.jshmem.conformance.spawn.Jobs.ucxUnavailable().orElse(null);
        if (why != null) {
            return DynamicTest.dynamicTest(npes + " PEs over UCX " + String.join(" ", options), () -> {
                System.out.println("ConformanceSuiteTest: the UCX job is skipped: " + why);
                Assumptions.abort(why);
            });
        }
        return job(npes, cases, filters, options);
    }

    /** The names --list prints are the registered cases, in order. */
    @Test
    void listPrintsEveryCase() throws Exception {
        Oshrun.Result r = Oshrun.runPlainJava(RUNNER, "--list");
        assertEquals(0, r.exitCode(), "CaseRunner --list" + r.tail());
        assertEquals(AllCases.names(), r.stdout().lines().toList(), "CaseRunner --list" + r.tail());
        assertTrue(AllCases.names().size() > 100, "only " + AllCases.names().size() + " cases registered");
    }

    /**
     * One CaseRunner job as tests, through jshmem-test's {@link ShmemCases} (CaseRunner prints its
     * {@code CASE <name> PE <k> PASS|FAIL|SKIP} lines): one test per case, one for the job.
     */
    private static DynamicContainer job(int npes, List<String> cases, List<String> filters, List<String> options) {
        return ShmemCases.job(npes + " PEs" + (options.isEmpty() ? "" : " " + String.join(" ", options)), npes, options,
                Oshrun.JOB_TIMEOUT_SECONDS, RUNNER, filters, cases);
    }
}
