/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spi;

import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Service interface through which {@code io.jshmem.spawn.Spawn} asks the runtime (shmem-core) what a
 * subprocess of this process must not inherit and how to mark it, so that the proposed OpenSHMEM
 * subprocess clauses hold without the spawn module depending on the runtime's classes. Found with
 * {@link java.util.ServiceLoader}; not for applications.
 */
public interface SubprocessSupport {

    /**
     * The variable that marks a child spawned by a PE ({@code JSHMEM_SPAWNED_BY}): init refuses in
     * a process that has it, naming the spawning PE and the clause.
     */
    String MARKER_VARIABLE = "JSHMEM_SPAWNED_BY";

    /**
     * Removes from {@code environment}, in place, every variable that makes a process a PE or
     * carries the job's bootstrap secret (jshmem's launcher, Slurm, PMI-2, PMIx, Open MPI), and
     * {@link #MARKER_VARIABLE}.
     *
     * @param environment a copy of this process's environment, modifiable
     * @return {@code environment}
     */
    Map<String, String> stripIdentity(Map<String, String> environment);

    /**
     * The value of {@link #MARKER_VARIABLE} for a child spawned now: this process, its job, its PE and
     * where it is in the jshmem life cycle (which decides the clause).
     *
     * @return the marker, or empty when this process is no PE and has not initialized jshmem (then
     *         there is nothing to protect); a marker this process inherited is passed on
     */
    Optional<String> childMarker();

    /**
     * This process's PE number, for messages.
     *
     * @return the PE number when this process was launched as a PE or has initialized jshmem, else empty
     */
    OptionalInt pe();
}
