/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import java.util.Map;

/**
 * Tells, from a process's environment, which process-management interface the launcher that
 * started it offers: PMIx (srun --mpi=pmix, Open MPI's mpirun), PMI-2 (srun --mpi=pmi2), or none.
 *
 * <ul>
 * <li>PMIx: {@code PMIX_NAMESPACE} and {@code PMIX_RANK} (set by every PMIx server for its clients);
 *     with {@code OMPI_COMM_WORLD_RANK} too it is Open MPI's mpirun, with {@code SLURM_STEP_ID} srun.
 * <li>PMI-2: {@code PMI_FD} (or {@code PMI_PORT}) and {@code PMI_RANK}: Slurm's pmi2 plugin, or any
 *     launcher speaking the PMI-2 wire protocol.
 * <li>An srun task ({@code SLURM_STEP_ID} and {@code SLURM_PROCID}) of a step of several tasks with
 *     neither: srun without a PMI plugin, an error (the PEs could not find each other).
 * <li>Open MPI's mpirun ({@code OMPI_COMM_WORLD_RANK}) without PMIx: an error too.
 * </ul>
 *
 * <p>{@value #FORCE} overrides the choice: {@code auto} (default), {@code pmix}, {@code pmi2}, or
 * {@code none} (ignore the launcher: a job of one PE).
 */
public final class PmiEnvironment {
    /** Environment variable choosing the interface: auto, pmix, pmi2, none. */
    public static final String FORCE = "JSHMEM_PMI"; // Setting.JSHMEM_PMI (a constant: messages use it)

    /** The interfaces. */
    public enum Kind {
        /** No launcher interface: a job of one PE. */
        NONE,
        PMI2,
        PMIX
    }

    /**
     * What the environment says.
     *
     * @param kind     the interface to use
     * @param launcher who started this process, for messages ("srun --mpi=pmi2", "Open MPI mpirun")
     */
    public record Detected(Kind kind, String launcher) {
    }

    private PmiEnvironment() {
    }

    /**
     * The interface the launcher offers.
     *
     * @throws ShmemException when a launcher of several PEs started this process without an
     *         interface jshmem can use, naming the fix
     */
    public static Detected detect(Map<String, String> env) {
        Config.Pmi force = Config.choice(Settings.of(env), Setting.JSHMEM_PMI, Config.Pmi.class);
        boolean slurmTask = has(env, "SLURM_PROCID") && (has(env, "SLURM_STEP_ID") || has(env, "SLURM_STEPID"));
        boolean ompi = has(env, "OMPI_COMM_WORLD_RANK");
        boolean pmix = has(env, "PMIX_NAMESPACE") && has(env, "PMIX_RANK");
        boolean pmi2 = (has(env, "PMI_FD") || has(env, "PMI_PORT")) && has(env, "PMI_RANK");
        switch (force) {
            case AUTO -> {
                // below
            }
            case NONE -> {
                return new Detected(Kind.NONE, "no launcher (" + FORCE + "=none)");
            }
            case PMIX -> {
                if (!pmix) {
                    throw new ShmemException(FORCE + "=pmix, but this process's environment has no PMIx server"
                            + " (PMIX_NAMESPACE, PMIX_RANK): start it with srun --mpi=pmix or Open MPI's mpirun");
                }
                return new Detected(Kind.PMIX, launcherName(Kind.PMIX, slurmTask, ompi, env));
            }
            case PMI2 -> {
                if (!pmi2) {
                    throw new ShmemException(FORCE + "=pmi2, but this process's environment has no PMI-2 server"
                            + " (PMI_FD or PMI_PORT, PMI_RANK): start it with srun --mpi=pmi2");
                }
                return new Detected(Kind.PMI2, launcherName(Kind.PMI2, slurmTask, ompi, env));
            }
        }
        if (pmix) {
            return new Detected(Kind.PMIX, launcherName(Kind.PMIX, slurmTask, ompi, env));
        }
        if (pmi2) {
            return new Detected(Kind.PMI2, launcherName(Kind.PMI2, slurmTask, ompi, env));
        }
        if (slurmTask) {
            int tasks = tasks(env);
            if (tasks == 1) {
                return new Detected(Kind.NONE, "srun without a PMI plugin, one task");
            }
            throw new ShmemException(srunWithoutPmi(env, tasks));
        }
        if (ompi) {
            throw new ShmemException("launched by Open MPI's mpirun (OMPI_COMM_WORLD_RANK="
                    + env.get("OMPI_COMM_WORLD_RANK") + ") but its environment has no PMIx server (PMIX_NAMESPACE,"
                    + " PMIX_RANK): jshmem needs Open MPI 4 or newer, whose mpirun serves PMIx");
        }
        return new Detected(Kind.NONE, "no launcher");
    }

    /** The message for an srun step without PMI (public for the tests). */
    static String srunWithoutPmi(Map<String, String> env, int tasks) {
        return "launched by srun without a PMI plugin: use srun --mpi=pmi2 (or --mpi=pmix), or set"
                + " MpiDefault=pmi2 in slurm.conf (task " + env.get("SLURM_PROCID") + " of "
                + (tasks > 0 ? Integer.toString(tasks) : "?") + " in step " + env.get("SLURM_JOB_ID") + "."
                + env.getOrDefault("SLURM_STEP_ID", env.get("SLURM_STEPID"))
                + " has neither PMI_FD nor PMIX_NAMESPACE in its environment, so the PEs cannot find each other)";
    }

    private static String launcherName(Kind kind, boolean slurmTask, boolean ompi, Map<String, String> env) {
        if (ompi) {
            return "Open MPI mpirun";
        }
        if (slurmTask || has(env, "SLURM_JOB_ID")) {
            return kind == Kind.PMIX ? "srun --mpi=pmix" : "srun --mpi=pmi2";
        }
        return kind == Kind.PMIX ? "a PMIx launcher" : "a PMI-2 launcher";
    }

    /** Number of tasks of the srun step, or -1 if the environment does not say. */
    private static int tasks(Map<String, String> env) {
        for (String name : new String[] {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS", "SLURM_NPROCS"}) {
            String v = env.get(name);
            if (v != null) {
                try {
                    return Integer.parseInt(v.strip());
                } catch (NumberFormatException e) {
                    // try the next
                }
            }
        }
        return -1;
    }

    private static boolean has(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }
}
