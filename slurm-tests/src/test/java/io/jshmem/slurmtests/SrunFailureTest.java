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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** How jobs under srun fail: a clear message for a missing PMI, and a whole step that ends, naming the PE. */
class SrunFailureTest {

    static List<String> srun(String... options) {
        List<String> cmd = new ArrayList<>(List.of("srun", "-N", "1", "--overcommit", "-t", "2",
                "--job-name=jshmem-slurm-tests"));
        cmd.addAll(List.of(options));
        return cmd;
    }

    @Test
    void srunWithoutPmiSaysWhatToDo() {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        List<String> cmd = srun("--mpi=none", "-n", "2");
        cmd.addAll(Cluster.java(Cluster.CASE_RUNNER, "setup.my-pe"));
        Run run = Run.of(cmd, Map.of(), Cluster.ROOT, 90);
        System.out.printf("[slurm-tests] srun --mpi=none: exit %d, %.1f s%n", run.exit(), run.seconds());
        assertFalse(run.timedOut(), "the job did not end" + run.tail());
        assertNotEquals(0, run.exit(), "srun without PMI succeeded" + run.tail());
        assertTrue(run.stderr().contains("launched by srun without a PMI plugin: use srun --mpi=pmi2 (or --mpi=pmix)"),
                "no clear message" + run.tail());
    }

    @ParameterizedTest(name = "--mpi={0} with its client library missing")
    @ValueSource(strings = {"pmi2", "pmix"})
    void missingPmiLibrarySaysWhatToInstall(String mpi) {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        Cluster.assumeMpiPlugin(mpi);
        List<String> cmd = srun("--mpi=" + mpi, "-n", "2");
        cmd.addAll(Cluster.java(Cluster.CASE_RUNNER, "setup.my-pe"));
        String var = mpi.equals("pmi2") ? "JSHMEM_PMI2_LIBRARY" : "JSHMEM_PMIX_LIBRARY";
        Run run = Run.of(cmd, Map.of(var, "/nonexistent/lib" + mpi + ".so"), Cluster.ROOT, 90);
        System.out.printf("[slurm-tests] srun --mpi=%s, library missing: exit %d, %.1f s%n", mpi, run.exit(), run.seconds());
        assertFalse(run.timedOut(), "the job did not end" + run.tail());
        assertNotEquals(0, run.exit(), "the job succeeded without its PMI library" + run.tail());
        String pkg = mpi.equals("pmi2") ? "apt-get install libpmi2-0" : "apt-get install libpmix2";
        assertTrue(run.stderr().contains(pkg), "the message does not name the package (" + pkg + ")" + run.tail());
    }

    /** A PE killed by SIGKILL: srun --kill-on-bad-exit ends the step, naming the task (= PE), and nothing is left. */
    @Test
    void killedPeEndsTheStep() throws Exception {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        Cluster.assumeMpiPlugin("pmi2");
        List<String> cmd = srun("--mpi=pmi2", "-n", "3", "--kill-on-bad-exit=1");
        cmd.addAll(Cluster.java(Cluster.SCENARIOS, "barrier-loop", "100"));
        Run.Started job = Run.start(cmd, Map.of(), Cluster.ROOT);
        try {
            assertTrue(job.waitForOutput(o -> o.contains("LOOPING") && pids(o).size() == 3, 90),
                    "the PEs did not start looping:\n" + job.stdoutSoFar() + job.stderrSoFar());
            Map<Integer, Long> pids = pids(job.stdoutSoFar());
            ProcessHandle.of(pids.get(1)).orElseThrow().destroyForcibly();
            long killed = System.nanoTime();
            Run run = job.await(60);
            double after = (System.nanoTime() - killed) / 1e9;
            System.out.printf("[slurm-tests] PE 1 killed: step ended %.1f s later, exit %d%n", after, run.exit());
            assertFalse(run.timedOut(), "the step did not end after PE 1 was killed" + run.tail());
            assertTrue(after < 30, "the step took " + after + " s to end" + run.tail());
            assertNotEquals(0, run.exit(), "srun's exit status" + run.tail());
            assertTrue(run.stderr().matches("(?s).*task 1: Killed.*"), "srun does not name PE 1 (task 1)" + run.tail());
            Thread.sleep(2000);
            for (Map.Entry<Integer, Long> e : pids.entrySet()) {
                assertFalse(ProcessHandle.of(e.getValue()).map(ProcessHandle::isAlive).orElse(false),
                        "PE " + e.getKey() + " (pid " + e.getValue() + ") is still alive" + run.tail());
            }
        } finally {
            job.process.destroyForcibly();
        }
    }

    /** globalExit ends the step through PMI abort (no --kill-on-bad-exit needed), naming the PE. */
    @ParameterizedTest(name = "globalExit under srun --mpi={0}")
    @ValueSource(strings = {"pmi2", "pmix"})
    void globalExitEndsTheStep(String mpi) {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        Cluster.assumeMpiPlugin(mpi);
        List<String> cmd = srun("--mpi=" + mpi, "-n", "3");
        cmd.addAll(Cluster.java(Cluster.SCENARIOS, "global-exit", "1", "7"));
        Run run = Run.of(cmd, Map.of(), Cluster.ROOT, 120);
        System.out.printf("[slurm-tests] globalExit under srun --mpi=%s: exit %d, %.1f s%n", mpi, run.exit(), run.seconds());
        assertFalse(run.timedOut(), "the step did not end" + run.tail());
        assertTrue(run.seconds() < 60, "the step took " + run.seconds() + " s");
        assertTrue(run.stderr().contains("jshmem: PE 1 called globalExit(7); ending the job through"),
                "the PE is not named" + run.tail());
        if (mpi.equals("pmix")) {
            assertEquals(7, run.exit(), "srun's exit status after PMIx_Abort(7)" + run.tail());
        } else {
            assertNotEquals(0, run.exit(), "srun's exit status" + run.tail()); // PMI2_Abort carries no status
        }
    }

    /** A PE dying of an uncaught exception before finalize aborts the step (no --kill-on-bad-exit needed). */
    @Test
    void uncaughtExceptionEndsTheStep() {
        Cluster.assumeBuilt();
        Cluster.assumeSlurm(1);
        Cluster.assumeMpiPlugin("pmi2");
        List<String> cmd = srun("--mpi=pmi2", "-n", "3");
        cmd.addAll(Cluster.java(Cluster.SCENARIOS, "uncaught", "2"));
        Run run = Run.of(cmd, Map.of(), Cluster.ROOT, 120);
        System.out.printf("[slurm-tests] uncaught exception under srun: exit %d, %.1f s%n", run.exit(), run.seconds());
        assertFalse(run.timedOut(), "the step did not end" + run.tail());
        assertTrue(run.seconds() < 60, "the step took " + run.seconds() + " s");
        assertNotEquals(0, run.exit(), "srun's exit status" + run.tail());
        assertTrue(run.stderr().contains("jshmem: PE 2 failed before finalize"), "the PE is not named" + run.tail());
    }

    private static final Pattern PID = Pattern.compile("(?m)^PID (\\d+) (\\d+)$");

    static Map<Integer, Long> pids(String stdout) {
        Map<Integer, Long> m = new java.util.TreeMap<>();
        Matcher x = PID.matcher(stdout);
        while (x.find()) {
            m.put(Integer.parseInt(x.group(1)), Long.parseLong(x.group(2)));
        }
        return m;
    }
}
