/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The non-blocking puts and gets of one {@link Channel} whose local buffer is the caller's and may
 * be released before quiet (an arena's segment: the caller may close the arena once putNbi or
 * getNbi returned). UCX would read or write such a buffer while the operation runs, so it goes
 * through staging memory the channel owns instead: a put's data is copied in before it is posted
 * (the caller's segment is not touched again), a get lands in staging and is copied out to the
 * caller's segment at quiet, and only if that segment is still alive then (one closed in the
 * meantime receives nothing, as it would have on shared memory, where the get was already done).
 *
 * <p>Staging is a bump region, reset once quiet has completed everything in it; a region too small
 * for the next operation is retired (kept until then) for a larger one. When the staged bytes
 * would pass {@link #LIMIT}, what is staged is completed first; an operation above
 * {@link #MAX_STAGED} is not staged at all: the caller runs it blocking (complete on return is a
 * valid non-blocking completion). Nothing is allocated per operation once the region and the
 * entry arrays have grown to the program's need.
 *
 * <p>Threads: posts and completions of a shared channel hold {@link #lock}, taken before the
 * channel's worker lock, never inside it.
 */
final class NbiStaging {
    /** The largest operation staged; larger ones run blocking. */
    static final long MAX_STAGED = 4L << 20;
    /** Staged bytes beyond which the staged operations are completed before staging more. */
    static final long LIMIT = 16L << 20;
    private static final long FIRST_REGION = 256L << 10;
    private static final long ALIGN = 64;

    private final Channel channel;
    /** None for a PRIVATE context's channel (one thread). */
    private final OptionalLock lock;
    private Arena arena;
    private MemorySegment region;
    private long used;
    /** Bytes staged since the last reset, in this region and the retired ones. */
    private long staged;
    /** Arenas of regions outgrown since the last reset, still read or written by operations in flight. */
    private Arena[] retired = new Arena[4];
    private int retiredCount;

    // The operations in flight, in posting order: the request and target PE, and for a get the
    // caller's segment, the offset in it, the staging region and offset of its bytes, and the length.
    private long[] requests = new long[16];
    private int[] pes = new int[16];
    private MemorySegment[] dests = new MemorySegment[16];
    private long[] destOffsets = new long[16];
    private MemorySegment[] regions = new MemorySegment[16];
    private long[] stagedAt = new long[16];
    private long[] lengths = new long[16];
    private int count;

    NbiStaging(Channel channel, boolean locked) {
        this.channel = channel;
        this.lock = new OptionalLock(locked);
    }

    /** Copies {@code n} bytes of {@code source} from {@code at} (checked by the caller) to staging and posts them to {@code pe}'s heap offset. */
    void put(int pe, long offset, MemorySegment source, long at, long n) {
        lock.lock();
        try {
            long s = reserve(n);
            MemorySegment.copy(source, at, region, s, n);
            long r = channel.post(Channel.PUT, pe, region.address() + s, n, offset);
            if (r != 0) {
                record(r, pe, null, 0, s, n, "put_nbi");
            }
        } finally {
            lock.unlock();
        }
    }

    /** Posts a get of {@code n} bytes from {@code pe}'s heap offset into staging, for {@code dest} from {@code at} (checked by the caller). */
    void get(int pe, long offset, MemorySegment dest, long at, long n) {
        lock.lock();
        try {
            long s = reserve(n);
            long r = channel.post(Channel.GET, pe, region.address() + s, n, offset);
            if (r == 0) {
                MemorySegment.copy(region, s, dest, at, n); // done already: the caller's thread, its segment checked
            } else {
                record(r, pe, dest, at, s, n, "get_nbi");
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Completes every staged operation, copies the gets out to the segments still alive, and
     * resets staging; throws the first failure after all.
     */
    void completeAll() {
        lock.lock();
        try {
            completeAllHeld();
        } finally {
            lock.unlock();
        }
    }

    /** Operations in flight (for tests). */
    int inFlight() {
        return count;
    }

    /** Completes the staged operations to {@code pe} as {@link #completeAll} does (a quiet of one PE). */
    void complete(int pe) {
        lock.lock();
        try {
            completeHeld(pe);
        } finally {
            lock.unlock();
        }
    }

    private void completeAllHeld() {
        completeHeld(-1);
    }

    /** Completes the operations to {@code pe} (-1: all), keeping the others in order; staging starts over once none is left. */
    private void completeHeld(int pe) {
        RuntimeException first = null;
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (pe >= 0 && pes[i] != pe) {
                move(i, kept++);
                continue;
            }
            long r = requests[i];
            MemorySegment dest = dests[i];
            requests[i] = 0;
            dests[i] = null;
            try {
                channel.await(r, pes[i], dest == null ? "non-blocking put" : "non-blocking get");
                if (dest != null) {
                    copyOut(regions[i], stagedAt[i], dest, destOffsets[i], lengths[i]);
                }
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                }
            } finally {
                regions[i] = null;
            }
        }
        count = kept;
        if (count == 0) {
            reset();
        }
        if (first != null) {
            throw first;
        }
    }

    private void move(int from, int to) {
        if (from == to) {
            return;
        }
        requests[to] = requests[from];
        pes[to] = pes[from];
        dests[to] = dests[from];
        destOffsets[to] = destOffsets[from];
        regions[to] = regions[from];
        stagedAt[to] = stagedAt[from];
        lengths[to] = lengths[from];
        dests[from] = null;
        regions[from] = null;
    }

    /**
     * A completed get's data to the caller's segment, if it is still alive. A confined segment may
     * be completed by another thread's quiet (a shared context): that thread writes through the
     * segment's address, as the owner's own get would have on shared memory.
     */
    private static void copyOut(MemorySegment from, long fromAt, MemorySegment dest, long at, long n) {
        if (!dest.scope().isAlive()) {
            return;
        }
        if (dest.isAccessibleBy(Thread.currentThread())) {
            MemorySegment.copy(from, fromAt, dest, at, n);
        } else {
            MemorySegment.copy(from, fromAt, MemorySegment.ofAddress(dest.address() + at).reinterpret(n), 0, n);
        }
    }

    /**
     * The offset in {@link #region} of {@code n} bytes of staging, completing what is staged first
     * when the limit would be passed. With nothing in flight (the operations since the last reset
     * completed when posted) staging starts over.
     */
    private long reserve(long n) {
        if (count == 0) {
            reset();
        }
        if (staged + n > LIMIT) {
            completeAllHeld();
        }
        long at = (used + ALIGN - 1) & -ALIGN;
        if (region == null || at + n > region.byteSize()) {
            grow(at + n);
            at = 0;
        }
        used = at + n;
        staged += n;
        return at;
    }

    /** A new region of at least {@code n} bytes; the current one is retired until the next reset. */
    private void grow(long n) {
        long size = Math.max(region == null ? FIRST_REGION : region.byteSize() * 2, n);
        if (arena != null) {
            if (count == 0) {
                arena.close(); // nothing in flight reads or writes it
            } else {
                if (retiredCount == retired.length) {
                    retired = Arrays.copyOf(retired, retiredCount * 2);
                }
                retired[retiredCount++] = arena;
            }
        }
        arena = Arena.ofShared();
        region = arena.allocate(size, ALIGN);
        used = 0;
    }

    /** After every operation completed: the region from its start again, the retired ones freed. */
    private void reset() {
        used = 0;
        staged = 0;
        if (retiredCount == 0) {
            return;
        }
        for (int i = 0; i < retiredCount; i++) {
            retired[i].close();
            retired[i] = null;
        }
        retiredCount = 0;
    }

    private void record(long r, int pe, MemorySegment dest, long at, long s, long n, String what) {
        if (Ucp.isError(r)) {
            throw channel.job.peerError(pe, "UCX " + what + " to PE " + pe + " failed", (byte) r);
        }
        if (count == requests.length) {
            int size = count * 2;
            requests = Arrays.copyOf(requests, size);
            pes = Arrays.copyOf(pes, size);
            dests = Arrays.copyOf(dests, size);
            destOffsets = Arrays.copyOf(destOffsets, size);
            regions = Arrays.copyOf(regions, size);
            stagedAt = Arrays.copyOf(stagedAt, size);
            lengths = Arrays.copyOf(lengths, size);
        }
        requests[count] = r;
        pes[count] = pe;
        dests[count] = dest;
        destOffsets[count] = at;
        regions[count] = region;
        stagedAt[count] = s;
        lengths[count++] = n;
    }

    /** Frees the requests in flight without waiting (UCX releases them when they end); the caller holds the worker lock. */
    void freeRequests() {
        for (int i = 0; i < count; i++) {
            if (Ucp.isRequest(requests[i])) {
                Ucp.requestFree(requests[i]);
            }
            requests[i] = 0;
            dests[i] = null;
            regions[i] = null;
        }
        count = 0;
    }

    /** Frees the staging memory, once the worker is destroyed (nothing reads or writes it any more). */
    void releaseMemory() {
        used = 0;
        reset();
        if (arena != null) {
            arena.close();
            arena = null;
            region = null;
        }
    }
}
