/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SymByteArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * Time to steady state, as {@code bench/c/steady.c}: right after init, the first {@value #CALLS}
 * calls of put (8 B + quiet, PE 0 to PE 1), then of barrier_all, then of a sum reduction of one
 * long over all PEs (an untimed barrier after each, as coll.c), every call timed on its own on PE
 * 0. Then each operation is warmed up by the harness's rule ({@link Harness#measure}) and
 * {@value #CALLS} more calls give the steady-state median. Rows (PE 0's times): {@code
 * first1000_us} (the first {@value #CALLS} calls together), {@code first100_p50_us}, {@code
 * steady_p50_us} and {@code calls_to_steady}: the calls after init until the median of the last
 * {@value #WINDOW} came within {@value #WITHIN}x of the steady-state median ({@value #CALLS} + 1 if
 * it never did). A JVM pays here for the interpreter, class loading and compilation that the other
 * rows warm away.
 *
 * <p>{@code bin/oshrun -np 2 -cp shmem-bench/target/classes io.jshmem.bench.SteadyBench [--quick]}
 */
public final class SteadyBench {
    static final int CALLS = 1000;
    static final int WINDOW = 25;
    static final double WITHIN = 1.2;

    private enum Op {
        PUT("put", 8), BARRIER("barrier_all", 0), SUM_REDUCE("sum_reduce", 8);

        final String name;
        final long bytes;

        Op(String name, long bytes) {
            this.name = name;
            this.bytes = bytes;
        }
    }

    private final Harness h;
    private final Shmem shmem;
    private final ShmemTeam world;
    private final int me;
    private final SymByteArray sbuf;
    private final SymByteArray rbuf;
    private final SymLongArray rsrc;
    private final SymLongArray rdst;
    private final MemorySegment src;
    /** Calls of each operation so far, the same on every PE: puts write it, reductions sum from it. */
    private long seq;
    /** The value of the last put (on every PE, for PE 1's check). */
    private long lastPut;
    private boolean corrupt;

    private SteadyBench(Harness h) {
        this.h = h;
        this.shmem = h.shmem();
        this.world = shmem.teamWorld();
        this.me = shmem.myPe();
        this.sbuf = shmem.calloc(SymType.BYTE, 8);
        this.rbuf = shmem.calloc(SymType.BYTE, 8);
        this.rsrc = shmem.calloc(SymType.LONG, 1);
        this.rdst = shmem.calloc(SymType.LONG, 1);
        this.src = sbuf.local().asSlice(0, 8);
        this.corrupt = h.options().injectError();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            new SteadyBench(Harness.start(shmem, args, 2, "SteadyBench")).run();
        }
    }

    private void run() {
        Op[] ops = Op.values();
        double[][] first = new double[ops.length][CALLS];
        for (Op op : ops) {
            calls(op, CALLS, first[op.ordinal()]);
        }
        checkPuts();
        for (Op op : ops) {
            Rep rep = iters -> rep(op, iters);
            h.measure(rep, h.options().quick() ? 3 : 10);
            double[] steady = new double[CALLS];
            shmem.barrierAll();
            calls(op, CALLS, steady);
            shmem.barrierAll();
            if (me == 0) {
                emit(op, first[op.ordinal()], steady);
            }
        }
        checkPuts();
    }

    private void emit(Op op, double[] first, double[] steady) {
        double total = 0;
        for (double t : first) {
            total += t;
        }
        double steadyP50 = Harness.median(steady.clone());
        h.emit(op.name, op.bytes, Metric.FIRST1000, total);
        h.emit(op.name, op.bytes, Metric.FIRST100_P50, Harness.median(Arrays.copyOf(first, 100)));
        h.emit(op.name, op.bytes, Metric.STEADY_P50, steadyP50);
        h.emit(op.name, op.bytes, Metric.TO_STEADY, callsToSteady(first, steadyP50));
    }

    /**
     * The calls until the median of the last {@value #WINDOW} is within {@value #WITHIN}x of
     * {@code steadyP50}; {@code first.length + 1} if that never happens (bench/c/steady.c's
     * calls_to_steady).
     */
    static int callsToSteady(double[] first, double steadyP50) {
        double[] window = new double[WINDOW];
        for (int i = WINDOW; i <= first.length; i++) {
            System.arraycopy(first, i - WINDOW, window, 0, WINDOW);
            if (Harness.median(window) <= WITHIN * steadyP50) {
                return i;
            }
        }
        return first.length + 1;
    }

    /** A warm-up repetition for {@link Harness#measure}: PE 0's time of {@code iters} calls. */
    private double rep(Op op, long iters) {
        shmem.barrierAll();
        double t = calls(op, iters, null);
        shmem.barrierAll();
        checkPuts();
        return me == 0 ? t : 0;
    }

    /**
     * {@code n} calls of {@code op}, each timed on its own into {@code record} (if not null);
     * returns their sum. The put's value and the reduction's input are set outside the timed part.
     */
    private double calls(Op op, long n, double[] record) {
        double acc = 0;
        int npes = shmem.nPes();
        for (long i = 0; i < n; i++) {
            long s = ++seq;
            double dt = 0;
            switch (op) {
                case PUT -> {
                    lastPut = s;
                    if (me == 0) {
                        src.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, s);
                        double t0 = Harness.nowUs();
                        shmem.putmem(rbuf, 0, src, 1);
                        shmem.quiet();
                        dt = Harness.nowUs() - t0;
                    }
                }
                case BARRIER -> {
                    double t0 = Harness.nowUs();
                    shmem.barrierAll();
                    dt = Harness.nowUs() - t0;
                }
                case SUM_REDUCE -> {
                    rsrc.set(0, s * 1000003 + me);
                    double t0 = Harness.nowUs();
                    world.sumReduce(rdst, rsrc, 1);
                    dt = Harness.nowUs() - t0;
                    shmem.barrierAll();
                    long want = npes * s * 1000003 + (long) npes * (npes - 1) / 2;
                    if (rdst.get(0) != want) {
                        h.fail("steady sum_reduce: call %d gave %d, expected %d".formatted(s, rdst.get(0), want));
                    }
                }
            }
            if (record != null) {
                record[(int) i] = dt;
            }
            acc += dt;
        }
        return acc;
    }

    /** PE 1's buffer holds PE 0's last put (the first check spoils it once with --inject-error). Collective. */
    private void checkPuts() {
        shmem.barrierAll(); // completes PE 0's puts
        if (me == 1) {
            long got = rbuf.local().get(ValueLayout.JAVA_LONG_UNALIGNED, 0) + (corrupt ? 1 : 0);
            if (got != lastPut) {
                h.fail("steady put: PE 1 holds %d, expected %d".formatted(got, lastPut));
            }
        }
        corrupt = false;
        shmem.barrierAll();
    }
}
