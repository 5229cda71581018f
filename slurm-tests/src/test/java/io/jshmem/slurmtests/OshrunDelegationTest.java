/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.slurmtests;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/oshrun inside a Slurm allocation hands the job to srun (as Sandia OpenSHMEM's oshrun does). */
class OshrunDelegationTest {

    static List<String> sallocOshrun(String... oshrunArgs) {
        List<String> cmd = new ArrayList<>(List.of("salloc", "-N", "1", "-n", "2", "--overcommit", "-t", "2",
                "--job-name=jshmem-slurm-tests", Cluster.ROOT.resolve("bin/oshrun").toString()));
        cmd.addAll(List.of(oshrunArgs));
        return cmd;
    }

    @Test
    void insideAnAllocationOshrunUsesSrun() {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        Cluster.assumeMpiPlugin("pmi2");
        List<String> cmd = sallocOshrun("-np", "2", "--timeout", "90", "-x", "JSHMEM_TEST_VAR=1",
                "-cp", Cluster.ROOT.resolve("conformance/target/classes").toString(),
                Cluster.CASE_RUNNER, "setup.my-pe", "rma.put-get.long");
        Run run = Run.of(cmd, Map.of("SHMEM_INFO", "1", "JSHMEM_JAVA_OPTS", "-XX:TieredStopAtLevel=1"), Cluster.ROOT, 150);
        CaseReport.check(run, 2, "salloc oshrun -np 2");
        assertTrue(run.stderr().contains("oshrun: inside Slurm allocation"), "oshrun does not say it delegates" + run.tail());
        assertTrue(run.stderr().matches("(?s).*oshrun: srun --mpi=pmi2 --kill-on-bad-exit=1 -n 2 --time=2 .*"),
                "oshrun does not show the srun command it runs" + run.tail());
        assertTrue(run.stderr().contains("bootstrap: PMI-2 (srun --mpi=pmi2"), "the PEs do not bootstrap through PMI-2" + run.tail());
    }

    @Test
    void jshmemLauncherOshrunKeepsOshrunsOwnLauncher() {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        List<String> cmd = sallocOshrun("-np", "2", "-cp", Cluster.ROOT.resolve("conformance/target/classes").toString(),
                Cluster.CASE_RUNNER, "setup.my-pe");
        Run run = Run.of(cmd, Map.of("SHMEM_INFO", "1", "JSHMEM_LAUNCHER", "oshrun"), Cluster.ROOT, 150);
        CaseReport.check(run, 2, "salloc JSHMEM_LAUNCHER=oshrun oshrun -np 2");
        assertTrue(run.stderr().contains("using oshrun's own launcher"), "oshrun does not say which launcher" + run.tail());
        assertTrue(run.stderr().contains("bootstrap: jshmem launcher"), "the PEs do not use oshrun's bootstrap" + run.tail());
        assertFalse(run.stderr().contains("launching with srun"), "oshrun delegated anyway" + run.tail());
    }

    /**
     * mpirun's options become srun's: --map-by node (--distribution=cyclic), -N (--ntasks-per-node),
     * --report-bindings (--cpu-bind=verbose), --output-filename (--output/--error per task), -q
     * (--quiet), --bind-to none (its value no longer taken for the main class); --timestamp-output,
     * which srun lacks, is refused saying how to keep oshrun's own launcher.
     */
    @Test
    void mpirunOptionsBecomeSruns(@TempDir Path dir) throws Exception {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        Cluster.assumeMpiPlugin("pmi2");
        Path out = dir.resolve("out");
        List<String> cmd = sallocOshrun("-np", "2", "--timeout", "90", "--map-by", "node", "-N", "2", "--report-bindings",
                "--bind-to", "none", "--output-filename", out.toString(), "-q",
                "-cp", Cluster.ROOT.resolve("conformance/target/classes").toString(), Cluster.CASE_RUNNER, "setup.my-pe");
        Run run = Run.of(cmd, Map.of("SHMEM_INFO", "1"), Cluster.ROOT, 150);
        assertTrue(run.stderr().matches("(?s).*oshrun: srun --mpi=pmi2 --kill-on-bad-exit=1 --distribution=cyclic"
                + " --ntasks-per-node=2 --cpu-bind=verbose --cpu-bind=none --output=" + Pattern.quote(out.toString())
                + "/pe%t.stdout --error=" + Pattern.quote(out.toString()) + "/pe%t.stderr --quiet -n 2 .*"),
                "not the srun command expected" + run.tail());
        for (int pe = 0; pe < 2; pe++) {
            String stdout = Files.readString(out.resolve("pe" + pe + ".stdout"));
            int k = pe;
            assertTrue(stdout.lines().anyMatch(l -> l.matches("CASE setup\\.my-pe\\S* PE " + k + " PASS")),
                    "PE " + pe + "'s output file: " + stdout + run.tail());
        }
        Run refused = Run.of(sallocOshrun("-np", "2", "--timestamp-output", "Main"), Map.of(), Cluster.ROOT, 150);
        assertTrue(refused.stderr().contains("--timestamp-output: srun has no such option; JSHMEM_LAUNCHER=oshrun"),
                refused.tail());
    }
}
