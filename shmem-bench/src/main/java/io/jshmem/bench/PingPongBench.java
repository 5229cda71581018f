/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Ping-pong (half round trip, cross-PE visibility), as {@code bench/c/pingpong.c}: PE 0 writes the
 * next value into PE 1's flag with {@code p} and waits with {@code waitUntil} for PE 1 to write the
 * same value into PE 0's flag. The row is half a round trip: the loop average and, from a sampled
 * pass that times every round trip, the median and p99. Further PEs only join the barriers.
 *
 * <p>{@code bin/oshrun -np 2 -cp shmem-bench/target/classes io.jshmem.bench.PingPongBench [--quick]}
 */
public final class PingPongBench {
    private final Harness h;
    private final Shmem shmem;
    private final int me;
    /** Each of PEs 0 and 1 waits on its own copy. */
    private final SymLongArray flag;
    /** Last value exchanged, the same on PEs 0 and 1; values only grow, so flags are never reset. */
    private long seq;
    private boolean corrupt;

    private PingPongBench(Harness h) {
        this.h = h;
        this.shmem = h.shmem();
        this.me = shmem.myPe();
        this.flag = shmem.calloc(SymType.LONG, 1);
        this.corrupt = h.options().injectError();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            new PingPongBench(Harness.start(shmem, args, 2, "PingPongBench")).run();
        }
    }

    private void run() {
        h.measureWaits(this::rep, h.options().quick() ? 3 : 10, "pingpong", 8);
    }

    private double rep(long iters) {
        long base = seq;
        double t = 0;
        shmem.barrierAll();
        if (me == 0 && h.sampling()) {
            pingEach(base, iters);
        } else if (me == 0) {
            double t0 = Harness.nowUs();
            ping(base, iters);
            t = (Harness.nowUs() - t0) / 2;
        } else if (me == 1) {
            pong(base, iters);
        }
        seq = base + iters;
        shmem.barrierAll(); // completes PE 1's last put

        if (me <= 1) {
            long got = flag.get(0) + (corrupt && me == 1 ? 1 : 0);
            if (got != seq) {
                h.fail("pingpong: PE %d's flag is %d after %d round trips, expected %d".formatted(me, got, iters, seq));
            }
        }
        corrupt = false;
        return t;
    }

    // One loop per role, so that each is compiled on its own with nothing but the exchange inside.

    private void ping(long base, long iters) {
        for (long i = 1; i <= iters; i++) {
            shmem.p(flag, 0, base + i, 1);
            shmem.waitUntil(flag, 0, Cmp.EQ, base + i);
        }
    }

    /** The sampled pass: every round trip timed on its own, recorded as half of it. */
    private void pingEach(long base, long iters) {
        for (long i = 1; i <= iters; i++) {
            double t0 = Harness.nowUs();
            shmem.p(flag, 0, base + i, 1);
            shmem.waitUntil(flag, 0, Cmp.EQ, base + i);
            h.sample((Harness.nowUs() - t0) / 2);
        }
    }

    private void pong(long base, long iters) {
        for (long i = 1; i <= iters; i++) {
            shmem.waitUntil(flag, 0, Cmp.EQ, base + i);
            shmem.p(flag, 0, base + i, 0);
        }
    }
}
