/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Ping-pong with put-with-signal (half round trip), {@link PingPongBench}'s exchange done the way
 * a producer hands data to a consumer: PE 0 puts {@code --bytes} bytes (default 8) into PE 1's
 * buffer with {@code putSignal} (SHMEM_SIGNAL_SET of the round's number) and waits with
 * {@code signalWaitUntil} for PE 1 to do the same back. Rows {@code pingpong_signal}: the loop
 * average and, from a sampled pass timing every round trip, the median and p99, by the harness's
 * rules. Over UCX it measures the put-with-signal path (JSHMEM_UCX_PUT_SIGNAL); it has no OSHMEM
 * twin in {@code bench/c} and is not part of {@code bench/run.sh}.
 *
 * <p>{@code bin/oshrun -np 2 -cp shmem-bench/target/classes io.jshmem.bench.SignalPingPongBench [--quick] [--bytes N]}
 */
public final class SignalPingPongBench {
    private final Harness h;
    private final Shmem shmem;
    private final int me;
    private final int words;
    private final SymLongArray data;
    private final SymLongArray sig;
    private final long[] out;
    private long seq;
    private boolean corrupt;

    private SignalPingPongBench(Harness h, int bytes) {
        this.h = h;
        this.shmem = h.shmem();
        this.me = shmem.myPe();
        this.words = Math.max(1, bytes / 8);
        this.data = shmem.calloc(SymType.LONG, words);
        this.sig = shmem.calloc(SymType.LONG, 1);
        this.out = new long[words];
        this.corrupt = h.options().injectError();
    }

    public static void main(String[] args) {
        int bytes = 8;
        java.util.List<String> rest = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--bytes") && i + 1 < args.length) {
                bytes = Integer.parseInt(args[++i]);
            } else {
                rest.add(args[i]);
            }
        }
        try (Shmem shmem = Shmem.init()) {
            SignalPingPongBench b = new SignalPingPongBench(Harness.start(shmem, rest.toArray(String[]::new), 2, "SignalPingPongBench"),
                    bytes);
            b.h.measureWaits(b::rep, b.h.options().quick() ? 3 : 10, "pingpong_signal", 8L * b.words);
        }
    }

    private double rep(long iters) {
        long base = seq;
        double t = 0;
        shmem.barrierAll();
        if (me == 0 && h.sampling()) {
            for (long i = 1; i <= iters; i++) {
                double t0 = Harness.nowUs();
                exchange(base + i, 1, true);
                h.sample((Harness.nowUs() - t0) / 2);
            }
        } else if (me == 0) {
            double t0 = Harness.nowUs();
            for (long i = 1; i <= iters; i++) {
                exchange(base + i, 1, true);
            }
            t = (Harness.nowUs() - t0) / 2;
        } else if (me == 1) {
            for (long i = 1; i <= iters; i++) {
                exchange(base + i, 0, false);
            }
        }
        seq = base + iters;
        shmem.barrierAll();
        if (me <= 1) {
            long got = sig.get(0) + (corrupt && me == 1 ? 1 : 0);
            if (got != seq || data.get(words - 1) != seq) {
                h.fail("pingpong_signal: PE %d holds signal %d and data %d after %d round trips, expected %d"
                        .formatted(me, got, data.get(words - 1), iters, seq));
            }
        }
        corrupt = false;
        return t;
    }

    /** PE 0 (first) sends, then waits; PE 1 waits, then sends the same round back. */
    private void exchange(long round, int peer, boolean first) {
        if (first) {
            send(round, peer);
            shmem.signalWaitUntil(sig, 0, Cmp.EQ, round);
        } else {
            shmem.signalWaitUntil(sig, 0, Cmp.EQ, round);
            send(round, peer);
        }
    }

    private void send(long round, int peer) {
        out[words - 1] = round;
        shmem.putSignal(data, 0, out, 0, words, sig, 0, round, SignalOp.SET, peer);
    }
}
