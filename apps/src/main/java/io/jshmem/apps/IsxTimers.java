/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

/**
 * ISx's timers ({@code timer.c}): per timer, one duration (and optionally one count) per timed
 * iteration, measured with the monotonic clock; reset after the burn-in iteration.
 */
final class IsxTimers {
    static final int TOTAL = 0;
    static final int ATA_KEYS = 1;
    static final int INPUT = 2;
    static final int BCOUNT = 3;
    static final int BUCKETIZE = 4;
    static final int BOFFSET = 5;
    static final int SORT = 6;
    static final int NTIMERS = 7;
    static final String[] NAMES = {"TOTAL", "ATA_KEYS", "MAKE_INPUT", "COUNT_BUCKET_SIZES", "BUCKETIZE",
        "COMPUTE_OFFSETS", "LOCAL_SORT"};

    final double[][] seconds = new double[NTIMERS][];
    final int[][] count = new int[NTIMERS][];
    final int[] secondsIter = new int[NTIMERS];
    final int[] countIter = new int[NTIMERS];
    private final long[] start = new long[NTIMERS];
    private final int numIters;

    IsxTimers(int numIters) {
        this.numIters = numIters;
        for (int t = 0; t < NTIMERS; t++) {
            seconds[t] = new double[numIters];
            count[t] = new int[numIters];
        }
    }

    /** init_timers after the first call: every timer back to no iterations recorded. */
    void reset() {
        for (int t = 0; t < NTIMERS; t++) {
            java.util.Arrays.fill(seconds[t], 0.0);
            java.util.Arrays.fill(count[t], 0);
            secondsIter[t] = 0;
            countIter[t] = 0;
        }
    }

    void start(int t) {
        start[t] = System.nanoTime();
    }

    void stop(int t) {
        long stop = System.nanoTime();
        // The burn-in iteration records one more value than the arrays hold when numIters is 0:
        // C writes past its malloc'd array there; here the value is dropped.
        if (secondsIter[t] < numIters) {
            seconds[t][secondsIter[t]] = (stop - start[t]) * 1e-9;
        }
        secondsIter[t]++;
    }

    void count(int t, int val) {
        if (countIter[t] < numIters) {
            count[t][countIter[t]] = val;
        }
        countIter[t]++;
    }
}
