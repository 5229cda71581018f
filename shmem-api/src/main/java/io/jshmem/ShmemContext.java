package io.jshmem;

/**
 * A communication context (shmem_ctx_t) created by {@link Shmem#ctxCreate(long)} or
 * {@link ShmemTeam#createCtx(long)}: an independent stream of RMA, AMO and signal operations whose
 * {@link #fence()} and {@link #quiet()} cover only its own operations. PE numbers passed to its
 * routines are relative to its team. Closing it is {@code shmem_ctx_destroy}; it is then unusable.
 */
public interface ShmemContext extends ShmemCtx, AutoCloseable {

    /** shmem_ctx_get_team: the team this context was created on. */
    ShmemTeam team();

    /** The options it was created with (a bitwise or of {@link Shmem#CTX_PRIVATE} ...). */
    long options();

    /** shmem_ctx_destroy: completes outstanding operations and releases the context. */
    @Override
    void close();
}
