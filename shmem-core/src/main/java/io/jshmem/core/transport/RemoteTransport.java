/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.transport;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The narrow interface to PEs that are not on this node (UCX later). PEs on this node are reached
 * by direct loads and stores on their mapped heaps and never come here. Offsets are byte offsets
 * into the target PE's symmetric heap segment; local buffers are native or heap segments.
 *
 * <p>The segments of the four routines that take a whole segment are the caller's: a closed one, or
 * one confined to another thread, must throw what {@code MemorySegment.copy} would throw before
 * anything is transferred, and a non-blocking one's segment may be closed once the call returns, so
 * the transport must not read or write it after that unless it cannot be released. The forms with an
 * offset and length serve the runtime's own data movement, on memory the runtime keeps alive.
 */
public interface RemoteTransport extends AutoCloseable {

    /** Copies {@code source} to {@code pe}; returns when {@code source} may be reused. */
    void put(int pe, long offset, MemorySegment source);

    /** Like {@link #put}, completion deferred to {@link #quiet}. */
    void putNbi(int pe, long offset, MemorySegment source);

    /** Fills {@code dest} from {@code pe}; returns when the data is there. */
    void get(int pe, long offset, MemorySegment dest);

    /** Like {@link #get}, {@code dest} valid after {@link #quiet}. */
    void getNbi(int pe, long offset, MemorySegment dest);

    /**
     * {@link #put} of {@code n} bytes of {@code source} from {@code sourceOffset} (the runtime's own
     * data movement), without a slice object: a transport that takes addresses overrides it.
     */
    default void put(int pe, long offset, MemorySegment source, long sourceOffset, long n) {
        put(pe, offset, source.asSlice(sourceOffset, n));
    }

    /** {@link #get} into {@code n} bytes of {@code dest} from {@code destOffset}; see {@link #put(int, long, MemorySegment, long, long)}. */
    default void get(int pe, long offset, MemorySegment dest, long destOffset, long n) {
        get(pe, offset, dest.asSlice(destOffset, n));
    }

    /** {@link #getNbi} into {@code n} bytes of {@code dest} from {@code destOffset}; see {@link #put(int, long, MemorySegment, long, long)}. */
    default void getNbi(int pe, long offset, MemorySegment dest, long destOffset, long n) {
        getNbi(pe, offset, dest.asSlice(destOffset, n));
    }

    /**
     * Copies {@code count} elements of a Java array from {@code index} ({@code layout}: its element
     * layout; the caller has checked the range) to {@code pe}; returns when the array may be
     * reused. The default copies them into a fresh native segment; a transport with a buffer of its
     * own overrides it.
     */
    default void put(int pe, long offset, Object array, int index, ValueLayout layout, int count) {
        MemorySegment copy = Arena.ofAuto().allocate(layout.byteSize() * count);
        MemorySegment.copy(array, index, copy, layout, 0, count);
        put(pe, offset, copy);
    }

    /** Fills {@code count} elements of a Java array from {@code index} from {@code pe}; see {@link #put(int, long, Object, int, ValueLayout, int)}. */
    default void get(int pe, long offset, Object array, int index, ValueLayout layout, int count) {
        MemorySegment copy = Arena.ofAuto().allocate(layout.byteSize() * count);
        get(pe, offset, copy);
        MemorySegment.copy(copy, layout, 0, array, index, count);
    }

    /** Writes the low {@code bytes} (1, 2, 4 or 8) bytes of {@code value} (native order) to {@code pe}. */
    void putValue(int pe, long offset, long value, int bytes);

    /** Reads {@code bytes} (1, 2, 4 or 8) bytes from {@code pe}, sign-extended. */
    long getValue(int pe, long offset, int bytes);

    /** A 64-bit atomic; returns the old value for fetching operations, else 0. */
    long atomic64(int pe, long offset, AmoOp op, long operand, long compare);

    /** A 32-bit atomic; returns the old value for fetching operations, else 0. */
    int atomic32(int pe, long offset, AmoOp op, int operand, int compare);

    /**
     * A fetching atomic ({@code bytes} 8: as {@link #atomic64}, 4: as {@link #atomic32}) whose old
     * value is stored into {@code fetch[index]} ({@code long[]} or {@code double[]} for 8 bytes,
     * {@code int[]} or {@code float[]} for 4; see {@link Fetched}) by the next {@link #quiet} (or
     * {@link #quiet(int)}) at the latest. The default blocks until the value is there.
     */
    default void atomicNbi(int pe, long offset, AmoOp op, long operand, long compare, int bytes, Object fetch, int index) {
        long old = bytes == 8 ? atomic64(pe, offset, op, operand, compare) : atomic32(pe, offset, op, (int) operand, (int) compare);
        Fetched.store(fetch, index, old);
    }

    /**
     * Adds {@code increment} to a 64-bit synchronization word at {@code pe} that only its owner
     * waits on (a barrier's flag, a collective's arrival counter): unlike {@link #atomic64}, the
     * transport's {@link #quiet} need not wait for it, because the target does.
     */
    default void flagAdd(int pe, long offset, long increment) {
        atomic64(pe, offset, AmoOp.ADD, increment, 0);
    }

    /**
     * Puts {@code n} bytes of {@code source} from {@code sourceOffset} at {@code offset} of
     * {@code pe}, then adds {@code increment} to the 64-bit word at {@code counterOffset} there (a
     * collective's push, or with no data a notice), after this PE's earlier puts and atomics to
     * {@code pe}: a PE that sees the count sees the data. Like {@link #flagAdd}, quiet need not
     * complete it. The default puts, fences and adds.
     */
    default void putCounted(int pe, long offset, MemorySegment source, long sourceOffset, long n, long counterOffset, long increment) {
        if (n > 0) {
            put(pe, offset, source, sourceOffset, n);
        }
        fence();
        atomic64(pe, counterOffset, AmoOp.ADD, increment, 0);
    }

    /**
     * Put with signal: copies {@code source} (the caller's segment, as {@link #put}) to {@code pe} at
     * {@code offset}, then updates the 64-bit signal word at {@code signalOffset} there ({@code op}
     * {@link AmoOp#SET} or {@link AmoOp#ADD} of {@code signal}), so that a PE that sees the signal
     * sees the data. Returns when {@code source} may be reused; {@code nbi}: the data's completion
     * may be deferred to {@link #quiet}, which completes both in any case. The default puts, fences
     * and updates the signal with an atomic.
     */
    default void putSignal(int pe, long offset, MemorySegment source, long signalOffset, long signal, AmoOp op, boolean nbi) {
        if (nbi) {
            putNbi(pe, offset, source);
        } else {
            put(pe, offset, source);
        }
        fence();
        atomic64(pe, signalOffset, op, signal, 0);
    }

    /** {@link #putSignal(int, long, MemorySegment, long, long, AmoOp, boolean)} of {@code count} elements of a Java array, as {@link #put(int, long, Object, int, ValueLayout, int)}. */
    default void putSignal(int pe, long offset, Object array, int index, ValueLayout layout, int count, long signalOffset, long signal, AmoOp op) {
        put(pe, offset, array, index, layout, count);
        fence();
        atomic64(pe, signalOffset, op, signal, 0);
    }

    /** Orders operations to each PE. */
    void fence();

    /** Completes every outstanding operation. */
    void quiet();

    /** Completes the operations issued to {@code pe}. */
    void quiet(int pe);

    /**
     * Advances communication without blocking, for a PE waiting in the library (a barrier, a
     * wait on its own memory): over TCP a remote put or atomic lands only when the target makes
     * progress. Returns whether anything happened.
     */
    default boolean progress() {
        return false;
    }

    /**
     * Called once at init: {@code wake} wakes the threads sleeping on this PE's memory. A
     * transport that writes this PE's memory on a peer's behalf outside the PE's own waits (a
     * progress thread applying a remote put or atomic) runs it afterwards, so that a sleeping
     * waiter sees the write at once instead of at its sleep's timeout. Cheap when nobody sleeps.
     */
    default void wakeOnRemoteWrites(Runnable wake) {
    }

    /**
     * Whether every write a peer makes into this PE's memory through this transport is applied by
     * this PE's own progress (its progress thread, or a thread of it waiting in the library), which
     * then runs the {@link #wakeOnRemoteWrites} callback: true over TCP, where even puts and
     * atomics are carried out by the target. Then a PE waiting on its memory may sleep as long as
     * on one node. False when a network card or a peer's process may write it without this PE
     * knowing (RDMA, cross-memory attach): then sleepers must look again soon.
     */
    default boolean remoteWritesWake() {
        return false;
    }

    /**
     * Called by a thread of this PE that stops progressing this transport to sleep on its memory:
     * whoever else progresses it (a progress thread keeping out of the waiting thread's way) must
     * take over now, not after its own nap.
     */
    default void waiterSleeps() {
    }

    /**
     * Whether this transport's atomics are atomic with CPU atomics on the same word. True when the
     * target's CPU performs them (TCP, shared memory); false for network-card atomics (InfiniBand,
     * RoCE), which are atomic only with each other: then every PE must update words an off-node PE
     * may touch through the transport, itself included (see {@code SHMEM_ATOMICS}).
     */
    default boolean atomicsCoherentWithCpu() {
        return true;
    }

    /**
     * A transport for one created context ({@code shmem_ctx_create}): its {@link #quiet} completes
     * only the operations issued through it. The runtime closes it when the context is destroyed,
     * unless it is this transport (the default: contexts share completion).
     */
    default RemoteTransport openContext(long options) {
        return this;
    }

    /** Name for SHMEM_INFO, e.g. "ucx (tcp)". */
    String name();

    /** Releases the transport at finalize, after the final barrier and before the heap is unmapped. */
    @Override
    void close();

    /**
     * Non-collective release for a PE on a failing path (init failed, the PE exits because of an
     * exception, abort): waits for no peer, stops any thread of the transport and unregisters the
     * heap, so that the heap may be unmapped afterwards. Idempotent; close() after it does nothing.
     */
    default void abandon() {
        close();
    }
}
