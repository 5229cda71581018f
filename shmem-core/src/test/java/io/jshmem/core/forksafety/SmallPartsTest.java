/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.ProcFs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.core.base.LaunchEnv;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link SpawnMarker}, {@link ChildEnvironment}, {@link PeIdentity}, {@link ProcFs}. */
class SmallPartsTest {
    @TempDir
    Path dir;

    @Test
    void selfPidIsThisProcesssId() {
        assertEquals(ProcessHandle.current().pid(), ProcFs.selfPid());
    }

    @Test
    void spawnMarkerRoundTrip() {
        SpawnMarker m = new SpawnMarker(1234, "k3j2", 7, Phase.FINALIZED);
        assertEquals("pid=1234 job=k3j2 pe=7 phase=finalized", m.encode());
        assertEquals(Optional.of(m), SpawnMarker.read(Map.of(SpawnMarker.VARIABLE, m.encode())));
        assertEquals(Optional.empty(), SpawnMarker.read(Map.of()));
        assertEquals(Optional.empty(), SpawnMarker.read(Map.of(SpawnMarker.VARIABLE, "pid=x pe=1 phase=initialized")));
        assertEquals(Optional.empty(), SpawnMarker.read(Map.of(SpawnMarker.VARIABLE, "pid=1 pe=1 phase=lunch")));
    }

    @Test
    void spawnMarkerForChild() {
        Map<String, String> pe = Map.of(LaunchEnv.JOBID, "abc", LaunchEnv.PE, "2");
        assertEquals(Optional.of(new SpawnMarker(9, "abc", 2, Phase.BEFORE_INIT)), SpawnMarker.forChild(pe, 9, Phase.BEFORE_INIT));
        assertEquals(Optional.of(new SpawnMarker(9, "abc", 2, Phase.INITIALIZED)), SpawnMarker.forChild(pe, 9, Phase.INITIALIZED));
        // A process that is no PE and never initialized marks nothing...
        assertEquals(Optional.empty(), SpawnMarker.forChild(Map.of(), 9, Phase.BEFORE_INIT));
        // ...but passes on a marker it inherited,
        SpawnMarker inherited = new SpawnMarker(5, "abc", 0, Phase.INITIALIZED);
        assertEquals(Optional.of(inherited), SpawnMarker.forChild(Map.of(SpawnMarker.VARIABLE, inherited.encode()), 9, Phase.BEFORE_INIT));
        // and a job of one PE (no launcher) that initialized marks as PE 0 of "singleton".
        assertEquals(Optional.of(new SpawnMarker(9, "singleton", 0, Phase.FINALIZED)), SpawnMarker.forChild(Map.of(), 9, Phase.FINALIZED));
    }

    @Test
    void childEnvironmentDropsIdentityAndSecretOnly() {
        Map<String, String> env = new HashMap<>();
        for (String v : LaunchEnv.JOB_VARIABLES) {
            env.put(v, "x");
        }
        env.putAll(Map.of("SLURM_PROCID", "1", "SLURM_STEP_ID", "0", "PMI_RANK", "1", "PMIX_RANK", "1",
                "PMIX_SERVER_URI41", "pmix-server:1", "PMIX_SECURITY_MODE", "native", "PMIX_NAMESPACE", "ns",
                "OMPI_COMM_WORLD_RANK", "1", "PMI_FD", "5"));
        Map<String, String> kept = Map.of("PATH", "/bin", "HOME", "/root", "SHMEM_SYMMETRIC_SIZE", "1g", "JSHMEM_SHM_DIR", "/dev/shm",
                "JSHMEM_JAVA_OPTS", "-Xmx1g", "SLURM_JOB_ID", "42", "SLURM_NODEID", "0");
        env.putAll(kept);
        assertEquals(kept, ChildEnvironment.strip(env));
        assertTrue(ChildEnvironment.isIdentity("JSHMEM_SECRET"));
        assertTrue(ChildEnvironment.isIdentity("JSHMEM_SECRET_FILE"));
        assertTrue(ChildEnvironment.isIdentity("JSHMEM_BOOTSTRAP"));
        assertFalse(ChildEnvironment.isIdentity(SpawnMarker.VARIABLE));
    }

    @Test
    void identities() {
        assertEquals(Optional.of(new PeIdentity(PeIdentity.Scheme.JSHMEM, "abc", 3)),
                PeIdentity.Scheme.JSHMEM.read(Map.of(LaunchEnv.JOBID, "abc", LaunchEnv.PE, "3")));
        assertEquals(Optional.empty(), PeIdentity.Scheme.JSHMEM.read(Map.of(LaunchEnv.JOBID, "abc")));
        assertEquals(Optional.empty(), PeIdentity.Scheme.JSHMEM.read(Map.of(LaunchEnv.JOBID, "abc", LaunchEnv.PE, "-1")));
        assertEquals(Optional.empty(), PeIdentity.Scheme.JSHMEM.read(Map.of(LaunchEnv.JOBID, "", LaunchEnv.PE, "1")));
        assertEquals(Optional.of(new PeIdentity(PeIdentity.Scheme.SLURM, "7.2", 1)),
                PeIdentity.Scheme.SLURM.read(Map.of("SLURM_JOB_ID", "7", "SLURM_STEPID", "2", "SLURM_PROCID", "1")));
        assertEquals(Optional.empty(), PeIdentity.Scheme.SLURM.read(Map.of("SLURM_JOB_ID", "7", "SLURM_PROCID", "1")),
                "a batch script has no step");
        assertEquals(Optional.of(new PeIdentity(PeIdentity.Scheme.PMIX, "slurm.pmix.7.2", 4)),
                PeIdentity.Scheme.PMIX.read(Map.of("PMIX_NAMESPACE", "slurm.pmix.7.2", "PMIX_RANK", "4")));
        assertEquals("PE 4 of PMIx namespace ns", new PeIdentity(PeIdentity.Scheme.PMIX, "ns", 4).toString());
        assertEquals("jshmem-pmixprterun_h_12_1-4-owner-", new PeIdentity(PeIdentity.Scheme.PMIX, "prterun-h-12@1", 4).markerPrefix());
        // Bootstrap order: oshrun's identity first, then PMIx, then Slurm.
        Map<String, String> all = Map.of(LaunchEnv.JOBID, "abc", LaunchEnv.PE, "0", "PMIX_NAMESPACE", "ns", "PMIX_RANK", "1",
                "SLURM_JOB_ID", "7", "SLURM_STEP_ID", "0", "SLURM_PROCID", "1");
        assertEquals(PeIdentity.Scheme.JSHMEM, PeIdentity.find(all, PeIdentity.Scheme.ACTIVE).orElseThrow().scheme());
        Map<String, String> noOshrun = new HashMap<>(all);
        noOshrun.remove(LaunchEnv.JOBID);
        assertEquals(PeIdentity.Scheme.PMIX, PeIdentity.find(noOshrun, PeIdentity.Scheme.ACTIVE).orElseThrow().scheme());
        noOshrun.remove("PMIX_RANK");
        assertEquals(PeIdentity.Scheme.SLURM, PeIdentity.find(noOshrun, PeIdentity.Scheme.ACTIVE).orElseThrow().scheme());
        assertEquals(List.of(PeIdentity.Scheme.JSHMEM, PeIdentity.Scheme.PMIX, PeIdentity.Scheme.SLURM), PeIdentity.Scheme.ACTIVE);
    }

    @Test
    void procStat() {
        Optional<ProcFs.Stat> s = ProcFs.parseStat(42, "42 (my (odd) name) S 7 42 42 0 -1 4194560 1 2 3 4 5 6 7 8 20 0 1 0 98765 1000 100");
        assertTrue(s.isPresent());
        assertEquals("my (odd) name", s.get().comm());
        assertEquals('S', s.get().state());
        assertEquals(7, s.get().ppid());
        assertEquals(98765, s.get().startTicks());
        assertEquals(Optional.empty(), ProcFs.parseStat(1, "garbage"));
        assertEquals(Optional.empty(), ProcFs.parseStat(1, "1 (x) S 0 1"));
        // The real /proc agrees with ProcessHandle.
        long me = ProcessHandle.current().pid();
        ProcFs.Stat real = ProcFs.SYSTEM.stat(me).orElseThrow();
        assertEquals(ProcessHandle.current().parent().orElseThrow().pid(), real.ppid());
        assertTrue(real.startTicks() > 0 && real.startTicks() <= ProcFs.SYSTEM.uptimeTicks());
        assertEquals(System.getenv("PATH"), ProcFs.SYSTEM.environ(me).orElseThrow().get("PATH"));
    }

    @Test
    void procFiles() {
        FakeProc p = new FakeProc(dir).uptime("3600.07 100.00\n")
                .process(5, 1, "x", 9, Map.of("A", "1=2", "B", ""), "prog arg1 arg2", List.of("/dev/shm/f (deleted)"));
        assertEquals(360007, p.fs.uptimeTicks());
        assertEquals(1200, ProcFs.parseUptime("12\n"));
        assertEquals(1250, ProcFs.parseUptime("12.5 3.0"));
        assertEquals(-1, ProcFs.parseUptime("x.y"));
        assertEquals(Map.of("A", "1=2", "B", ""), p.fs.environ(5).orElseThrow());
        assertEquals(Optional.of("prog arg1 arg2"), p.fs.cmdline(5));
        assertEquals(List.of("/usr/bin/thing", "[stack]", "/dev/shm/f (deleted)"), p.fs.mappedPaths(5).orElseThrow());
        assertEquals(Optional.empty(), p.fs.environ(6));
        assertEquals(-1, new ProcFs(dir.resolve("none")).uptimeTicks());
        assertEquals(Map.of("K", "v"), ProcFs.parseEnviron("K=v\0junk\0K=w\0".getBytes(StandardCharsets.UTF_8)));
    }
}
