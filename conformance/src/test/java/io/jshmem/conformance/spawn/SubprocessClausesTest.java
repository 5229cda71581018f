/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance.spawn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The proposed OpenSHMEM subprocess clauses in real jobs: children of a PE started by plain
 * ProcessBuilder (inherited environment) and by Spawn, before init, within the OpenSHMEM portion
 * and after finalize, are refused with the right clause while the job goes on (clauses 1, 2);
 * a JVM told to fork while fork is not safe is warned or refused (clause 3, JSHMEM_FORK_POLICY).
 */
class SubprocessClausesTest {
    @TempDir
    Path dir;

    @Test
    void clauses1And2() throws Exception {
        Jobs.Result r = Jobs.oshrun(2, List.of(), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "clauses");
        r.assertChecks(Set.of(
                "pb-before-init PE 0", "spawn-before-init PE 0", "spawn-works-before-init PE 0", "pb-child-ready PE 0",
                "pb-created-before-init-tried-after PE 0", "pb-within PE 0", "spawn-within PE 0", "spawn-env-stripped PE 0",
                "spawn-works-within PE 0", "job-undisturbed PE 0", "job-undisturbed PE 1", "spawn-works-after-finalize PE 0",
                "spawn-after-finalize PE 0", "pb-after-finalize PE 0"));
        assertFalse(r.out().contains("CHILD INITIALIZED"), r.context());
        // Every refusal names its clause and tells what to do.
        for (String line : r.out().lines().filter(l -> l.startsWith("MESSAGE ")).toList()) {
            assertTrue(line.contains("OpenSHMEM subprocess clause "), line);
            assertTrue(line.contains("Nothing was sent to"), line);
        }
        assertEquals(7, r.out().lines().filter(l -> l.startsWith("MESSAGE ")).count(), r.context());
        assertFalse(r.err().contains("oshrun:"), "the launcher saw nothing wrong" + r.context());
    }

    /** --no-aggregate: these tests count each PE's own warning or refusal, which oshrun would print once. */
    private List<String> unsafeSimulation() throws Exception {
        Path ib = Files.createDirectories(dir.resolve("fake-sys-class-infiniband").resolve("mlx5_0")).getParent();
        return List.of("--no-aggregate", "--jvm-opt", "-Djdk.lang.Process.launchMechanism=FORK",
                "--jvm-opt", "-Djshmem.forksafety.simulate=kernel=5.4.0,infiniband=" + ib + ",ibverbs=disabled,transport=ucx",
                "-x", "UCX_IB_FORK_INIT=no");
    }

    private static List<String> plus(List<String> a, String... b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(List.of(b));
        return all;
    }

    @Test
    void clause3RefuseWhenForkingAndUnsafe() throws Exception {
        Jobs.Result r = Jobs.oshrun(2, plus(unsafeSimulation(), "-x", "JSHMEM_FORK_POLICY=refuse"),
                Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "hello");
        assertNotEquals(0, r.status(), r.context());
        assertFalse(r.out().contains("INITIALIZED"), r.context());
        assertTrue(r.err().contains("SubprocessRefusedException: jshmem: PE "), r.context());
        assertTrue(r.err().contains(": refusing to initialize (JSHMEM_FORK_POLICY=refuse): jdk.lang.Process.launchMechanism=FORK"), r.context());
        assertTrue(r.err().contains("OpenSHMEM subprocess clause 3"), r.context());
        assertTrue(r.err().contains("kernel: Linux 5.4 (before 5.13)"), r.context());
    }

    @Test
    void clause3WarnIsTheDefault() throws Exception {
        Jobs.Result r = Jobs.oshrun(2, unsafeSimulation(), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "hello");
        assertEquals(0, r.status(), r.context());
        assertTrue(r.out().contains("INITIALIZED 0") && r.out().contains("INITIALIZED 1"), r.context());
        assertEquals(2, Jobs.count(r.err(), ": warning: jdk.lang.Process.launchMechanism=FORK makes every ProcessBuilder fork"), r.context());
        assertEquals(2, Jobs.count(r.err(), "OpenSHMEM subprocess clause 3"), r.context());
    }

    @Test
    void clause3AllowAndSafeForkAreQuiet() throws Exception {
        Jobs.Result allow = Jobs.oshrun(2, plus(unsafeSimulation(), "-x", "JSHMEM_FORK_POLICY=allow"),
                Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "hello");
        assertEquals(0, allow.status(), allow.context());
        assertFalse(allow.err().contains("clause 3"), allow.context());
        // FORK on this machine, not simulated: fork is safe, so even refuse lets init go on.
        Jobs.Result safe = Jobs.oshrun(2, List.of("--jvm-opt", "-Djdk.lang.Process.launchMechanism=FORK",
                "-x", "JSHMEM_FORK_POLICY=refuse"), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "hello");
        assertEquals(0, safe.status(), safe.context());
        assertTrue(safe.out().contains("INITIALIZED 1"), safe.context());
        assertFalse(safe.err().contains("clause 3"), safe.context());
    }

    @Test
    void invalidPolicyIsAnError() throws Exception {
        Jobs.Result r = Jobs.oshrun(1, List.of("-x", "JSHMEM_FORK_POLICY=sometimes"), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "hello");
        assertNotEquals(0, r.status(), r.context());
        assertTrue(r.err().contains("JSHMEM_FORK_POLICY=sometimes is not valid: use warn, refuse or allow"), r.context());
    }
}
