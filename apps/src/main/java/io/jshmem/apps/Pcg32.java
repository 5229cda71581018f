/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

/**
 * The PCG32 generator of ISx ({@code pcg_basic.c}, the minimal C implementation of PCG by
 * M. O'Neill): the same seeding, step and bounded draw, so that a PE's keys are the same in the
 * Java and the C program. Java's {@code long} arithmetic wraps like C's {@code uint64_t}; the
 * 32-bit results are compared and divided as unsigned.
 */
final class Pcg32 {
    private long state;
    private long inc;

    /** pcg32_srandom_r(rng, initstate, initseq). */
    Pcg32(long initstate, long initseq) {
        state = 0L;
        inc = (initseq << 1) | 1L;
        next();
        state += initstate;
        next();
    }

    /** pcg32_random_r: a uniformly distributed 32-bit number (as an int's bits). */
    int next() {
        long oldstate = state;
        state = oldstate * 6364136223846793005L + inc;
        int xorshifted = (int) (((oldstate >>> 18) ^ oldstate) >>> 27);
        int rot = (int) (oldstate >>> 59);
        return Integer.rotateRight(xorshifted, rot);
    }

    /** pcg32_boundedrand_r: uniform in [0, bound), bound taken as unsigned 32-bit. */
    int bounded(int bound) {
        // drop outputs below (2^32 - bound) % bound so that the range is a multiple of bound
        int threshold = Integer.remainderUnsigned(-bound, bound);
        for (;;) {
            int r = next();
            if (Integer.compareUnsigned(r, threshold) >= 0) {
                return Integer.remainderUnsigned(r, bound);
            }
        }
    }
}
