/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HarnessTest {
    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, Harness.median(new double[] {3, 1, 2}));
        assertEquals(2.5, Harness.median(new double[] {4, 1, 3, 2}));
    }

    @Test
    void nearestRankPercentiles() {
        double[] v = new double[200];
        for (int i = 0; i < v.length; i++) {
            v[i] = i + 1;
        }
        assertEquals(100.0, Harness.percentile(v, 0.50));
        assertEquals(198.0, Harness.percentile(v, 0.99));
        assertEquals(7.0, Harness.percentile(new double[] {7}, 0.99));
    }

    @Test
    void patternMatchesBenchCommonH() {
        // bench_pattern(seed, i) in C: x = i * 2654435761u + seed * 40503u; (uint8_t)(x >> 24 ^ x >> 8)
        for (int seed : new int[] {1, 7, 1000}) {
            for (long i : new long[] {0, 1, 2047, 1048575}) {
                long x = (i * 2654435761L + seed * 40503L) & 0xFFFFFFFFL;
                assertEquals((byte) ((x >> 24) ^ (x >> 8)), Pattern.at(seed, i), "seed " + seed + " i " + i);
            }
        }
    }

    @Test
    void callsToSteadyIsWhereTheMovingMedianFirstComesWithinTheBound() {
        double[] first = new double[1000];
        for (int i = 0; i < first.length; i++) {
            first[i] = i < 100 ? 50 : 1; // 100 slow calls, then steady at 1 us
        }
        // The median of the last 25 calls drops to 1 once 13 of them are fast: call 113.
        assertEquals(113, SteadyBench.callsToSteady(first, 1.0));
        assertEquals(113, SteadyBench.callsToSteady(first, 1.0 / 1.2));
        assertEquals(1001, SteadyBench.callsToSteady(first, 0.5)); // never within 1.2x of 0.5
        first[0] = 100; // already steady from the start: the first full window
        java.util.Arrays.fill(first, 1);
        assertEquals(25, SteadyBench.callsToSteady(first, 1.0));
    }
}
