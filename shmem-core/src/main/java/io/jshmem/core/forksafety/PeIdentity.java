/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.LaunchEnv;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A PE identity a process can carry in its environment: which job, which PE. A child that
 * inherits the environment inherits the identity, which is how the subprocess guard recognizes
 * "a child of a PE trying to be that PE".
 *
 * @param scheme how the identity was given
 * @param job    the job (for Slurm: {@code <job id>.<step id>})
 * @param pe     the PE number
 */
public record PeIdentity(Scheme scheme, String job, int pe) {

    /** Where an identity comes from, in the order jshmem's bootstraps are chosen (see {@code Bootstraps.select}). */
    public enum Scheme {
        /**
         * {@code bin/oshrun}: JSHMEM_JOBID and JSHMEM_PE. The process oshrun started (always a JVM)
         * owns the PE: a descendant carrying the same identity is a subprocess of it, whether or
         * not it has initialized yet.
         */
        JSHMEM(true),
        /**
         * A PMIx server (srun --mpi=pmix, Open MPI's mpirun): PMIX_NAMESPACE and PMIX_RANK. The
         * launcher may start a shell script, so an ancestor owns the PE only once it has initialized
         * jshmem (its owner marker shows it).
         */
        PMIX(false),
        /**
         * Slurm's srun (also with --mpi=pmi2): SLURM_JOB_ID, SLURM_STEP_ID (or SLURM_STEPID) and
         * SLURM_PROCID. As for PMIx, an ancestor owns the PE only once it has initialized jshmem.
         */
        SLURM(false);

        /** The schemes the guard knows, in bootstrap order: a process is judged by the first it carries. */
        public static final List<Scheme> ACTIVE = List.of(JSHMEM, PMIX, SLURM);

        private final boolean launcherStartsOwner;

        Scheme(boolean launcherStartsOwner) {
            this.launcherStartsOwner = launcherStartsOwner;
        }

        /** Whether the topmost process carrying the identity owns it even before it initializes. */
        public boolean launcherStartsOwner() {
            return launcherStartsOwner;
        }

        /** This scheme's identity in {@code env}, if complete and well formed. */
        public Optional<PeIdentity> read(Map<String, String> env) {
            return switch (this) {
                case JSHMEM -> of(this, env.get(LaunchEnv.JOBID), env.get(LaunchEnv.PE));
                case PMIX -> of(this, env.get("PMIX_NAMESPACE"), env.get("PMIX_RANK"));
                case SLURM -> {
                    String job = env.get("SLURM_JOB_ID");
                    String step = env.getOrDefault("SLURM_STEP_ID", env.get("SLURM_STEPID"));
                    yield job == null || step == null ? Optional.empty() : of(this, job + "." + step, env.get("SLURM_PROCID"));
                }
            };
        }
    }

    private static Optional<PeIdentity> of(Scheme scheme, String job, String pe) {
        if (job == null || job.isBlank() || pe == null) {
            return Optional.empty();
        }
        try {
            int n = Integer.parseInt(pe.trim());
            return n < 0 ? Optional.empty() : Optional.of(new PeIdentity(scheme, job.trim(), n));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The identity this process would initialize as: the first {@code env} carries among
     * {@code schemes} (in bootstrap order, so a PE of a job that oshrun started inside an srun
     * step is judged as the oshrun PE, not as the srun task).
     */
    public static Optional<PeIdentity> find(Map<String, String> env, List<Scheme> schemes) {
        for (Scheme s : schemes) {
            Optional<PeIdentity> id = s.read(env);
            if (id.isPresent()) {
                return id;
            }
        }
        return Optional.empty();
    }

    /** Whether {@code env} (another process's) carries this same identity. */
    public boolean carriedBy(Map<String, String> env) {
        Optional<PeIdentity> other = scheme.read(env);
        return other.isPresent() && other.get().equals(this);
    }

    /** Name of this PE's symmetric-heap segment file ({@code jshmem-<job>-<pe>}): mapped while the PE is initialized. */
    public String segmentName() {
        // No string concatenation operator on this path (it runs at every init; each new shape spins a class).
        return new StringBuilder("jshmem-").append(fileSafeJob()).append('-').append(pe).toString();
    }

    /** Prefix of the owner marker's file name; the launcher's sweep of {@code jshmem-<job>-*} covers it. */
    public String markerPrefix() {
        return segmentName().concat("-owner-");
    }

    private String fileSafeJob() {
        StringBuilder j = new StringBuilder(switch (scheme) {
            case JSHMEM -> "";
            case PMIX -> "pmix";
            case SLURM -> "slurm";
        });
        for (int i = 0; i < job.length(); i++) {
            char c = job.charAt(i);
            j.append(c < 128 && (Character.isLetterOrDigit(c) || c == '.') ? c : '_');
        }
        return j.toString();
    }

    @Override
    public String toString() {
        return "PE " + pe + " of " + switch (scheme) {
            case JSHMEM -> "job ";
            case PMIX -> "PMIx namespace ";
            case SLURM -> "Slurm step ";
        } + job;
    }
}
