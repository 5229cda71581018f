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
     * @throws NullPointerException if {@code requested} is null
     */
    static Shmem initThread(ThreadLevel requested) {
        java.util.Objects.requireNonNull(requested, "the requested thread level is null");
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
     * The segment is closed when the object is freed or reallocated, or the library finalized:
     * accesses through it then throw {@link IllegalStateException}.
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
    // malloc, calloc, align, mallocWithHints and realloc end with a barrier (outstanding operations
    // completed, as barrierAll does), so the object is usable on every PE when they return; free and
    // realloc start with one, so no PE still uses the old object. Every PE calls them with the same
    // arguments, in the same order.

    /**
     * Allocates a symmetric array of {@code length} elements, the same object on every PE, its
     * contents undefined; OpenSHMEM {@code shmem_malloc}. Collective over the world team (see the
     * note above this method); the object lives until {@link #free} or finalize.
     *
     * @param <T> the symmetric array type, e.g. {@link SymLongArray}
     * @param type the element type, e.g. {@link SymType#LONG}
     * @param length the number of elements
     * @return the new symmetric object
     * @throws HeapExhaustedException if the symmetric heap has no free block large enough (on every
     *         PE: they share one outcome)
     * @throws ShmemException naming this PE, if {@code length} is negative, {@code type} is null,
     *         or jshmem was finalized
     * @throws JobAbortedException if the job is being aborted while this PE waits in the barrier
     * @see #calloc(SymType, long)
     * @see #free(SymArray)
     */
    <T extends SymArray<?>> T malloc(SymType<T> type, long length);

    /**
     * Like {@link #malloc(SymType, long)}, with every element zero on every PE; OpenSHMEM
     * {@code shmem_calloc}. Collective.
     *
     * @param <T> the symmetric array type, e.g. {@link SymLongArray}
     * @param type the element type, e.g. {@link SymType#LONG}
     * @param length the number of elements
     * @return the new symmetric object, zeroed
     * @throws HeapExhaustedException if the symmetric heap has no free block large enough (on every
     *         PE: they share one outcome)
     * @throws ShmemException naming this PE, if {@code length} is negative, {@code type} is null,
     *         or jshmem was finalized
     * @throws JobAbortedException if the job is being aborted while this PE waits in the barrier
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
     * The hints are advisory (the object behaves the same with any of them); bits outside these
     * are ignored as well, with a warning (once per PE), so that a mistyped hint does not pass
     * unnoticed (as Sandia OpenSHMEM does).
     *
     * @param <T> the symmetric array type, e.g. {@link SymLongArray}
     * @param type the element type, e.g. {@link SymType#LONG}
     * @param length the number of elements
     * @param hints a bitwise or of {@link #MALLOC_ATOMICS_REMOTE} and {@link #MALLOC_SIGNAL_REMOTE}, 0 for none
     * @return the new symmetric object
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
     * Releases a symmetric array; OpenSHMEM {@code shmem_free}. Collective over the world team: it
     * starts with a barrier (outstanding operations completed), so no PE still uses the object,
     * and every later use of it throws {@link ShmemException}. {@code null} (C's null pointer) does
     * nothing, not even the barrier, as in 1.6, and must then be passed on every PE.
     *
     * @param object the object to free, an empty object, or {@code null} (no action)
     * @throws ShmemException naming this PE, if {@code object} is freed already or of another heap,
     *         or jshmem was finalized
     * @throws JobAbortedException if the job is being aborted while this PE waits in the barrier
     * @see #malloc(SymType, long)
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
     * Creates a communication context on the world team; OpenSHMEM {@code shmem_ctx_create}. A
     * context is a separate stream of RMA, AMO and signal operations: its {@link ShmemCtx#fence()}
     * and {@link ShmemCtx#quiet()} cover only its own operations, so threads (or phases) that use
     * their own contexts do not wait for one another's. Not collective. {@code options} are hints
     * about how it will be used ({@link #CTX_PRIVATE}, {@link #CTX_SERIALIZED}, {@link #CTX_NOSTORE});
     * close it ({@code shmem_ctx_destroy}) when done.
     *
     * @param options a bitwise or of the CTX_* constants, 0 for none
     * @return the new context
     * @throws ShmemException naming this PE, if {@code options} has bits outside the CTX_*
     *         constants, or jshmem was finalized
     * @see ShmemTeam#createCtx(long)
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
     * Reads this PE's signal word {@code sig[index]} atomically, without waiting; OpenSHMEM
     * {@code shmem_signal_fetch}. Atomic with respect to the signal updates of
     * {@link #putSignal(SymArray, long, Object, int, int, SymLongArray, long, long, SignalOp, int) putSignal},
     * {@link #signalAdd} and {@link #signalSet}; when it returns a value written by a put with signal,
     * that put's data is visible on this PE.
     *
     * @param sig the symmetric array holding the signal word
     * @param index the index of the signal word in {@code sig}
     * @return the signal word's value
     * @throws ShmemException naming this PE, if {@code sig} is not a live symmetric object of this
     *         heap (null, freed, or of an earlier initialization), {@code index} is outside it, or
     *         jshmem was finalized
     * @see #signalWaitUntil(SymLongArray, long, Cmp, long)
     */
    long signalFetch(SymLongArray sig, long index);

    /**
     * Waits until this PE's signal word satisfies {@code sig[index] cmp value}, and returns the value
     * that satisfied it; OpenSHMEM {@code shmem_signal_wait_until}. Blocking: the PE spins briefly, then
     * sleeps until a writer wakes it. The word is read atomically; once the comparison holds, the
     * data of the put with signal that set it (and of the puts its writer fenced before it) is
     * visible here. The usual receiving side of
     * {@link #putSignal(SymArray, long, Object, int, int, SymLongArray, long, long, SignalOp, int) putSignal}.
     *
     * @param sig the symmetric array holding the signal word
     * @param index the index of the signal word in {@code sig}
     * @param cmp the comparison
     * @param value the value to compare with
     * @return the signal word's value that satisfied the comparison
     * @throws ShmemException naming this PE, if {@code sig} is not a live symmetric object of this
     *         heap (null, freed, or of an earlier initialization), {@code index} is outside it, or
     *         jshmem was finalized
     * @throws JobAbortedException if the job is being aborted while this PE waits
     * @see #signalFetch(SymLongArray, long)
     * @see #waitUntil(SymLongArray, long, Cmp, long)
     */
    long signalWaitUntil(SymLongArray sig, long index, Cmp cmp, long value);

    /**
     * Acquires the distributed lock {@code lock[index]}, waiting as long as another PE holds it;
     * OpenSHMEM {@code shmem_set_lock}. The lock word is a symmetric {@code long}, zero on every PE
     * before first use, used only through the lock routines (its copy on PE 0 holds the queue);
     * the same element names the same lock on every PE. Waiters queue (MCS) and get the lock in
     * arrival order, each spinning, then sleeping, on its own PE's memory. A lock is held by a PE:
     * threads of one PE take it in turn (one that finds another thread of its PE holding or taking
     * it waits for that thread's clearLock first). Not reentrant: a thread that holds the lock must
     * not set it again. What the previous holder wrote before {@link #clearLock} is visible once
     * this returns.
     *
     * @param lock the symmetric array holding the lock word (zero when free)
     * @param index the index of the lock word in {@code lock}
     * @throws ShmemException naming this PE, if {@code lock} is not a live symmetric object of this
     *         heap (null, freed, or of an earlier initialization), {@code index} is outside it,
     *         jshmem was finalized, the calling thread already holds the lock, or the word was
     *         not zero before the lock's first use
     * @throws JobAbortedException if the job is being aborted while this PE waits
     * @see #clearLock(SymLongArray, long)
     * @see #testLock(SymLongArray, long)
     */
    void setLock(SymLongArray lock, long index);

    /**
     * Acquires the lock {@code lock[index]} if it is free, without waiting; OpenSHMEM
     * {@code shmem_test_lock}. Returns true if this call acquired it (C returns 0 then): release
     * it with {@link #clearLock}; false if another PE holds it or is queued for it, or this PE
     * holds it or another of its threads is taking it.
     *
     * @param lock the symmetric array holding the lock word (zero when free)
     * @param index the index of the lock word in {@code lock}
     * @return whether this call acquired the lock
     * @throws ShmemException naming this PE, if {@code lock} is not a live symmetric object of this
     *         heap (null, freed, or of an earlier initialization), {@code index} is outside it, or
     *         jshmem was finalized
     * @see #setLock(SymLongArray, long)
     */
    boolean testLock(SymLongArray lock, long index);

    /**
     * Releases the lock {@code lock[index]}, which this PE holds, to the next PE queued for it;
     * OpenSHMEM {@code shmem_clear_lock}. It first completes this PE's outstanding puts and AMOs on
     * the default context (as {@link #quiet()} does), so the next holder sees what this PE wrote
     * while it held the lock.
     *
     * @param lock the symmetric array holding the lock word (zero when free)
     * @param index the index of the lock word in {@code lock}
     * @throws ShmemException naming this PE, if {@code lock} is not a live symmetric object of this
     *         heap (null, freed, or of an earlier initialization), {@code index} is outside it,
     *         jshmem was finalized, or this PE does not hold the lock
     * @throws JobAbortedException if the job is being aborted while this PE waits
     * @see #setLock(SymLongArray, long)
     */
    void clearLock(SymLongArray lock, long index);

    // ---------------------------------------------------------------- barriers

    /**
     * Completes this PE's outstanding puts, AMOs and non-blocking operations on the default context
     * (as {@link #quiet()} does), then waits until every PE of the job has called it; OpenSHMEM
     * {@code shmem_barrier_all}. Collective over the world team. When it returns, every PE's
     * updates issued before the barrier are visible everywhere: the usual separator between the
     * phases of a program. Operations on other contexts need their own {@code quiet} first.
     *
     * @throws ShmemException naming this PE, if jshmem was finalized
     * @throws JobAbortedException if the job is being aborted while this PE waits
     * @see #syncAll()
     * @see ShmemTeam#sync()
     */
    void barrierAll();

    /**
     * Waits until every PE of the job has called it, without completing outstanding operations;
     * OpenSHMEM {@code shmem_sync_all} ({@link ShmemTeam#sync()} on the world team). Cheaper than
     * {@link #barrierAll()} when the PEs' puts are already complete (after their {@link #quiet()}),
     * or when only the arrival matters.
     *
     * @throws ShmemException naming this PE, if jshmem was finalized
     * @throws JobAbortedException if the job is being aborted while this PE waits
     * @see #barrierAll()
     */
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
