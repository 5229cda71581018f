/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.slurmtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Jobs started by Open MPI's mpirun: the PEs bootstrap through the PMIx server mpirun runs. */
class MpirunConformanceTest {

    static List<String> mpirun(int npes) {
        return new ArrayList<>(List.of("timeout", "-k", "10", "420", "mpirun", "--allow-run-as-root", "--oversubscribe",
                "-np", Integer.toString(npes)));
    }

    @ParameterizedTest(name = "mpirun -np {0}")
    @ValueSource(ints = {2, 4})
    void conformance(int npes) {
        Cluster.assumeBuilt();
        Cluster.assumeMpirun();
        List<String> cmd = mpirun(npes);
        cmd.addAll(List.of("-x", "SHMEM_INFO", "-x", "CONFORMANCE_CASE_TIMEOUT"));
        cmd.addAll(Cluster.java(Cluster.CASE_RUNNER, Cluster.WITHOUT_ALLOCATION_CASES));
        Run run = Run.of(cmd, Map.of("SHMEM_INFO", "1", "CONFORMANCE_CASE_TIMEOUT", "60"), Cluster.ROOT, 450);
        CaseReport.check(run, npes, "mpirun -np " + npes);
        assertTrue(run.stderr().contains("bootstrap: PMIx (Open MPI mpirun"),
                "SHMEM_INFO does not say the bootstrap is PMIx from mpirun" + run.tail());
    }

    /** globalExit through PMIx_Abort: mpirun ends the job with the status, the PE is named. */
    @Test
    void globalExitEndsTheJob() {
        Cluster.assumeBuilt();
        Cluster.assumeMpirun();
        List<String> cmd = mpirun(3);
        cmd.addAll(Cluster.java(Cluster.SCENARIOS, "global-exit", "1", "7"));
        Run run = Run.of(cmd, Map.of(), Cluster.ROOT, 120);
        System.out.printf("[slurm-tests] mpirun global-exit: exit %d, %.1f s%n", run.exit(), run.seconds());
        assertFalse(run.timedOut(), "the job did not end" + run.tail());
        assertEquals(7, run.exit(), "mpirun's exit status" + run.tail());
        assertTrue(run.stderr().contains("PE 1 called globalExit(7)"), "the PE is not named" + run.tail());
    }
}
