/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import java.util.Map;

/**
 * Picks the bootstrap from how this process was started:
 * <ol>
 * <li>by {@code bin/oshrun} (JSHMEM_BOOTSTRAP is set): the jshmem launcher's TCP bootstrap;
 * <li>by a launcher serving PMIx (srun --mpi=pmix, Open MPI's mpirun; PMIX_NAMESPACE is set): PMIx;
 * <li>by a launcher serving PMI-2 (srun --mpi=pmi2; PMI_FD is set): PMI-2;
 * <li>by srun without a PMI plugin, in a step of several tasks: an error naming the fix;
 * <li>otherwise: a job of one PE.
 * </ol>
 * See {@link PmiEnvironment} ({@value PmiEnvironment#FORCE} overrides 2-5).
 */
public final class Bootstraps {
    private Bootstraps() {
    }

    /**
     * The bootstrap for this process's next initialization of jshmem.
     *
     * @param previous the bootstrap of the initialization finalized last in this process, or null
     *        for the first: a re-initialization uses the next generation of the same launcher
     *        (a new session with oshrun; the same PMI session, with keys of its own)
     * @throws io.jshmem.ShmemException if the launcher's interface cannot be used (missing library,
     *         srun without PMI), with the fix in the message
     */
    public static Bootstrap select(Map<String, String> env, Bootstrap previous) {
        if (previous instanceof PmiBootstrap pmi) {
            return pmi.reopen(io.jshmem.core.base.Config.Network.fromEnvironment(env).pmiReinitTimeoutNanos());
        }
        int generation = previous == null ? 0 : previous.generation() + 1;
        Bootstrap b = TcpBootstrap.fromEnvironment(env, generation);
        if (b != null) {
            return b;
        }
        if (previous instanceof SingletonBootstrap) {
            return new SingletonBootstrap(generation);
        }
        PmiEnvironment.Detected d = PmiEnvironment.detect(env);
        return switch (d.kind()) {
            case PMIX -> PmixBootstrap.create(env, d.launcher());
            case PMI2 -> Pmi2Bootstrap.create(env, d.launcher());
            case NONE -> new SingletonBootstrap(generation);
        };
    }
}
