/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The deterministic byte pattern of {@code bench_common.h}: distinct per (seed, offset), so that
 * stale data from an earlier repetition or a shifted copy does not pass the check.
 */
public final class Pattern {
    private Pattern() {
    }

    /** Byte {@code i} of the pattern for {@code seed} (bench_pattern in C). */
    public static byte at(int seed, long i) {
        int x = (int) i * 0x9E3779B1 + seed * 40503;
        return (byte) ((x >>> 24) ^ (x >>> 8));
    }

    /** Writes the pattern over all of {@code seg}. */
    public static void fill(MemorySegment seg, int seed) {
        for (long i = 0, n = seg.byteSize(); i < n; i++) {
            seg.set(ValueLayout.JAVA_BYTE, i, at(seed, i));
        }
    }

    /** Writes the complement of the pattern, so that every byte differs from what is expected. */
    public static void poison(MemorySegment seg, int seed) {
        for (long i = 0, n = seg.byteSize(); i < n; i++) {
            seg.set(ValueLayout.JAVA_BYTE, i, (byte) ~at(seed, i));
        }
    }

    /** The first offset of {@code seg} that does not hold the pattern, or -1 if all do. */
    public static long firstMismatch(MemorySegment seg, int seed) {
        for (long i = 0, n = seg.byteSize(); i < n; i++) {
            if (seg.get(ValueLayout.JAVA_BYTE, i) != at(seed, i)) {
                return i;
            }
        }
        return -1;
    }
}
