/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * A communication context (shmem_ctx_t) created by {@link Shmem#ctxCreate(long)} or
 * {@link ShmemTeam#createCtx(long)}: an independent stream of RMA, AMO and signal operations whose
 * {@link #fence()} and {@link #quiet()} cover only its own operations. PE numbers passed to its
 * routines are relative to its team. Closing it is {@code shmem_ctx_destroy}; it is then unusable.
 */
public interface ShmemContext extends ShmemCtx, AutoCloseable {

    /**
     * SHMEM_CTX_INVALID: a handle referencing no context (what a failed shmem_ctx_create or
     * shmem_team_create_ctx gives in C; here {@link ShmemTeam#INVALID}{@code .createCtx} returns
     * it). As OpenSHMEM 1.6 defines: {@link #fence()}, {@link #quiet()}, {@link #close()},
     * {@link #sessionStart} and {@link #sessionStop()} do nothing, {@link #team()} returns
     * {@link ShmemTeam#INVALID}. RMA, AMO and synchronization on it are undefined in OpenSHMEM and
     * throw {@link ShmemException}. Compare with {@code ==}.
     */
    ShmemContext INVALID = InvalidHandles.newContext();

    /**
     * shmem_ctx_get_team: the team this context was created on; {@link ShmemTeam#INVALID} for {@link #INVALID}.
     *
     * @return the team the context was created on
     */
    ShmemTeam team();

    /**
     * shmem_ctx_session_start(ctx, options, config, config_mask): {@link #sessionStart(long)} with
     * session hints; {@code options} is a bitwise or of {@link Shmem#CTX_SESSION_BATCH} (0 for
     * none; any combination is accepted), {@code configMask} of {@link SessionConfig#TOTAL_OPS}.
     * Does nothing on {@link #INVALID}.
     *
     * @param options a bitwise or of session options ({@link Shmem#CTX_SESSION_BATCH}), 0 for none
     * @param config the session's configuration hints (may be null when {@code configMask} is 0)
     * @param configMask which fields of {@code config} to use ({@link SessionConfig#TOTAL_OPS}), 0 for none
     * @throws IllegalArgumentException if {@code configMask} has unknown bits
     * @throws NullPointerException if the mask selects a field and {@code config} is null
     */
    default void sessionStart(long options, SessionConfig config, long configMask) {
        SessionConfig.effective(config, configMask);
        sessionStart(options);
    }

    /**
     * The options it was created with (a bitwise or of {@link Shmem#CTX_PRIVATE} ...).
     *
     * @return the options the context was created with
     */
    long options();

    /**
     * Destroys the context; OpenSHMEM {@code shmem_ctx_destroy}. It first completes the context's
     * outstanding operations, as {@link #quiet()} does, then releases what the context holds (its
     * own network endpoints, if any); later calls on it throw {@link ShmemException}. Closing it
     * again, after finalize, or on {@link #INVALID} does nothing. Destroying the team it was
     * created on destroys it too.
     *
     * @see Shmem#ctxCreate(long)
     * @see ShmemTeam#createCtx(long)
     */
    @Override
    void close();
}
