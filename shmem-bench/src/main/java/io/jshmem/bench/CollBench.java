/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.ArrayList;
import java.util.List;

/**
 * Collectives over all PEs, as {@code bench/c/coll.c}: each PE times its own calls and the
 * reported latency is the per-call time averaged over all PEs; the median and p99 are those of the
 * per-call times of all PEs ({@link Harness#measureWaits}). Every data collective is measured
 * alone (an untimed barrier between calls) and with the following barrier_all (op
 * {@code <op>+barrier_all}, the barrier inside the timed call).
 *
 * <p>{@code bin/oshrun -np 4 -cp shmem-bench/target/classes io.jshmem.bench.CollBench [--quick]}
 */
public final class CollBench {
    /** Largest message: 64 KiB per PE (or per PE pair), as coll.c. */
    private static final long MAX_ELEMS = 65536 / 8;

    private final Harness h;
    private final Shmem shmem;
    /** Per-PE time sums, gathered on PE 0. */
    private final SymDoubleArray times;
    private int seed = 1; // advanced every repetition
    private boolean corrupt;

    private CollBench(Harness h) {
        this.h = h;
        this.shmem = h.shmem();
        this.times = shmem.calloc(SymType.DOUBLE, shmem.nPes());
        this.corrupt = h.options().injectError();
    }

    /** The cases measured, in order. */
    private List<Collective> plan() {
        long n = MAX_ELEMS * shmem.nPes();
        SymLongArray src = shmem.calloc(SymType.LONG, n);
        SymLongArray dst = shmem.calloc(SymType.LONG, n);
        List<Collective> plan = new ArrayList<>();
        plan.add(new BarrierAll(h));
        for (DataCollective.Kind kind : DataCollective.Kind.values()) {
            for (long bytes : new long[] {8, 65536}) {
                plan.add(new DataCollective(h, kind, bytes, false, src, dst));
                plan.add(new DataCollective(h, kind, bytes, true, src, dst));
            }
        }
        return plan;
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            new CollBench(Harness.start(shmem, args, 1, "CollBench")).run();
        }
    }

    private void run() {
        for (Collective c : plan()) {
            h.measureWaits(iters -> rep(c, iters), h.options().quick() ? 3 : 10, c.op(), c.bytes());
        }
    }

    /** Value that PE p contributes for peer q at element j in repetition seed (coll.c's val). */
    static long value(int seed, int p, int q, long j) {
        return ((long) seed << 40) ^ ((long) p << 28) ^ ((long) q << 20) ^ j;
    }

    private double rep(Collective c, long iters) {
        int s = seed++;
        c.prepare(s);
        shmem.barrierAll();
        double elapsed = c.time(iters);
        c.verify(s, corrupt);
        corrupt = false;

        int me = shmem.myPe();
        shmem.p(times, me, elapsed, 0);
        shmem.barrierAll();
        if (me != 0) {
            return 0;
        }
        double sum = 0;
        for (int pe = 0; pe < shmem.nPes(); pe++) {
            sum += times.get(pe);
        }
        return sum / shmem.nPes();
    }
}
