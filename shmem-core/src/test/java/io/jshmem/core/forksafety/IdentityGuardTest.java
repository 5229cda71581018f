/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.ProcFs;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.SubprocessRefusedException;
import io.jshmem.core.forksafety.PeIdentity.Scheme;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clauses 1 and 2: {@link IdentityGuard#check} on process trees described by files ({@link FakeProc}).
 * The tree: init (1) - bash (100) - launcher JVM (200) - PE JVM (300, carries the identity) - ...
 */
class IdentityGuardTest {
    private static final String JOB = "k3j2x9";
    private static final Map<String, String> PE1 = Map.of("JSHMEM_JOBID", JOB, "JSHMEM_PE", "1", "JSHMEM_NPES", "2",
            "JSHMEM_SECRET_FILE", "/dev/shm/jshmem-secret-k3j2x9-1/pe1", "PATH", "/usr/bin");
    private static final String SEGMENT = "/dev/shm/jshmem-" + JOB + "-1 (deleted)";
    private static final String MARKER_AT_500 = "/dev/shm/jshmem-" + JOB + "-1-owner-500 (deleted)";

    @TempDir
    Path dir;
    FakeProc proc;

    @BeforeEach
    void tree() {
        proc = new FakeProc(dir)
                .process(1, 0, "systemd", 1, null, "/sbin/init", List.of())
                .process(100, 1, "bash", 10, Map.of("PATH", "/usr/bin"), "-bash", List.of())
                .process(200, 100, "java", 20, Map.of("PATH", "/usr/bin"), "java io.jshmem.launcher.Launcher -np 2 Main", List.of());
    }

    /** The PE (300), with the given mappings, and this process (400) as its child started at {@code childStart}. */
    private void peAndChild(List<String> peMaps, long childStart, Map<String, String> childEnv) {
        proc.process(300, 200, "java", 30, PE1, "java -cp app.jar Main", peMaps)
                .process(400, 300, "java", childStart, childEnv, "java -cp app.jar Child", List.of());
    }

    private SubprocessRefusedException refused(Map<String, String> env, long self) {
        return assertThrows(SubprocessRefusedException.class, () -> IdentityGuard.check(env, proc.fs, self, Scheme.ACTIVE));
    }

    @Test
    void noIdentityNoMarkerPassesWithoutLookingAtProc() {
        assertDoesNotThrow(() -> IdentityGuard.check(Map.of("PATH", "/bin"), new ProcFs(dir.resolve("nothing")), 42, Scheme.ACTIVE));
    }

    @Test
    void thePeItselfPasses() {
        peAndChild(List.of(), 600, PE1);
        assertDoesNotThrow(() -> IdentityGuard.check(PE1, proc.fs, 300, Scheme.ACTIVE));
    }

    /** oshrun names itself (JSHMEM_LAUNCHER_PID): its own child is the PE and reads no ancestor. */
    @Test
    void aPeWhoseParentIsTheNamedLauncherLooksNoFurther() {
        Map<String, String> pe = new java.util.HashMap<>(PE1);
        pe.put("JSHMEM_LAUNCHER_PID", "200");
        // An ancestor carrying the identity would refuse the PE, were the ancestors read.
        proc.process(150, 100, "java", 15, PE1, "java -cp app.jar Main", List.of(SEGMENT))
                .process(200, 150, "java", 20, Map.of("PATH", "/usr/bin"), "java io.jshmem.launcher.Launcher -np 2 Main", List.of())
                .process(300, 200, "java", 30, pe, "java -cp app.jar Main", List.of());
        assertDoesNotThrow(() -> IdentityGuard.check(pe, proc.fs, 300, Scheme.ACTIVE));
        pe.put("JSHMEM_LAUNCHER_PID", "201");
        assertEquals(150, refused(pe, 300).ownerPid(), "another launcher's pid: the ancestors are read");
    }

    /** A subprocess inherits JSHMEM_LAUNCHER_PID, but its parent is the PE: still refused. */
    @Test
    void aSubprocessWithTheLaunchersPidIsStillRefused() {
        Map<String, String> pe = new java.util.HashMap<>(PE1);
        pe.put("JSHMEM_LAUNCHER_PID", "200");
        peAndChild(List.of(), 600, pe);
        assertEquals(300, refused(pe, 400).ownerPid());
    }

    @Test
    void clause1ParentNotInitializedYet() {
        peAndChild(List.of(), 600, PE1);
        SubprocessRefusedException e = refused(PE1, 400);
        assertEquals(1, e.clause());
        assertEquals(300, e.ownerPid());
        String m = e.getMessage();
        assertTrue(m.startsWith("jshmem: process 400 may not initialize PE 1 of job " + JOB + ": OpenSHMEM subprocess clause 1"), m);
        assertTrue(m.contains("belongs to process 300 (java -cp app.jar Main), the process the launcher started, which has not initialized jshmem yet"), m);
        assertTrue(m.contains("this process is its child, created before it initialized jshmem"), m);
        assertTrue(m.contains("Nothing was sent to the job"), m);
        assertTrue(m.contains("io.jshmem.spawn.Spawn"), m);
    }

    @Test
    void clause2ChildCreatedAfterInitWhileRunning() {
        peAndChild(List.of(SEGMENT, "/dev/shm/jshmem-" + JOB + "-0 (deleted)", MARKER_AT_500), 600, PE1);
        SubprocessRefusedException e = refused(PE1, 400);
        assertEquals(2, e.clause());
        assertEquals(300, e.ownerPid());
        assertTrue(e.getMessage().contains("OpenSHMEM subprocess clause 2"), e.getMessage());
        assertTrue(e.getMessage().contains("which initialized it and is still running it"), e.getMessage());
        assertTrue(e.getMessage().contains("created after it initialized jshmem"), e.getMessage());
    }

    @Test
    void sameTickCountsAsAfter() {
        peAndChild(List.of(SEGMENT, MARKER_AT_500), 500, PE1);
        assertEquals(2, refused(PE1, 400).clause());
    }

    @Test
    void clause1ChildCreatedBeforeInitTriesAfter() {
        peAndChild(List.of(SEGMENT, MARKER_AT_500), 499, PE1);
        SubprocessRefusedException e = refused(PE1, 400);
        assertEquals(1, e.clause());
        assertTrue(e.getMessage().contains("which initialized it and is still running it"), e.getMessage());
        assertTrue(e.getMessage().contains("created before it initialized jshmem"), e.getMessage());
    }

    @Test
    void clause2AfterFinalize() {
        peAndChild(List.of(MARKER_AT_500), 900, PE1);
        SubprocessRefusedException e = refused(PE1, 400);
        assertEquals(2, e.clause());
        assertTrue(e.getMessage().contains("which initialized it and has since finalized"), e.getMessage());
    }

    @Test
    void segmentWithoutMarkerMeansClause2() {
        peAndChild(List.of(SEGMENT), 10, PE1);
        SubprocessRefusedException e = refused(PE1, 400);
        assertEquals(2, e.clause());
        assertTrue(e.getMessage().contains("while it holds the PE's symmetric heap"), e.getMessage());
    }

    @Test
    void otherPesSegmentsAndMarkersDoNotCount() {
        // PE 10's and PE 0's files must not be taken for PE 1's.
        peAndChild(List.of("/dev/shm/jshmem-" + JOB + "-10 (deleted)", "/dev/shm/jshmem-" + JOB + "-10-owner-5 (deleted)",
                "/dev/shm/jshmem-" + JOB + "-0-owner-5 (deleted)", "/dev/shm/jshmem-" + JOB + "-1-owner-x (deleted)"), 600, PE1);
        SubprocessRefusedException e = refused(PE1, 400);
        assertEquals(1, e.clause(), "no claim of PE 1 seen: owned by the launched process, not initialized");
        assertTrue(e.getMessage().contains("has not initialized jshmem yet"), e.getMessage());
    }

    @Test
    void grandchildThroughAShell() {
        // PE (300, initialized at 500) - sh (400, started 600) - java (500, this process).
        peAndChild(List.of(SEGMENT, MARKER_AT_500), 600, PE1);
        proc.process(500, 400, "java", 700, PE1, "java Grandchild", List.of());
        SubprocessRefusedException e = refused(PE1, 500);
        assertEquals(2, e.clause());
        assertEquals(300, e.ownerPid());
        assertTrue(e.getMessage().contains("this process descends from its child 400 (java -cp app.jar Child), created after"), e.getMessage());
    }

    @Test
    void grandchildJudgedByThePesOwnChild() {
        // The shell was created before init, the grandchild after: what counts is when the PE created its child.
        peAndChild(List.of(SEGMENT, MARKER_AT_500), 450, PE1);
        proc.process(500, 400, "java", 700, PE1, "java Grandchild", List.of());
        assertEquals(1, refused(PE1, 500).clause());
    }

    @Test
    void topmostCarrierOwnsWhenNoneInitialized() {
        // PE 300 - child java 400 (same identity, never initialized) - this process 500.
        peAndChild(List.of(), 600, PE1);
        proc.process(500, 400, "java", 700, PE1, "java Grandchild", List.of());
        assertEquals(300, refused(PE1, 500).ownerPid());
    }

    @Test
    void otherJobOrOtherPePasses() {
        peAndChild(List.of(SEGMENT, MARKER_AT_500), 600, PE1);
        Map<String, String> otherPe = new HashMap<>(PE1);
        otherPe.put("JSHMEM_PE", "0");
        assertDoesNotThrow(() -> IdentityGuard.check(otherPe, proc.fs, 400, Scheme.ACTIVE));
        Map<String, String> otherJob = new HashMap<>(PE1);
        otherJob.put("JSHMEM_JOBID", "nested1");
        assertDoesNotThrow(() -> IdentityGuard.check(otherJob, proc.fs, 400, Scheme.ACTIVE), "a nested job's PE");
    }

    @Test
    void unreadableAncestorsAreSkipped() {
        // sudo-like process (350) between the PE and this process: its environ cannot be read.
        proc.process(300, 200, "java", 30, PE1, "java Main", List.of(SEGMENT, MARKER_AT_500))
                .process(350, 300, "sudo", 600, null, "sudo -u x java", List.of())
                .process(400, 350, "java", 700, PE1, "java Child", List.of());
        SubprocessRefusedException e = refused(PE1, 400);
        assertEquals(300, e.ownerPid());
        assertEquals(2, e.clause());
    }

    @Test
    void missingSelfOrCyclesDoNotHang() {
        assertDoesNotThrow(() -> IdentityGuard.check(PE1, proc.fs, 999, Scheme.ACTIVE), "no /proc entry: nothing to judge");
        proc.process(700, 701, "a", 1, Map.of(), "a", List.of()).process(701, 700, "b", 1, Map.of(), "b", List.of());
        assertDoesNotThrow(() -> IdentityGuard.check(PE1, proc.fs, 700, Scheme.ACTIVE));
    }

    @Test
    void slurmIdentityNeedsAClaim() {
        Map<String, String> task = Map.of("SLURM_JOB_ID", "4242", "SLURM_STEP_ID", "0", "SLURM_PROCID", "3");
        // srun started a shell script (300) that carries the identity but never initialized: no refusal.
        proc.process(300, 200, "bash", 30, task, "bash job.sh", List.of())
                .process(400, 300, "java", 40, task, "java Main", List.of());
        assertDoesNotThrow(() -> IdentityGuard.check(task, proc.fs, 400, Scheme.ACTIVE));
        // The same, with 300 having claimed the identity at init: refused.
        proc.process(300, 200, "java", 30, task, "java Main", List.of("/dev/shm/jshmem-slurm4242.0-3-owner-35 (deleted)"));
        SubprocessRefusedException e = refused(task, 400);
        assertEquals(2, e.clause());
        assertTrue(e.getMessage().contains("PE 3 of Slurm step 4242.0"), e.getMessage());
        assertTrue(e.getMessage().contains("which initialized it and has since finalized"), e.getMessage());
    }

    @Test
    void pmixIdentity() {
        Map<String, String> rank = Map.of("PMIX_NAMESPACE", "slurm.pmix.77.0", "PMIX_RANK", "2", "SLURM_JOB_ID", "77",
                "SLURM_STEP_ID", "0", "SLURM_PROCID", "2");
        String marker = "/dev/shm/jshmem-pmixslurm.pmix.77.0-2-owner-35 (deleted)";
        proc.process(300, 200, "java", 30, rank, "java Main", List.of(marker))
                .process(400, 300, "java", 20, rank, "java Child", List.of());
        SubprocessRefusedException e = refused(rank, 400);
        assertEquals(1, e.clause(), "created (20) before the PE initialized (35)");
        assertTrue(e.getMessage().contains("PE 2 of PMIx namespace slurm.pmix.77.0"), e.getMessage());
        // A Slurm claim does not count for a process judged by its PMIx identity.
        proc.process(300, 200, "java", 30, rank, "java Main", List.of("/dev/shm/jshmem-slurm77.0-2-owner-35 (deleted)"));
        assertDoesNotThrow(() -> IdentityGuard.check(rank, proc.fs, 400, Scheme.ACTIVE));
    }

    @Test
    void oshrunInsideASlurmStepIsJudgedAsTheOshrunPe() {
        // The srun task (300) initialized jshmem as Slurm task 0 and ran oshrun (350), whose PE (400) inherited
        // the Slurm variables: it is a PE of its own job, not a child of task 0.
        Map<String, String> task = Map.of("SLURM_JOB_ID", "9", "SLURM_STEP_ID", "1", "SLURM_PROCID", "0");
        Map<String, String> pe = new HashMap<>(task);
        pe.putAll(Map.of("JSHMEM_JOBID", "inner", "JSHMEM_PE", "0"));
        proc.process(300, 200, "java", 30, task, "java Outer", List.of("/dev/shm/jshmem-slurm9.1-0-owner-35 (deleted)"))
                .process(350, 300, "java", 40, task, "java Launcher", List.of())
                .process(400, 350, "java", 50, pe, "java Inner", List.of());
        assertDoesNotThrow(() -> IdentityGuard.check(pe, proc.fs, 400, Scheme.ACTIVE));
    }

    @Test
    void spawnedChildren() {
        peAndChild(List.of(SEGMENT, MARKER_AT_500), 600, Map.of());
        for (Phase phase : Phase.values()) {
            Map<String, String> env = Map.of(SpawnMarker.VARIABLE, new SpawnMarker(300, JOB, 1, phase).encode());
            SubprocessRefusedException e = refused(env, 400);
            assertEquals(phase == Phase.BEFORE_INIT ? 1 : 2, e.clause(), phase.toString());
            assertEquals(300, e.ownerPid());
            String m = e.getMessage();
            assertTrue(m.startsWith("jshmem: process 400 may not initialize jshmem: OpenSHMEM subprocess clause " + e.clause()), m);
            assertTrue(m.contains("spawned by PE 1 of job " + JOB + " (process 300, java -cp app.jar Main)"), m);
            assertTrue(m.contains(switch (phase) {
                case BEFORE_INIT -> "before it initialized jshmem";
                case INITIALIZED -> "within the OpenSHMEM portion";
                case FINALIZED -> "after it finalized jshmem";
            }), m);
        }
        Map<String, String> gone = Map.of(SpawnMarker.VARIABLE, new SpawnMarker(31337, JOB, 1, Phase.INITIALIZED).encode());
        assertTrue(refused(gone, 400).getMessage().contains("(process 31337, no longer running)"));
        assertDoesNotThrow(() -> IdentityGuard.check(Map.of(SpawnMarker.VARIABLE, "garbage"), proc.fs, 400, Scheme.ACTIVE));
    }

    @Test
    void identityWinsOverAnInheritedSpawnMarker() {
        // A PE of a nested job (started by an oshrun that a spawned child ran) carries both: it may initialize.
        peAndChild(List.of(SEGMENT, MARKER_AT_500), 600, Map.of());
        Map<String, String> nested = new HashMap<>(Map.of("JSHMEM_JOBID", "inner", "JSHMEM_PE", "0"));
        nested.put(SpawnMarker.VARIABLE, new SpawnMarker(300, JOB, 1, Phase.INITIALIZED).encode());
        proc.process(500, 400, "java", 700, nested, "java Inner", List.of());
        assertDoesNotThrow(() -> IdentityGuard.check(nested, proc.fs, 500, Scheme.ACTIVE));
    }
}
