/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * barrier_all, timed back to back (and call by call in the sampled pass); verified by checking
 * that it completes earlier puts.
 */
final class BarrierAll implements Collective {
    private final Harness h;
    private final Shmem shmem;
    /** One slot per PE on PE 0, written by every PE before a barrier. */
    private final SymLongArray slots;

    BarrierAll(Harness h) {
        this.h = h;
        this.shmem = h.shmem();
        this.slots = shmem.calloc(SymType.LONG, shmem.nPes());
    }

    @Override
    public String op() {
        return "barrier_all";
    }

    @Override
    public long bytes() {
        return 0;
    }

    @Override
    public void prepare(int seed) {
        // a barrier moves no data
    }

    @Override
    public double time(long iters) {
        if (h.sampling()) {
            return timeEach(iters);
        }
        double t0 = Harness.nowUs();
        for (long i = 0; i < iters; i++) {
            shmem.barrierAll();
        }
        return Harness.nowUs() - t0;
    }

    /** The sampled pass: every barrier timed on its own. */
    private double timeEach(long iters) {
        double acc = 0;
        for (long i = 0; i < iters; i++) {
            double t0 = Harness.nowUs();
            shmem.barrierAll();
            double dt = Harness.nowUs() - t0;
            h.sample(dt);
            acc += dt;
        }
        return acc;
    }

    @Override
    public void verify(int seed, boolean corrupt) {
        int me = shmem.myPe();
        int npes = shmem.nPes();
        for (int round = 0; round < 3; round++) {
            long tag = CollBench.value(seed, 0, 0, round);
            shmem.p(slots, me, tag + me, 0);
            shmem.barrierAll();
            if (me == 0) {
                for (int pe = 0; pe < npes; pe++) {
                    long got = slots.get(pe) - (corrupt && pe == npes - 1 ? 1 : 0);
                    if (got != tag + pe) {
                        h.fail("coll barrier_all: PE %d's put before the barrier reads %d, expected %d"
                                .formatted(pe, got, tag + pe));
                    }
                }
            }
            shmem.barrierAll();
        }
    }
}
