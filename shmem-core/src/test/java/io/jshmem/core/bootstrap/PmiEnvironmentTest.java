/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import io.jshmem.core.bootstrap.PmiEnvironment.Kind;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which interface each launcher's environment selects (environments as srun 22.05 and Open MPI 4.1 set them). */
class PmiEnvironmentTest {
    private static Map<String, String> srunTask(String procid, String ntasks) {
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_JOB_ID", "12");
        env.put("SLURM_STEP_ID", "0");
        env.put("SLURM_STEPID", "0");
        env.put("SLURM_PROCID", procid);
        env.put("SLURM_LOCALID", procid);
        env.put("SLURM_NODEID", "0");
        env.put("SLURM_NTASKS", ntasks);
        env.put("SLURM_STEP_NUM_TASKS", ntasks);
        return env;
    }

    @Test
    void srunPmi2() {
        Map<String, String> env = srunTask("1", "4");
        env.put("PMI_FD", "11");
        env.put("PMI_RANK", "1");
        env.put("PMI_SIZE", "4");
        env.put("PMI_JOBID", "12.0");
        assertEquals(new PmiEnvironment.Detected(Kind.PMI2, "srun --mpi=pmi2"), PmiEnvironment.detect(env));
    }

    @Test
    void srunPmix() {
        Map<String, String> env = srunTask("1", "4");
        env.put("PMIX_NAMESPACE", "slurm.pmix.12.0");
        env.put("PMIX_RANK", "1");
        env.put("PMIX_SERVER_URI41", "pmix-server.1;tcp4://127.0.0.1:1");
        assertEquals(new PmiEnvironment.Detected(Kind.PMIX, "srun --mpi=pmix"), PmiEnvironment.detect(env));
    }

    @Test
    void openMpiMpirun() {
        Map<String, String> env = new HashMap<>();
        env.put("OMPI_COMM_WORLD_RANK", "0");
        env.put("OMPI_COMM_WORLD_SIZE", "2");
        env.put("PMIX_NAMESPACE", "572850177");
        env.put("PMIX_RANK", "0");
        assertEquals(new PmiEnvironment.Detected(Kind.PMIX, "Open MPI mpirun"), PmiEnvironment.detect(env));
    }

    @Test
    void srunWithoutPmiOfSeveralTasksIsAClearError() {
        String m = assertThrows(ShmemException.class, () -> PmiEnvironment.detect(srunTask("2", "4"))).getMessage();
        assertTrue(m.startsWith("launched by srun without a PMI plugin: use srun --mpi=pmi2 (or --mpi=pmix)"), m);
        assertTrue(m.contains("task 2 of 4 in step 12.0"), m);
    }

    @Test
    void srunWithoutPmiOfOneTaskIsASingleton() {
        assertEquals(Kind.NONE, PmiEnvironment.detect(srunTask("0", "1")).kind());
    }

    @Test
    void batchScriptIsNotAStep() {
        Map<String, String> env = srunTask("0", "4");
        env.remove("SLURM_STEP_ID");
        env.remove("SLURM_STEPID");
        env.remove("SLURM_STEP_NUM_TASKS");
        assertEquals(Kind.NONE, PmiEnvironment.detect(env).kind());
    }

    @Test
    void mpirunWithoutPmixIsAnError() {
        String m = assertThrows(ShmemException.class,
                () -> PmiEnvironment.detect(Map.of("OMPI_COMM_WORLD_RANK", "0"))).getMessage();
        assertTrue(m.contains("Open MPI 4 or newer"), m);
    }

    @Test
    void plainProcessIsASingleton() {
        assertEquals(Kind.NONE, PmiEnvironment.detect(Map.of()).kind());
    }

    @Test
    void forcing() {
        Map<String, String> env = srunTask("1", "4");
        env.put("PMI_FD", "11");
        env.put("PMI_RANK", "1");
        env.put(PmiEnvironment.FORCE, "none");
        assertEquals(Kind.NONE, PmiEnvironment.detect(env).kind());
        env.put(PmiEnvironment.FORCE, "pmix");
        assertTrue(assertThrows(ShmemException.class, () -> PmiEnvironment.detect(env)).getMessage()
                .contains("no PMIx server"));
        env.put(PmiEnvironment.FORCE, "bogus");
        assertTrue(assertThrows(ShmemException.class, () -> PmiEnvironment.detect(env)).getMessage()
                .contains("use auto, pmix, pmi2 or none"));
        env.put(PmiEnvironment.FORCE, "PMI2");
        assertEquals(Kind.PMI2, PmiEnvironment.detect(env).kind());
    }
}
