/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HeapAllocatorTest {

    @Test
    void allocationsAreAlignedAndDisjoint() {
        HeapAllocator a = new HeapAllocator(4096, 1 << 20);
        long x = a.allocate(10, 1);
        long y = a.allocate(100, 1);
        long z = a.allocate(8, 4096);
        assertEquals(4096, x);
        assertEquals(0, x % 64);
        assertEquals(0, y % 64);
        assertTrue(y >= x + 64);
        assertEquals(0, z % 4096);
        assertTrue(z >= y + 128);
    }

    @Test
    void freeCoalescesSoTheWholeHeapIsAvailableAgain() {
        HeapAllocator a = new HeapAllocator(0, 64 * 100);
        List<Long> blocks = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            blocks.add(a.allocate(64, 64));
        }
        assertEquals(-1, a.allocate(1, 64));
        for (int i = 0; i < 100; i += 2) {
            a.free(blocks.get(i));
        }
        assertEquals(64, a.largestFree());
        for (int i = 1; i < 100; i += 2) {
            a.free(blocks.get(i));
        }
        assertEquals(64 * 100, a.largestFree());
        assertEquals(0, a.allocate(64 * 100, 64));
    }

    @Test
    void sameSequenceGivesSameOffsets() {
        // Symmetry: two PEs running the same calls must get identical offsets.
        long[] first = run(new HeapAllocator(0, 1 << 24), 7);
        long[] second = run(new HeapAllocator(0, 1 << 24), 7);
        assertEquals(java.util.Arrays.toString(first), java.util.Arrays.toString(second));
    }

    private static long[] run(HeapAllocator a, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Long> live = new ArrayList<>();
        long[] trace = new long[500];
        for (int i = 0; i < trace.length; i++) {
            if (!live.isEmpty() && r.nextInt(3) == 0) {
                a.free(live.remove(r.nextInt(live.size())));
                trace[i] = -2;
            } else {
                long off = a.allocate(1 + r.nextInt(5000), 1L << r.nextInt(13));
                if (off >= 0) {
                    live.add(off);
                }
                trace[i] = off;
            }
        }
        return trace;
    }

    @Test
    void resizeInPlaceGrowsIntoFollowingFreeSpaceAndShrinks() {
        HeapAllocator a = new HeapAllocator(0, 64 * 10);
        long x = a.allocate(64, 64);
        long y = a.allocate(64, 64);
        assertFalse(a.resizeInPlace(x, 128), "y is in the way");
        a.free(y);
        assertTrue(a.resizeInPlace(x, 200));
        assertEquals(256, a.blockSize(x));
        assertTrue(a.resizeInPlace(x, 64));
        assertEquals(64 * 9, a.totalFree());
    }

    /** Sizes near Long.MAX_VALUE wrapped around when rounded up, and the free list was corrupted for good. */
    @Test
    void aHugeRequestFailsAndLeavesTheHeapUsable() {
        HeapAllocator a = new HeapAllocator(4096, 1 << 20);
        long x = a.allocate(64, 1);
        for (long huge : new long[] {Long.MAX_VALUE, Long.MAX_VALUE - 62, (1L << 60) * 8 - 8, (1 << 20) + 1}) {
            assertEquals(-1, a.allocate(huge, 1), "allocate " + huge);
            assertFalse(a.resizeInPlace(x, huge), "resize to " + huge);
        }
        assertEquals(-1, a.allocate(64, Long.MIN_VALUE >>> 1), "an alignment larger than the heap");
        assertEquals((1 << 20) - 64, a.totalFree());
        assertEquals(64, a.blockSize(x));
        assertTrue(a.allocate(32, 1) >= 0, "a small allocation still fits");
    }

    @Test
    void freeingAnUnknownOffsetIsRejected() {
        HeapAllocator a = new HeapAllocator(0, 4096);
        assertThrows(IllegalArgumentException.class, () -> a.free(64));
    }
}
