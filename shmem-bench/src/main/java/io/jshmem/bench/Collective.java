/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

/**
 * One collective benchmark case (an operation at one size, over all PEs), run by {@link CollBench}
 * as {@code bench/c/coll.c} does: {@link #prepare}, then {@link #time}, then {@link #verify}, all
 * collective.
 */
interface Collective {
    /** The CSV op column, shared with the C side (e.g. {@code barrier_all}, {@code broadcast}). */
    String op();

    /** The CSV bytes column (as in coll.c: total, per PE or per PE pair, depending on the op). */
    long bytes();

    /** Sets this repetition's inputs from {@code seed} and poisons the outputs, so stale data fails. */
    void prepare(int seed);

    /**
     * Runs {@code iters} calls; returns this PE's time for them in microseconds. As in the OSU
     * tests, data-moving collectives time each call on its own and separate calls with an untimed
     * barrier (or, in their {@code +barrier_all} rows, time each call together with the barrier
     * after it); barrier_all is timed as a back-to-back loop. In the sampled pass
     * ({@link Harness#sampling()}) every call is timed on its own and {@link Harness#sample}d.
     */
    double time(long iters);

    /** Checks this PE's result of the last call; {@code corrupt} spoils it once (--inject-error). */
    void verify(int seed, boolean corrupt);
}
