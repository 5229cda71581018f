/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.LaunchEnv;
import java.util.List;
import java.util.Map;

/**
 * What a subprocess of a PE must not inherit: the variables that make a process a PE (its identity
 * and the job's bootstrap secret) for jshmem's launcher and for Slurm, PMI-2, PMIx and Open MPI's
 * mpirun. Job-level variables (SLURM_JOB_ID, the allocation) stay: a child may start job steps. Used by
 * {@code io.jshmem.spawn.Spawn}.
 */
public final class ChildEnvironment {
    /** Removed by name: every variable oshrun sets per PE, and the task-level Slurm/PMI/PMIx/Open MPI identity. */
    public static final List<String> IDENTITY_VARIABLES;
    /** Removed by prefix (PMIx server addresses and credentials). */
    public static final List<String> IDENTITY_PREFIXES = List.of("PMIX_SERVER_URI", "PMIX_SECURITY_");

    static {
        List<String> names = new java.util.ArrayList<>(LaunchEnv.JOB_VARIABLES);
        names.addAll(List.of("SLURM_PROCID", "SLURM_LOCALID", "SLURM_STEP_ID", "SLURM_STEPID", "SLURM_TASK_PID",
                "SLURM_GTIDS", "PMI_RANK", "PMI_SIZE", "PMI_FD", "PMI_PORT", "PMI_ID", "PMI_JOBID", "PMIX_RANK",
                "PMIX_NAMESPACE", "PMIX_ID", "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_RANK",
                "OMPI_COMM_WORLD_LOCAL_SIZE", "OMPI_COMM_WORLD_NODE_RANK"));
        IDENTITY_VARIABLES = List.copyOf(names);
    }

    private ChildEnvironment() {
    }

    /** Whether {@code name} is part of a PE identity (or a secret) that a subprocess must not inherit. */
    public static boolean isIdentity(String name) {
        if (IDENTITY_VARIABLES.contains(name)) {
            return true;
        }
        for (String p : IDENTITY_PREFIXES) {
            if (name.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** Removes every identity variable from {@code env} (modified in place); returns it. */
    public static Map<String, String> strip(Map<String, String> env) {
        env.keySet().removeIf(ChildEnvironment::isIdentity);
        return env;
    }
}
