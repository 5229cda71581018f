/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.slurmtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Re-initialization after finalize (OpenSHMEM 1.6) under srun and mpirun: the conformance module's
 * {@code Reinit} program (three generations in one job) with the PEs bootstrapping through PMI-2 or
 * PMIx, whose session is kept from one generation to the next; under srun on one node and across two.
 */
class PmiReinitTest {
    private static final String REINIT = "io.jshmem.conformance.Reinit";
    private static final Pattern FAIL = Pattern.compile("(?m)^(?:\\d+: )?CASE \\S+ PE \\d+ FAIL.*$");

    private static Run srun(String mpi, int nodes, int npes, String... args) {
        return srun(Map.of(), mpi, nodes, npes, args);
    }

    private static Run srun(Map<String, String> env, String mpi, int nodes, int npes, String... args) {
        List<String> cmd = new ArrayList<>(List.of("srun", "--mpi=" + mpi, "-N", Integer.toString(nodes),
                "-n", Integer.toString(npes), "--overcommit", "--kill-on-bad-exit=1", "-t", "3",
                "--job-name=jshmem-slurm-tests"));
        cmd.addAll(Cluster.java(REINIT, args));
        return Run.of(cmd, env, Cluster.ROOT, 200);
    }

    @ParameterizedTest(name = "srun --mpi={0} -N {1} -n {2}")
    @CsvSource({"pmi2, 1, 2", "pmix, 1, 4", "pmi2, 2, 4", "pmix, 2, 2"})
    void threeGenerationsInOneJob(String mpi, int nodes, int npes) {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(nodes);
        Cluster.assumeMpiPlugin(mpi);
        if (nodes > 1) {
            Cluster.assumeUcx();
        }
        check(srun(mpi, nodes, npes, "3"), npes);
    }

    @Test
    void threeGenerationsUnderMpirun() {
        Cluster.assumeBuilt();
        Cluster.assumeMpirun();
        List<String> cmd = MpirunConformanceTest.mpirun(4);
        cmd.addAll(Cluster.java(REINIT, "3"));
        check(Run.of(cmd, Map.of(), Cluster.ROOT, 200), 4);
    }

    /** Every PE passed every check of every generation, and the job ended with status 0. */
    private static void check(Run run, int npes) {
        assertFalse(run.timedOut(), "the job did not end in time" + run.tail());
        List<String> failed = FAIL.matcher(run.stdout()).results().map(m -> m.group()).toList();
        assertTrue(failed.isEmpty(), failed.size() + " check(s) failed:\n" + String.join("\n", failed) + run.tail());
        for (int pe = 0; pe < npes; pe++) {
            for (String c : List.of("put-barrier.g3", "stale.object-put.g3", "stale.team-as-argument.g2", "after-last.stale-handle.g3")) {
                assertTrue(Pattern.compile("(?m)^(?:\\d+: )?CASE reinit\\." + Pattern.quote(c) + " PE " + pe + " PASS$")
                        .matcher(run.stdout()).find(), "PE " + pe + " did not pass reinit." + c + run.tail());
            }
        }
        assertEquals(0, run.exit(), "exit status" + run.tail());
    }

    /**
     * A PE that exits after finalize instead of initializing again: the others' re-initialization
     * ends the job, with a message, within JSHMEM_PMI_REINIT_TIMEOUT (here 15 s) at the latest:
     * under PMIx their fence may fail at once, under PMI-2 nothing tells them.
     */
    @ParameterizedTest(name = "srun --mpi={0}")
    @CsvSource({"pmix", "pmi2"})
    void theJobEndsWhenAPeExitsInsteadOfReinitializing(String mpi) {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        Cluster.assumeMpiPlugin(mpi);
        java.util.Set<String> before = segments();
        Run run = srun(Map.of("JSHMEM_PMI_REINIT_TIMEOUT", "15"), mpi, 1, 3, "2", "quit", "1");
        assertFalse(run.timedOut(), "the job did not end in time" + run.tail());
        assertTrue(run.stdout().contains("PE 1 exits after finalize instead of initializing again"), run.tail());
        assertTrue((run.stdout() + run.stderr()).contains("not every PE initialized jshmem again within 15 s")
                || (run.stdout() + run.stderr()).contains("PMIx_Fence failed"), "no message about the PE that quit" + run.tail());
        assertNotEquals(0, run.exit(), "exit status" + run.tail());
        java.util.Set<String> left = segments();
        left.removeAll(before);
        assertTrue(left.isEmpty(), "segments left in /dev/shm: " + left + run.tail());
    }

    /** The names of jshmem's segments of Slurm jobs in /dev/shm. */
    private static java.util.Set<String> segments() {
        String[] names = new java.io.File("/dev/shm").list((d, n) -> n.startsWith("jshmem-slurm"));
        return new java.util.TreeSet<>(List.of(names == null ? new String[0] : names));
    }
}
