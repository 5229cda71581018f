/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.SymByteArray;
import io.jshmem.SymType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * RMA benchmarks, as {@code bench/c/rma.c}: put/get latency (blocking putmem + quiet, getmem),
 * put/get bandwidth (windows of {@value #WINDOW} putmemNbi/getmemNbi, then quiet) and the 8-byte
 * nbi put message rate. PE 0 drives, PE 1 is the target; further PEs only join the barriers. At
 * 8 B and 1 MiB a sampled pass follows ({@link Harness#percentiles}): every call (latency) or
 * window (bandwidth) timed on its own, for the per-call median and p99 that the targets judge.
 *
 * <p>{@code bin/oshrun -np 2 -cp shmem-bench/target/classes io.jshmem.bench.RmaBench [--quick]}
 */
public final class RmaBench {
    /** Message sizes of the latency and bandwidth tests (bench_sizes). */
    private static final long[] SIZES = {8, 64, 512, 4096, 32768, 262144, 1048576};
    /** nbi operations issued before each quiet. */
    private static final int WINDOW = 64;
    private static final long MAX_SIZE = 1048576;
    /**
     * The destination starts half a page after the source's page offset, as in rma.c: 4 KiB-aliased
     * buffers make large copies 10-20x slower on this AMD EPYC machine, which would measure a CPU
     * quirk instead of the library.
     */
    private static final long SKEW = 2048;

    private enum Kind {
        PUT_LAT("put", true, true), GET_LAT("get", false, true), PUT_BW("put", true, false), GET_BW("get", false, false);

        final String op;
        final boolean put;
        final boolean latency;

        Kind(String op, boolean put, boolean latency) {
            this.op = op;
            this.put = put;
            this.latency = latency;
        }
    }

    private final Harness h;
    private final Shmem shmem;
    private final int me;
    /** Puts go from PE 0's sbuf to PE 1's rbuf; gets read PE 1's sbuf into PE 0's rbuf. */
    private final SymByteArray sbuf;
    private final SymByteArray rbuf;
    private int seed = 1; // advanced every repetition
    private boolean corrupt;

    private RmaBench(Harness h) {
        this.h = h;
        this.shmem = h.shmem();
        this.me = shmem.myPe();
        // Page-aligned, so that SKEW alone sets the two buffers' relative offset within a page.
        this.sbuf = shmem.align(4096, SymType.BYTE, MAX_SIZE + 4096);
        this.rbuf = shmem.align(4096, SymType.BYTE, MAX_SIZE + 4096);
        this.corrupt = h.options().injectError();
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            new RmaBench(Harness.start(shmem, args, 2, "RmaBench")).run();
        }
    }

    private void run() {
        for (Kind kind : Kind.values()) {
            for (long size : SIZES) {
                measure(kind, size);
            }
        }
    }

    private void measure(Kind kind, long n) {
        // A bandwidth iteration is already WINDOW operations (64 MiB at 1 MiB).
        long minIters = kind.latency ? (h.options().quick() ? 3 : 10) : 1;
        Rep rep = iters -> rep(kind, n, iters);
        double t = h.measure(rep, minIters);
        if (kind.latency) {
            h.emit(kind.op, n, Metric.LATENCY, t);
        } else {
            // t is per window of WINDOW operations; bytes per microsecond = MB/s.
            h.emit(kind.op, n, Metric.BANDWIDTH, WINDOW * (double) n / t);
            if (kind == Kind.PUT_BW && n == 8) {
                h.emit(kind.op, n, Metric.RATE, WINDOW / t);
            }
        }
        if (n == SIZES[0] || n == MAX_SIZE) { // the sizes that carry targets, as rma.c
            double[] p = h.percentiles(rep);
            if (kind.latency) {
                h.emit(kind.op, n, Metric.LATENCY_P50, p[0]);
                h.emit(kind.op, n, Metric.LATENCY_P99, p[1]);
            } else {
                h.emit(kind.op, n, Metric.BW_P50, WINDOW * (double) n / p[0]);
                h.emit(kind.op, n, Metric.BW_P99, WINDOW * (double) n / p[1]);
            }
        }
    }

    /** One repetition: poison the destination, move the data, check it on the destination PE. */
    private double rep(Kind kind, long n, long iters) {
        int s = seed++;
        int srcPe = kind.put ? 0 : 1;
        int dstPe = kind.put ? 1 : 0;
        MemorySegment src = sbuf.local().asSlice(0, n);
        MemorySegment dst = rbuf.local().asSlice(SKEW, n);
        if (me == srcPe) {
            Pattern.fill(src, s);
        }
        if (me == dstPe) {
            Pattern.poison(dst, s);
        }
        shmem.barrierAll();

        double t = 0;
        if (me == 0) {
            double t0 = Harness.nowUs();
            if (h.sampling()) {
                sampled(kind, src, dst, iters);
            } else {
                switch (kind) {
                    case PUT_LAT -> putLatency(src, iters);
                    case GET_LAT -> getLatency(dst, iters);
                    case PUT_BW -> putWindows(src, iters);
                    case GET_BW -> getWindows(dst, iters);
                }
            }
            t = Harness.nowUs() - t0;
        }
        shmem.barrierAll(); // completes the puts, so PE 1 may now read rbuf

        if (me == dstPe) {
            if (corrupt) {
                dst.set(ValueLayout.JAVA_BYTE, n / 2, (byte) ~Pattern.at(s, n / 2));
            }
            long bad = Pattern.firstMismatch(dst, s);
            if (bad >= 0) {
                h.fail("rma %s %s %d B: byte %d is wrong".formatted(kind.op, kind.latency ? "lat" : "bw", n, bad));
            }
        }
        corrupt = false;
        return t;
    }

    // One loop per kind, so that each is compiled on its own with nothing but the operation inside.

    private void putLatency(MemorySegment src, long iters) {
        for (long i = 0; i < iters; i++) {
            shmem.putmem(rbuf, SKEW, src, 1);
            shmem.quiet();
        }
    }

    private void getLatency(MemorySegment dst, long iters) {
        for (long i = 0; i < iters; i++) {
            shmem.getmem(dst, sbuf, 0, 1);
        }
    }

    private void putWindows(MemorySegment src, long iters) {
        for (long i = 0; i < iters; i++) {
            for (int w = 0; w < WINDOW; w++) {
                shmem.putmemNbi(rbuf, SKEW, src, 1);
            }
            shmem.quiet();
        }
    }

    private void getWindows(MemorySegment dst, long iters) {
        for (long i = 0; i < iters; i++) {
            for (int w = 0; w < WINDOW; w++) {
                shmem.getmemNbi(dst, sbuf, 0, 1);
            }
            shmem.quiet();
        }
    }

    /** The sampled pass: every call (latency) or window and its quiet (bandwidth) timed on its own. */
    private void sampled(Kind kind, MemorySegment src, MemorySegment dst, long iters) {
        for (long i = 0; i < iters; i++) {
            double t0 = Harness.nowUs();
            switch (kind) {
                case PUT_LAT -> putLatency(src, 1);
                case GET_LAT -> getLatency(dst, 1);
                case PUT_BW -> putWindows(src, 1);
                case GET_BW -> getWindows(dst, 1);
            }
            h.sample(Harness.nowUs() - t0);
        }
    }
}
