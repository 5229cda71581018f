/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance.spawn;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Spawning while the heap is written: PE 1 streams puts and atomic increments into PE 0's heap while
 * PE 0 spawns 200 short subprocesses; afterwards every word is present, every count exact, no
 * zombie left. Also: a nonexistent command, destroy, reaping of unwaited children.
 */
class SpawnUnderLoadTest {
    private static final Set<String> LOAD_CHECKS = Set.of("load-spawns PE 0", "load-overlap PE 0", "load-words PE 0",
            "load-counts PE 0", "load-log PE 0", "load-no-zombies PE 0");

    /** Half the spawns through ProcessBuilder (posix_spawn of jspawnhelper), half through posix_spawnp (FFM). */
    @Test
    void spawnUnderLoad() throws Exception {
        Jobs.oshrun(2, List.of(), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "load").assertChecks(LOAD_CHECKS);
    }

    /** Every spawn a real fork of the JVM (launch mechanism FORK, Spawn forced to ProcessBuilder): safe here, so allowed. */
    @Test
    void forkUnderLoad() throws Exception {
        Jobs.oshrun(2, List.of("--jvm-opt", "-Djdk.lang.Process.launchMechanism=FORK"), Jobs.spawnJobClasses(),
                Jobs.SPAWN_JOBS, "load", "pb").assertChecks(LOAD_CHECKS);
    }

    /** The same with PE 1's puts and atomics going through UCX (SHMEM_TRANSPORT=ucx), when it is available. */
    @Test
    void spawnUnderLoadOnUcx() throws Exception {
        Jobs.assumeUcx("SpawnUnderLoadTest.spawnUnderLoadOnUcx");
        Jobs.oshrun(2, List.of("-x", "SHMEM_TRANSPORT=ucx"), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "load").assertChecks(LOAD_CHECKS);
    }

    @Test
    void nonexistentCommandDestroyAndNoZombies() throws Exception {
        Set<String> checks = new java.util.HashSet<>();
        for (int pe = 0; pe < 2; pe++) {
            for (String m : List.of("PROCESS_BUILDER", "POSIX_SPAWN")) {
                checks.add("nonexistent-" + m + " PE " + pe);
                checks.add("destroy-" + m + " PE " + pe);
            }
            checks.add("misc-no-zombies PE " + pe);
        }
        Jobs.oshrun(2, List.of(), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "misc").assertChecks(checks);
    }
}
