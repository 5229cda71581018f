/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.slurmtests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The conformance cases in jobs started by srun, the PEs bootstrapping through PMI-2 or PMIx: on one
 * Slurm node (all PEs map each other's heaps) and across two slurmd "nodes" of this machine (PEs of
 * different nodes talk through UCX, although they share the machine: node identity comes from the
 * launcher). Both run in the two-node configuration, with {@code -N 1} and {@code -N 2}.
 */
class SrunConformanceTest {
    /**
     * Cases that hold across nodes (the full suite also has cases that assume one node: setup.ptr,
     * team.world-and-shared), at 2 PEs: each kind of operation, through UCX and shared memory.
     */
    static final List<String> CROSS_NODE_CASES = List.of("setup.my-pe", "setup.pe-accessible", "setup.addr-accessible",
            "rma.put-get", "rma.nbi.long", "rma.p-g", "amo.ops", "amo.concurrent-add", "amo.cswap-ticket.long",
            "sync.wait-until.long", "sync.flag-handoff", "order.", "coll.broadcast-every-root.long", "coll.reduce.sum.long",
            "coll.alltoall.all", "lock.", "signal.");
    /** A smaller set at 4 PEs (2 per node, on 2 cores: UCX over TCP between oversubscribed JVMs is slow). */
    static final List<String> CROSS_NODE_CASES_4 = List.of("setup.my-pe", "setup.pe-accessible", "rma.put-get.long",
            "rma.nbi.long", "rma.p-g.long", "amo.ops.long", "amo.concurrent-add.long", "sync.wait-until.long",
            "order.fence", "order.quiet", "order.barrier-visibility", "coll.broadcast-every-root.long",
            "coll.reduce.sum.long", "lock.counter", "signal.put-signal-set");

    static Run srun(String mpi, int nodes, int npes, List<String> cases) {
        List<String> cmd = new ArrayList<>(List.of("srun", "--mpi=" + mpi, "-N", Integer.toString(nodes),
                "-n", Integer.toString(npes), "--overcommit", "--kill-on-bad-exit=1", "-t", "7",
                "--job-name=jshmem-slurm-tests"));
        // The whole suite (no case list) without the allocation counts: see Cluster.WITHOUT_ALLOCATION_CASES.
        String[] selection = cases.isEmpty() ? Cluster.WITHOUT_ALLOCATION_CASES : cases.toArray(String[]::new);
        cmd.addAll(Cluster.java(Cluster.CASE_RUNNER, selection));
        return Run.of(cmd, Map.of("SHMEM_INFO", "1", "CONFORMANCE_CASE_TIMEOUT", "60"), Cluster.ROOT, 450);
    }

    @ParameterizedTest(name = "srun --mpi={0} -N 1 -n {1}")
    @CsvSource({"pmi2, 2", "pmi2, 4", "pmix, 2", "pmix, 4"})
    void oneNode(String mpi, int npes) {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        Cluster.assumeMpiPlugin(mpi);
        Run run = srun(mpi, 1, npes, List.of());
        CaseReport.check(run, npes, "srun --mpi=" + mpi + " -N 1 -n " + npes);
        String bootstrap = mpi.equals("pmi2") ? "bootstrap: PMI-2 (srun --mpi=pmi2" : "bootstrap: PMIx (srun --mpi=pmix";
        assertTrue(run.stderr().contains(bootstrap), "SHMEM_INFO does not say \"" + bootstrap + "\"" + run.tail());
        assertTrue(run.stderr().contains(npes + " PEs, " + npes + " on this node"),
                "SHMEM_INFO does not put all " + npes + " PEs on one node" + run.tail());
        assertTrue(run.stderr().contains("transport in use:     shm (direct load/store)"),
                "PEs on one node do not use shared memory only" + run.tail());
    }

    @ParameterizedTest(name = "srun --mpi={0} -N 2 -n {1}")
    @CsvSource({"pmi2, 4", "pmix, 2"})
    void twoNodes(String mpi, int npes) {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(2);
        Cluster.assumeMpiPlugin(mpi);
        Cluster.assumeUcx();
        Run run = srun(mpi, 2, npes, npes > 2 ? CROSS_NODE_CASES_4 : CROSS_NODE_CASES);
        CaseReport.check(run, npes, "srun --mpi=" + mpi + " -N 2 -n " + npes);
        assertTrue(run.stderr().contains(npes + " PEs, " + npes / 2 + " on this node"),
                "SHMEM_INFO does not put " + npes / 2 + " PEs on PE 0's node" + run.tail());
        assertTrue(run.stderr().matches("(?s).*transport in use: +shm on-node, ucx.*off-node.*"),
                "PEs on different Slurm nodes do not use UCX (with shared memory on-node)" + run.tail());
    }
}
