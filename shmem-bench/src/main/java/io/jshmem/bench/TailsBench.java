/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.Arrays;
import java.util.Locale;

/**
 * Per-call tails of the waiting collectives where PEs may outnumber cores, as
 * {@code bench/c/tails.c}: barrier_all, broadcast of 8 B from PE 0 and a sum reduction of one
 * long, the data collectives alone (an untimed barrier_all between calls, as coll.c) and each with
 * the barrier_all after it timed together. Each operation runs {@code --warm} calls, then
 * {@code --calls} more; every call is timed on its own on every PE and the times of all PEs are
 * pooled on PE 0 after both (nothing runs between an operation's warm-up and its timed calls: the
 * pool is the run's first large put, and a JIT recompiles the quiet path it takes for the first
 * time, see bench/README.md "Tails"). Rows: {@code lat_p50_us}/{@code lat_p99_us} of the calls
 * after the warm-up (steady state) and {@code cold_p50_us}/{@code cold_p99_us} of the warm-up calls
 * themselves (for the first operation, barrier_all, the first calls after init: a JVM's
 * interpreter and JIT work land there). Counts, not timings, decide the warm-up, so both
 * implementations make the same calls. Every call's data is checked. Driven by
 * {@code bench/tails.sh}.
 *
 * <p>{@code bin/oshrun -np 8 -cp shmem-bench/target/classes io.jshmem.bench.TailsBench
 * [--transport L] [--warm W] [--calls M]}
 */
public final class TailsBench {
    private static final String USAGE = """
            usage: bin/oshrun -np N -cp shmem-bench/target/classes io.jshmem.bench.TailsBench \
            [--transport LABEL] [--warm W] [--calls M]
              --transport L   label for the CSV transport column (default: shm)
              --warm W        calls of each operation first, the cold rows (default 30000)
              --calls M       timed calls of each operation after them (default 3000)""";

    private enum Op {
        BARRIER("barrier_all", 0, false), BROADCAST("broadcast", 8, false), BROADCAST_BARRIER("broadcast+barrier_all", 8, true),
        SUM("sum_reduce", 8, false), SUM_BARRIER("sum_reduce+barrier_all", 8, true);

        final String name;
        final long bytes;
        final boolean withBarrier;

        Op(String name, long bytes, boolean withBarrier) {
            this.name = name;
            this.bytes = bytes;
            this.withBarrier = withBarrier;
        }
    }

    private final Shmem shmem;
    private final ShmemTeam world;
    private final int me;
    private final int npes;
    private final SymLongArray src;
    private final SymLongArray dst;
    /** Each warm-up call's time and each timed call's, in microseconds. */
    private final double[] warmTimes;
    private final double[] times;
    private final SymDoubleArray pooled;
    private long seq;

    private TailsBench(Shmem shmem, int warm, int calls) {
        this.shmem = shmem;
        this.world = shmem.teamWorld();
        this.me = shmem.myPe();
        this.npes = shmem.nPes();
        this.src = shmem.calloc(SymType.LONG, 1);
        this.dst = shmem.calloc(SymType.LONG, 1);
        this.warmTimes = new double[warm];
        this.times = new double[calls];
        this.pooled = shmem.calloc(SymType.DOUBLE, (long) Math.max(warm, calls) * npes);
    }

    public static void main(String[] args) {
        String transport = "shm";
        int warm = 30_000;
        int calls = 3_000;
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--transport" -> transport = args[++i];
                    case "--warm" -> warm = Integer.parseInt(args[++i]);
                    case "--calls" -> calls = Integer.parseInt(args[++i]);
                    case "-h", "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown argument: " + args[i]);
                }
            }
            if (warm < 1 || calls < 1) {
                throw new IllegalArgumentException("--warm and --calls must be at least 1");
            }
        } catch (RuntimeException e) { // a missing value, a bad number, an unknown option
            System.err.println("TailsBench: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
        }
        try (Shmem shmem = Shmem.init()) {
            TailsBench b = new TailsBench(shmem, warm, calls);
            for (Op op : Op.values()) {
                b.run(op, b.warmTimes);
                b.run(op, b.times);
                b.emit(transport, op, "cold", b.pool(b.warmTimes));
                b.emit(transport, op, "lat", b.pool(b.times));
            }
        }
    }

    /** Makes {@code into.length} calls of {@code op}, each timed into {@code into}. */
    private void run(Op op, double[] into) {
        for (int i = 0; i < into.length; i++) {
            long v = ++seq;
            src.set(0, v * 31 + me);
            double t0 = Harness.nowUs();
            switch (op) {
                case BARRIER -> shmem.barrierAll();
                case BROADCAST, BROADCAST_BARRIER -> world.broadcast(dst, src, 1, 0);
                case SUM, SUM_BARRIER -> world.sumReduce(dst, src, 1);
            }
            if (op.withBarrier) {
                shmem.barrierAll();
            }
            into[i] = Harness.nowUs() - t0;
            check(op, v);
            if (op != Op.BARRIER && !op.withBarrier) {
                shmem.barrierAll(); // untimed, as coll.c: the next call's source and dest are free
            }
        }
    }

    /** Pools every PE's {@code t} on PE 0; returns {p50, p99} of them all there. Collective. */
    private double[] pool(double[] t) {
        int n = t.length;
        shmem.put(pooled, (long) me * n, t, 0, n, 0);
        shmem.barrierAll();
        double[] p = new double[2];
        if (me == 0) {
            double[] all = new double[n * npes];
            for (int i = 0; i < all.length; i++) {
                all[i] = pooled.get(i);
            }
            Arrays.sort(all);
            p[0] = Harness.percentile(all, 0.50);
            p[1] = Harness.percentile(all, 0.99);
        }
        shmem.barrierAll(); // PE 0 has read the pool
        return p;
    }

    private void check(Op op, long v) {
        long want = switch (op) {
            case BARRIER -> 0;
            case BROADCAST, BROADCAST_BARRIER -> v * 31;
            case SUM, SUM_BARRIER -> v * 31 * npes + (long) npes * (npes - 1) / 2;
        };
        if (op != Op.BARRIER && (me != 0 || op == Op.SUM || op == Op.SUM_BARRIER) && dst.get(0) != want) {
            System.err.printf("TailsBench: %s call %d on PE %d: got %d, expected %d%n", op.name, v, me, dst.get(0), want);
            System.exit(1);
        }
    }

    private void emit(String transport, Op op, String kind, double[] p) {
        if (me == 0) {
            System.out.printf(Locale.ROOT, "jshmem,%s,%d,%s,%d,%s_p50_us,%.3f,us%n", transport, npes, op.name, op.bytes, kind, p[0]);
            System.out.printf(Locale.ROOT, "jshmem,%s,%d,%s,%d,%s_p99_us,%.3f,us%n", transport, npes, op.name, op.bytes, kind, p[1]);
            System.out.flush();
        }
    }
}
