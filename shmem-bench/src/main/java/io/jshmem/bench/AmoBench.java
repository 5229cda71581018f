/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Atomic memory operations on a long on PE 1, driven by PE 0, as {@code bench/c/amo.c}: latency of
 * fetch_add, add (+ quiet), compare_swap and swap; rate of back-to-back fetch_adds and of a stream
 * of adds with one quiet at the end. Further PEs only join the barriers. The latencies also get a
 * sampled pass ({@link Harness#percentiles}): every operation timed on its own, for the per-call
 * median and p99 that the targets judge.
 *
 * <p>{@code bin/oshrun -np 2 -cp shmem-bench/target/classes io.jshmem.bench.AmoBench [--quick]}
 */
public final class AmoBench {
    private enum Kind {
        FETCH_ADD("fetch_add"), ADD("add"), COMPARE_SWAP("compare_swap"), SWAP("swap"), ADD_STREAM("add");

        final String op;

        Kind(String op) {
            this.op = op;
        }
    }

    private final Harness h;
    private final Shmem shmem;
    private final int me;
    private final SymLongArray counter; // only PE 1's copy is the target
    private boolean corrupt;
    /** First wrong value returned by a fetching operation in this repetition (PE 0), or -1. */
    private long badAt;
    private long badValue;

    private AmoBench(Harness h) {
        this.h = h;
        this.shmem = h.shmem();
        this.me = shmem.myPe();
        this.counter = shmem.calloc(SymType.LONG, 1);
        this.corrupt = h.options().injectError();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            new AmoBench(Harness.start(shmem, args, 2, "AmoBench")).run();
        }
    }

    private void run() {
        for (Kind kind : Kind.values()) {
            measure(kind);
        }
    }

    private void measure(Kind kind) {
        Rep rep = iters -> rep(kind, iters);
        double t = h.measure(rep, h.options().quick() ? 3 : 10);
        if (kind == Kind.ADD_STREAM) {
            h.emit(kind.op, 8, Metric.RATE, 1 / t);
            return;
        }
        h.emit(kind.op, 8, Metric.LATENCY, t);
        if (kind == Kind.FETCH_ADD) {
            // Back-to-back fetch_adds: the rate is the inverse latency of the same loop (the
            // median commutes with 1/x for an odd number of repetitions).
            h.emit(kind.op, 8, Metric.RATE, 1 / t);
        }
        double[] p = h.percentiles(rep);
        h.emit(kind.op, 8, Metric.LATENCY_P50, p[0]);
        h.emit(kind.op, 8, Metric.LATENCY_P99, p[1]);
    }

    /**
     * One repetition. Every operation is arranged so that after i of them the counter is exactly i;
     * PE 0 checks each fetched value, PE 1 the final count.
     */
    private double rep(Kind kind, long iters) {
        if (me == 1) {
            counter.set(0, 0);
        }
        shmem.barrierAll();

        double t = 0;
        if (me == 0) {
            badAt = -1;
            double t0 = Harness.nowUs();
            if (h.sampling()) {
                sampled(kind, iters);
            } else {
                switch (kind) {
                    case FETCH_ADD -> fetchAdd(iters);
                    case ADD -> addQuiet(iters);
                    case COMPARE_SWAP -> compareSwap(iters);
                    case SWAP -> swap(iters);
                    case ADD_STREAM -> addStream(iters);
                }
            }
            t = Harness.nowUs() - t0;
            if (badAt >= 0) {
                h.fail("amo %s: op %d returned %d, expected %d".formatted(kind.op, badAt, badValue, badAt));
            }
        }
        shmem.barrierAll();

        if (me == 1) {
            if (corrupt) {
                counter.set(0, counter.get(0) + 1);
            }
            long got = counter.get(0);
            if (got != iters) {
                h.fail("amo %s: counter is %d after %d ops, expected %d".formatted(kind.op, got, iters, iters));
            }
        }
        corrupt = false;
        return t;
    }

    /** Records the first fetched value that differs from the expected one. */
    private void check(long i, long old) {
        if (old != i && badAt < 0) {
            badAt = i;
            badValue = old;
        }
    }

    private void fetchAdd(long iters) {
        for (long i = 0; i < iters; i++) {
            check(i, shmem.atomicFetchAdd(counter, 0, 1, 1));
        }
    }

    private void addQuiet(long iters) {
        for (long i = 0; i < iters; i++) {
            shmem.atomicAdd(counter, 0, 1, 1);
            shmem.quiet();
        }
    }

    private void compareSwap(long iters) {
        for (long i = 0; i < iters; i++) {
            check(i, shmem.atomicCompareSwap(counter, 0, i, i + 1, 1));
        }
    }

    private void swap(long iters) {
        for (long i = 0; i < iters; i++) {
            check(i, shmem.atomicSwap(counter, 0, i + 1, 1));
        }
    }

    private void addStream(long iters) {
        for (long i = 0; i < iters; i++) {
            shmem.atomicAdd(counter, 0, 1, 1);
        }
        shmem.quiet();
    }

    /** The sampled pass: every operation timed on its own (the latency kinds only); checked after its time. */
    private void sampled(Kind kind, long iters) {
        for (long i = 0; i < iters; i++) {
            double t0 = Harness.nowUs();
            long old = i;
            switch (kind) {
                case FETCH_ADD -> old = shmem.atomicFetchAdd(counter, 0, 1, 1);
                case ADD -> {
                    shmem.atomicAdd(counter, 0, 1, 1);
                    shmem.quiet();
                }
                case COMPARE_SWAP -> old = shmem.atomicCompareSwap(counter, 0, i, i + 1, 1);
                case SWAP -> old = shmem.atomicSwap(counter, 0, i + 1, 1);
                case ADD_STREAM -> throw new IllegalStateException("add_stream has no per-call pass");
            }
            h.sample(Harness.nowUs() - t0);
            check(i, old);
        }
    }
}
