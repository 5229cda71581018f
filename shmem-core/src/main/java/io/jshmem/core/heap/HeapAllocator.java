/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.heap;

import java.util.Map;
import java.util.TreeMap;

/**
 * First-fit allocator over the user part of the symmetric heap. Deterministic: every PE runs the
 * same sequence of collective calls, so every PE gets the same offsets, which is what makes the
 * heap symmetric. Free blocks are coalesced. Not thread-safe: callers serialize.
 */
public final class HeapAllocator {
    /** Every block starts on a cache line, so that no two objects share one by accident. */
    public static final long MIN_ALIGNMENT = 64;

    private final long base;
    private final long size;
    private final TreeMap<Long, Long> free = new TreeMap<>();   // offset -> length
    private final TreeMap<Long, Long> used = new TreeMap<>();   // offset -> length

    /** Manages {@code [base, base + size)}; {@code base} must be a multiple of {@link #MIN_ALIGNMENT}. */
    public HeapAllocator(long base, long size) {
        if (base % MIN_ALIGNMENT != 0) {
            throw new IllegalArgumentException("unaligned heap base " + base);
        }
        this.base = base;
        this.size = size;
        free.put(base, size);
    }

    /** Allocates {@code bytes} (> 0) at a multiple of {@code alignment} (a power of two); -1 if no block fits. */
    public long allocate(long bytes, long alignment) {
        if (bytes > size || alignment > size) {
            return -1; // nothing that large fits; and rounding it up could wrap around
        }
        long align = Math.max(alignment, MIN_ALIGNMENT);
        long need = roundUp(bytes, MIN_ALIGNMENT);
        for (Map.Entry<Long, Long> e : free.entrySet()) {
            long start = e.getKey();
            long end = start + e.getValue();
            long at = roundUp(start, align);
            if (at + need <= end) {
                free.remove(start);
                if (at > start) {
                    free.put(start, at - start);
                }
                if (at + need < end) {
                    free.put(at + need, end - at - need);
                }
                used.put(at, need);
                return at;
            }
        }
        return -1;
    }

    /** Releases a block returned by {@link #allocate}. */
    public void free(long offset) {
        Long len = used.remove(offset);
        if (len == null) {
            throw new IllegalArgumentException("no block at offset " + offset);
        }
        long start = offset;
        long end = offset + len;
        Map.Entry<Long, Long> before = free.floorEntry(start);
        if (before != null && before.getKey() + before.getValue() == start) {
            start = before.getKey();
            free.remove(start);
        }
        Long after = free.get(end);
        if (after != null) {
            free.remove(end);
            end += after;
        }
        free.put(start, end - start);
    }

    /** Grows or shrinks a block in place if possible; returns whether it did. */
    public boolean resizeInPlace(long offset, long bytes) {
        Long len = used.get(offset);
        if (len == null) {
            throw new IllegalArgumentException("no block at offset " + offset);
        }
        if (bytes > size) {
            return false; // and rounding it up could wrap around
        }
        long need = roundUp(bytes, MIN_ALIGNMENT);
        if (need == len) {
            return true;
        }
        long end = offset + len;
        if (need < len) {
            used.put(offset, need);
            long tailStart = offset + need;
            Long after = free.remove(end);
            free.put(tailStart, (end - tailStart) + (after == null ? 0 : after));
            return true;
        }
        Long after = free.get(end);
        if (after == null || len + after < need) {
            return false;
        }
        free.remove(end);
        long extra = need - len;
        if (after > extra) {
            free.put(end + extra, after - extra);
        }
        used.put(offset, need);
        return true;
    }

    /** Size of the block at {@code offset}. */
    public long blockSize(long offset) {
        Long len = used.get(offset);
        return len == null ? -1 : len;
    }

    public long totalFree() {
        long sum = 0;
        for (long v : free.values()) {
            sum += v;
        }
        return sum;
    }

    public long largestFree() {
        long max = 0;
        for (long v : free.values()) {
            max = Math.max(max, v);
        }
        return max;
    }

    public long capacity() {
        return size;
    }

    public long base() {
        return base;
    }

    public int liveBlocks() {
        return used.size();
    }

    static long roundUp(long v, long align) {
        return (v + align - 1) & -align;
    }
}
