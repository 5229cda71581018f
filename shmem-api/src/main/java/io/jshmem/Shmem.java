/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * An initialized OpenSHMEM library in this process: the handle returned by {@link #init()}, on
 * which every routine is called. Closing it is {@code shmem_finalize}.
 *
 * <pre>{@code
 * try (Shmem shmem = Shmem.init()) {
 *     SymLongArray counter = shmem.calloc(SymType.LONG, 1);
 *     shmem.atomicInc(counter, 0, 0);
 *     shmem.barrierAll();
 *     if (shmem.myPe() == 0) System.out.println(counter.get(0) + " PEs said hello");
 * }
 * }</pre>
 *
 * <p>The communication routines (RMA, AMO, point-to-point synchronization, ordering) are those of
 * {@link ShmemCtx}, here on the default context. One process is one PE; {@code init} more than
 * once returns the same handle while it is open, and (OpenSHMEM 1.6) each call must be matched by
 * a {@link #close()}: only the close matching the last unmatched init finalizes. After that, init
 * may be called again (collectively): it starts the library anew, with a new handle, a new symmetric
 * heap, new teams and contexts; those of the earlier initialization stay unusable.
 */
public interface Shmem extends ShmemCtx, AutoCloseable {

    /**
     * shmem_init: initializes the library with {@link ThreadLevel#SINGLE}. Collective.
     *
     * @return this process's handle to the library (the same one on every call until it is
     *         finalized; a new one after finalize, when init starts the library again)
     */
    static Shmem init() {
        return initThread(ThreadLevel.SINGLE);
    }

    /**
     * shmem_init_thread: initializes the library asking for a thread level; the level provided is
     * {@link #queryThread()}. Collective.
     *
     * @param requested the thread level the program asks for
     * @return this process's handle to the library
     * @throws ShmemException if initialization fails (no runtime on the class path, the job's
     *         launcher unreachable, the symmetric heap cannot be created)
     */
    static Shmem initThread(ThreadLevel requested) {
        return RuntimeLocator.get().init(requested);
    }

    /**
     * shmem_query_initialized: whether the library is initialized and not yet finalized in this process.
     *
     * @return whether the library is initialized and not finalized
     */
    static boolean queryInitialized() {
        return RuntimeLocator.loaded() != null && RuntimeLocator.loaded().initialized();
    }

    /**
     * Whether fork() is safe in this process, and why (see {@link ForkSafetyReport}). Usable before
     * init (it then judges the transport that init would use) and after: the same as
     * {@link #forkSafetyReport()} of the initialized handle. No OpenSHMEM routine corresponds; the
     * proposed subprocess clauses (OpenSHMEM PR #474) ask for one.
     *
     * @return the fork-safety report
     */
    static ForkSafetyReport forkSafety() {
        return RuntimeLocator.get().forkSafety();
    }

    // ---------------------------------------------------------------- setup and query

    /**
     * shmem_my_pe: this PE's number in the world team.
     *
     * @return this PE's number in the world team, from 0
     */
    int myPe();

    /**
     * shmem_n_pes: number of PEs in the job.
     *
     * @return the number of PEs in the job
     */
    int nPes();

    /**
     * shmem_pe_accessible: whether {@code pe} is reachable by the communication routines.
     *
     * @param pe a PE number in the world team
     * @return whether {@code pe} can be reached with RMA and atomics
     */
    boolean peAccessible(int pe);

    /**
     * shmem_addr_accessible: whether {@code object} on {@code pe} is reachable (it is a live symmetric object and the PE is accessible).
     *
     * @param object a symmetric object
     * @param pe a PE number in the world team
     * @return whether {@code object} can be reached on {@code pe}
     */
    boolean addrAccessible(SymArray<?> object, int pe);

    /**
     * shmem_ptr: a view of {@code object}'s copy on {@code pe} for direct loads and stores, when
     * that PE shares memory with this one; empty otherwise.
     *
     * @param object a symmetric object
     * @param pe a PE number
     * @return a segment mapping {@code object} on {@code pe} for plain loads and stores, or empty when it is not mapped directly
     */
    Optional<MemorySegment> ptr(SymArray<?> object, int pe);

    /**
     * shmem_info_get_version: the OpenSHMEM specification version implemented (1.6).
     *
     * @return the OpenSHMEM specification version implemented
     */
    SpecVersion infoGetVersion();

    /**
     * shmem_info_get_name: the vendor string.
     *
     * @return the vendor string
     */
    String infoGetName();

    /**
     * shmem_query_thread: the thread level provided.
     *
     * @return the thread level provided
     */
    ThreadLevel queryThread();

    /**
     * shmem_pcontrol: sets the profiling level for a profiling library (0 off, 1 on, 2 on with
     * buffers flushed, above 2 defined by the profiling library). As OpenSHMEM says of libraries
     * themselves, jshmem makes no use of it and returns at once; any level is accepted.
     *
     * @param level the profiling level
     */
    default void pcontrol(int level) {
        // No profiling interface: nothing to do.
    }

    /**
     * shmem_global_exit: ends every PE of the job with {@code status}; does not return.
     *
     * @param status the exit status of every PE
     */
    void globalExit(int status);

    /**
     * shmem_finalize: collective; releases the symmetric heap. With several init calls, only the
     * close matching the last unmatched one finalizes (the others return at once). Calling it after
     * finalize has no effect. After it, {@link #init()} may start the library again (OpenSHMEM 1.6).
     */
    @Override
    void close();

    // ---------------------------------------------------------------- memory management (collective)

    /**
     * shmem_malloc: allocates a symmetric array of {@code length} elements (contents undefined). Collective; same arguments on every PE.
     *
     * @param <T> the symmetric array type, e.g. {@link SymLongArray}
     * @param type the element type, e.g. {@link SymType#LONG}
     * @param length the number of elements
     * @return the new symmetric object
     */
    <T extends SymArray<?>> T malloc(SymType<T> type, long length);

    /**
     * shmem_calloc: like malloc, zero-filled.
     *
     * @param <T> the symmetric array type, e.g. {@link SymLongArray}
     * @param type the element type, e.g. {@link SymType#LONG}
     * @param length the number of elements
     * @return the new symmetric object, zeroed
     */
    <T extends SymArray<?>> T calloc(SymType<T> type, long length);

    /**
     * shmem_align: like malloc, the first element aligned to {@code alignment} bytes (a power of two).
     *
     * @param <T> the symmetric array type, e.g. {@link SymLongArray}
     * @param alignment the alignment of the first element, in bytes (a power of two)
     * @param type the element type, e.g. {@link SymType#LONG}
     * @param length the number of elements
     * @return the new symmetric object
     */
    <T extends SymArray<?>> T align(long alignment, SymType<T> type, long length);

    /**
     * shmem_malloc_with_hints: like malloc; {@code hints} is a bitwise or of {@link #MALLOC_ATOMICS_REMOTE} and {@link #MALLOC_SIGNAL_REMOTE} (0 for none).
     * The hints are advisory (the object behaves the same with any of them), but bits outside
     * these are refused, so that a mistyped hint does not pass unnoticed.
     *
     * @param <T> the symmetric array type, e.g. {@link SymLongArray}
     * @param type the element type, e.g. {@link SymType#LONG}
     * @param length the number of elements
     * @param hints a bitwise or of {@link #MALLOC_ATOMICS_REMOTE} and {@link #MALLOC_SIGNAL_REMOTE}, 0 for none
     * @return the new symmetric object
     * @throws IllegalArgumentException if {@code hints} has a bit outside {@link #MALLOC_ATOMICS_REMOTE}
     *         and {@link #MALLOC_SIGNAL_REMOTE} (the message names those bits)
     */
    <T extends SymArray<?>> T mallocWithHints(SymType<T> type, long length, long hints);

    /**
     * shmem_realloc: a symmetric array of {@code newLength} elements holding the old contents (up
     * to the smaller length); {@code object} is freed (it may be the same place).
     *
     * @param <T> the symmetric array type, e.g. {@link SymLongArray}
     * @param object the object to resize
     * @param newLength the new number of elements
     * @return the object of the new length, to use instead of {@code object}
     */
    <T extends SymArray<?>> T realloc(T object, long newLength);

    /**
     * shmem_free: releases a symmetric array; further use of it throws. Collective (a barrier on
     * entry); {@code null} (C's null pointer) does nothing, not even the barrier, as in 1.6, and
     * must then be passed on every PE.
     *
     * @param object the object to free, an empty object, or {@code null} (no action)
     */
    void free(SymArray<?> object);

    /** SHMEM_MALLOC_ATOMICS_REMOTE hint: the object is mostly updated by remote atomics. */
    long MALLOC_ATOMICS_REMOTE = 1L;
    /** SHMEM_MALLOC_SIGNAL_REMOTE hint: the object is used as a signal. */
    long MALLOC_SIGNAL_REMOTE = 2L;

    // ---------------------------------------------------------------- teams and contexts

    /**
     * SHMEM_TEAM_WORLD: every PE of the job.
     *
     * @return the team of all PEs
     */
    ShmemTeam teamWorld();

    /**
     * SHMEM_TEAM_SHARED: the PEs whose symmetric heaps this PE can access directly (its node).
     *
     * @return the team of the PEs that share memory with this one
     */
    ShmemTeam teamShared();

    /**
     * shmem_ctx_create: a context on the world team; {@code options} is a bitwise or of the CTX_* constants.
     *
     * @param options a bitwise or of the CTX_* constants, 0 for none
     * @return the new context
     */
    ShmemContext ctxCreate(long options);

    /** SHMEM_CTX_PRIVATE: only the creating thread uses the context. */
    long CTX_PRIVATE = 1L;
    /** SHMEM_CTX_SERIALIZED: threads using the context never do so at the same time. */
    long CTX_SERIALIZED = 2L;
    /** SHMEM_CTX_NOSTORE: no store operations (puts, non-fetching AMOs) on the context need completing by quiet. */
    long CTX_NOSTORE = 4L;

    /** SHMEM_CTX_SESSION_BATCH: session option; the session's operations tolerate latency and may be batched (a hint). */
    long CTX_SESSION_BATCH = 1L;

    /**
     * shmem_ctx_session_start(SHMEM_CTX_DEFAULT, options, config, config_mask): a session on the
     * default context with hints (see {@link ShmemContext#sessionStart(long, SessionConfig, long)}).
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

    // ---------------------------------------------------------------- signals and locks

    /**
     * shmem_signal_fetch: reads this PE's signal word {@code sig[index]} atomically.
     *
     * @param sig the symmetric array holding the signal word
     * @param index the index of the signal word in {@code sig}
     * @return the signal word's value
     */
    long signalFetch(SymLongArray sig, long index);

    /**
     * shmem_signal_wait_until: waits until {@code sig[index] cmp value} on this PE; returns the word's value then.
     *
     * @param sig the symmetric array holding the signal word
     * @param index the index of the signal word in {@code sig}
     * @param cmp the comparison
     * @param value the value to compare with
     * @return the signal word's value that satisfied the comparison
     */
    long signalWaitUntil(SymLongArray sig, long index, Cmp cmp, long value);

    /**
     * shmem_set_lock: acquires the distributed lock {@code lock[index]} (a symmetric long, zero before
     * first use). Waiters queue (MCS): each spins on its own PE's memory, in arrival order.
     *
     * @param lock the symmetric array holding the lock word (zero when free)
     * @param index the index of the lock word in {@code lock}
     */
    void setLock(SymLongArray lock, long index);

    /**
     * shmem_test_lock: acquires the lock if it is free; returns true if this call acquired it (C returns 0 then).
     *
     * @param lock the symmetric array holding the lock word (zero when free)
     * @param index the index of the lock word in {@code lock}
     * @return whether this call acquired the lock
     */
    boolean testLock(SymLongArray lock, long index);

    /**
     * shmem_clear_lock: completes this PE's outstanding operations, then releases the lock to the next waiter.
     *
     * @param lock the symmetric array holding the lock word (zero when free)
     * @param index the index of the lock word in {@code lock}
     */
    void clearLock(SymLongArray lock, long index);

    // ---------------------------------------------------------------- barriers

    /** shmem_barrier_all: completes this PE's outstanding operations, then waits for every PE. */
    void barrierAll();

    /** shmem_sync_all: waits for every PE, without completing outstanding operations. */
    void syncAll();

    // ---------------------------------------------------------------- subprocesses and fork safety

    /**
     * Whether fork() is safe in this PE, considering the transport in use: {@code forkSafetyReport().safe()}.
     * Subprocesses started with posix_spawn (the JVM's default launch mechanism, and
     * {@code io.jshmem.spawn.Spawn} always) are safe either way.
     *
     * @return whether fork is safe in this process, for the transport in use
     */
    default boolean isForkSafe() {
        return forkSafetyReport().safe();
    }

    /**
     * The detailed report behind {@link #isForkSafe()}: safe or not, and every reason.
     *
     * @return the fork-safety report for the transport in use
     */
    default ForkSafetyReport forkSafetyReport() {
        return forkSafety();
    }
}
