/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.Arrays;
import java.util.Locale;

/**
 * The measurement method of {@code bench/c/bench_common.h}, in Java: calibrate the iteration count
 * with untimed warm-up repetitions, warm up by iteration count, time {@link BenchOptions#reps()}
 * repetitions, report the median per-iteration value (and per-call percentiles for operations that
 * wait, {@link #measureWaits}) as a CSV row {@code jshmem,transport,pes,op,bytes,metric,value,unit} (PE 0
 * only). Keeping the two sides identical is what makes the jshmem/oshmem ratios meaningful.
 */
public final class Harness {
    /** Upper bound on iterations per repetition (BENCH_MAX_ITERS). */
    private static final long MAX_ITERS = 2_000_000L;
    /** Warm-up rule, see {@link #warmUp} (BENCH_WARMUP_ITERS, BENCH_QUIET_REPS, BENCH_MAX_WARMUP_REPS). */
    private static final long WARMUP_ITERS = 200_000;
    private static final int QUIET_REPS = 3;
    private static final int MAX_WARMUP_REPS = 100;
    /** Warm-up budget in targets of timed work: bounds the warm-up of slow operations (UCX). */
    private static final int WARMUP_BUDGET_TARGETS = 40;
    /** Per-call samples kept per PE and measurement (BENCH_SAMPLES). */
    private static final int SAMPLES = 65536;

    private final Shmem shmem;
    private final BenchOptions options;
    private final int me;
    /** Symmetric word through which PE 0 hands its calibration decisions to all PEs. */
    private final SymLongArray shareWord;
    /** Iteration count of the last {@link #measure}. */
    private long lastIters;
    /** Per-call samples of the sampled pass, and their pooling on PE 0; allocated on first use. */
    private double[] samples;
    private int sampleCount;
    private boolean sampling;
    private SymDoubleArray gather;
    private SymLongArray gatherCounts;
    /** One slot per PE on PE 0, for {@link #allPes}. */
    private SymLongArray votes;

    private Harness(Shmem shmem, BenchOptions options) {
        this.shmem = shmem;
        this.options = options;
        this.me = shmem.myPe();
        this.shareWord = shmem.calloc(SymType.LONG, 1);
    }

    /**
     * Parses the options and checks the PE count; on bad usage PE 0 prints why and the whole job
     * ends with status 2. Collective.
     */
    public static Harness start(Shmem shmem, String[] args, int minPes, String name) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            throw exit(shmem, 2, name + ": " + e.getMessage());
        }
        if (shmem.nPes() < minPes) {
            throw exit(shmem, 2, name + ": needs at least " + minPes + " PEs");
        }
        return new Harness(shmem, options);
    }

    /**
     * PE 0 prints {@code message}, then the whole job ends with {@code status}. Never returns in
     * practice; the exception is there for callers to throw, so that the compiler knows it too.
     */
    private static IllegalStateException exit(Shmem shmem, int status, String message) {
        if (shmem.myPe() == 0) {
            System.err.println(message);
        }
        shmem.globalExit(status);
        return new IllegalStateException("globalExit returned");
    }

    public Shmem shmem() {
        return shmem;
    }

    public BenchOptions options() {
        return options;
    }

    /** Monotonic time in microseconds. */
    public static double nowUs() {
        return System.nanoTime() / 1e3;
    }

    /** Every PE returns PE 0's {@code v}. Collective. */
    public long share(long v) {
        if (me == 0) {
            for (int pe = 1; pe < shmem.nPes(); pe++) {
                shmem.p(shareWord, 0, v, pe);
            }
        }
        shmem.barrierAll();
        long shared = me == 0 ? v : shareWord.get(0);
        shmem.barrierAll(); // nobody overwrites the word before all have read it
        return shared;
    }

    /**
     * Calibrates, warms up, then times the repetitions; returns (on PE 0; 0 elsewhere) the median
     * time per iteration in microseconds. Collective.
     *
     * <p>As bench_run in C: {@link #calibrate}, then {@link #warmUp} by iteration count, then
     * {@link BenchOptions#reps()} timed repetitions.
     *
     * @param minIters lower bound on the iteration count, so that slow operations still get a
     *                 median over several iterations
     */
    public double measure(Rep rep, long minIters) {
        long[] warmed = {0};
        long n = calibrate(rep, minIters, warmed);
        n = warmUp(rep, n, warmed[0], minIters);
        lastIters = n;
        double[] perIter = new double[options.reps()];
        for (int r = 0; r < perIter.length; r++) {
            perIter[r] = rep.run(n) / n;
        }
        return me == 0 ? median(perIter) : 0;
    }

    /**
     * bench_calibrate: start at one iteration, always take a second round (the first pays page
     * faults and first-touch costs), multiply by 8 until a repetition's timed part lasts a quarter
     * of the target, then use the count that makes it last the target. The count is sized from
     * the timed part (what {@link Rep#run} returns on PE 0): sizing it from the whole repetition
     * would let a slow untimed barrier (a partner waking up) shrink a fast operation's count to a
     * few hundred iterations, whose per-iteration time is then mostly first-touch and timer cost.
     * PE 0's wall time of the whole repetition, untimed parts included, still stops the growth at
     * four targets, so that slow untimed parts on a loaded machine cannot stretch a repetition to
     * minutes. Adds the iterations run to {@code warmed[0]}.
     */
    private long calibrate(Rep rep, long minIters, long[] warmed) {
        long n = 1;
        for (int round = 0; ; round++) {
            double t0 = nowUs();
            double timed = rep.run(n);
            double wall = nowUs() - t0;
            warmed[0] += n;
            long next = n;
            if (me == 0) {
                double per = timed > 0 ? timed / n : 1e-3;
                long want = Math.max(minIters, Math.min(MAX_ITERS, (long) (options.targetUs() / per)));
                boolean grow = timed < options.targetUs() / 4 && wall < 4 * options.targetUs() && n < want;
                if (round == 0 || grow) {
                    next = Math.min(n * 8, want);
                } else {
                    next = -Math.min(want, Math.max(minIters, (long) (n * 4 * options.targetUs() / Math.max(wall, 1e-3))));
                }
            }
            next = share(next);
            if (next < 0) {
                return -next;
            }
            n = next;
        }
    }

    /**
     * Warm-up, as bench_warm_up: repetitions continue until {@value #QUIET_REPS} repetitions in a
     * row ran without any JIT compilation on any PE and either {@value #WARMUP_ITERS} iterations
     * have run in all (calibration included: enough invocations and loop back-edges for C2 to
     * compile a fast operation's path; interpreted and C1 code is 10-40x slower, and a JIT that
     * compiles nothing yet is not a sign of warmth) or {@value #WARMUP_BUDGET_TARGETS} targets of
     * timed work went by (slow operations, where a run of this many iterations would take
     * minutes); or until {@value #MAX_WARMUP_REPS} repetitions. The budget alone does not end a
     * warm-up: 4 PEs over TCP, barrier_all's first 3,000 calls (40 targets) left the PEs' C2
     * threads compiling, and the timed loop that followed paid for it (a loop average of 140 us
     * against 80-100 once quiet). After each repetition the count is calibrated again
     * from it, so it grows as the code gets faster. Returns the final count. C does the same,
     * every repetition counting as quiet there.
     */
    private long warmUp(Rep rep, long n, long warmed, long minIters) {
        double spent = 0;
        for (int reps = 1, quiet = 0; reps <= MAX_WARMUP_REPS; reps++) {
            long jit0 = Jit.compileMillis();
            double t0 = nowUs();
            double timed = rep.run(n);
            double wall = nowUs() - t0;
            warmed += n;
            spent += timed;
            quiet = allPes(Jit.compileMillis() == jit0) ? quiet + 1 : 0;
            long next = n;
            if (me == 0) {
                if (quiet >= QUIET_REPS && (warmed >= WARMUP_ITERS || spent >= WARMUP_BUDGET_TARGETS * options.targetUs())) {
                    next = -n; // done
                } else if (timed > 0) {
                    long want = Math.max(minIters, Math.min(MAX_ITERS, (long) (options.targetUs() * n / timed)));
                    long cap = Math.max(minIters, (long) (n * 4 * options.targetUs() / Math.max(wall, 1e-3)));
                    next = Math.max(1, Math.min(want, cap));
                }
            }
            next = share(next);
            if (next < 0) {
                break;
            }
            n = next;
        }
        return n;
    }

    /**
     * For an operation whose targets are judged per call (all latency rows with a target: the
     * waits, the collectives, the 8-byte put, get and atomics), as bench_run_waits: the loop
     * average of {@link #measure} (row {@code lat_us}, shown but never judged), then
     * {@link #percentiles} (rows {@code lat_p50_us} and {@code lat_p99_us}). Collective.
     */
    public void measureWaits(Rep rep, long minIters, String op, long bytes) {
        emit(op, bytes, Metric.LATENCY, measure(rep, minIters));
        double[] p = percentiles(rep);
        emit(op, bytes, Metric.LATENCY_P50, p[0]);
        emit(op, bytes, Metric.LATENCY_P99, p[1]);
    }

    /**
     * The sampled pass after a {@link #measure} of the same {@code rep}, as bench_percentiles: rep
     * times every call on its own ({@link #sampling()}, {@link #sample}); warm-up repetitions of the
     * per-call loop (same rule, not recorded), then {@link BenchOptions#reps()} repetitions of
     * min(iterations, {@value #SAMPLES} / reps) recorded calls. The samples of all PEs (of PE 0
     * alone where only PE 0 calls) are pooled on PE 0, which gets {p50, p99} of the per-call
     * times in microseconds (nearest rank); the other PEs get zeros. Collective.
     */
    public double[] percentiles(Rep rep) {
        if (samples == null) { // the first call on every PE: collective
            samples = new double[SAMPLES];
            gather = shmem.calloc(SymType.DOUBLE, (long) SAMPLES * shmem.nPes());
            gatherCounts = shmem.calloc(SymType.LONG, shmem.nPes());
        }
        long n = Math.min(lastIters, SAMPLES / options.reps());
        sampling = true;
        sampleCount = 0;
        warmUp(rep, n, 0, 1); // its new count is not used: the sample buffer holds reps x n
        sampleCount = 0;
        for (int r = 0; r < options.reps(); r++) {
            rep.run(n);
        }
        sampling = false;

        shmem.put(gather, (long) me * SAMPLES, samples, 0, sampleCount, 0);
        shmem.p(gatherCounts, me, sampleCount, 0);
        shmem.barrierAll();
        double[] p = new double[2];
        if (me == 0) {
            double[] all = new double[SAMPLES * shmem.nPes()];
            int total = 0;
            for (int pe = 0; pe < shmem.nPes(); pe++) {
                int count = (int) gatherCounts.get(pe);
                for (int i = 0; i < count; i++) {
                    all[total++] = gather.get((long) pe * SAMPLES + i);
                }
            }
            double[] pooled = Arrays.copyOf(all, total);
            Arrays.sort(pooled);
            p[0] = percentile(pooled, 0.50);
            p[1] = percentile(pooled, 0.99);
        }
        shmem.barrierAll(); // PE 0's gather array is free again
        return p;
    }

    /** Whether this repetition is part of a sampled pass: time every call and {@link #sample} it. */
    public boolean sampling() {
        return sampling;
    }

    /** Records one call's time in microseconds (sampled pass only; the array is preallocated). */
    public void sample(double us) {
        if (sampleCount < SAMPLES) {
            samples[sampleCount++] = us;
        }
    }

    /** Nearest-rank percentile {@code p} (0..1] of sorted values (bench_percentile). */
    static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        long k = (long) Math.ceil(sorted.length * p - 1e-9);
        return sorted[(int) Math.max(1, Math.min(sorted.length, k)) - 1];
    }

    /** Whether {@code v} holds on every PE. Collective. */
    private boolean allPes(boolean v) {
        if (votes == null) {
            votes = shmem.calloc(SymType.LONG, shmem.nPes());
        }
        shmem.p(votes, me, v ? 1 : 0, 0);
        shmem.barrierAll();
        long all = 1;
        if (me == 0) {
            for (int pe = 0; pe < shmem.nPes(); pe++) {
                all &= votes.get(pe);
            }
        }
        return share(all) == 1;
    }

    /** Median of {@code v} (sorts it). */
    static double median(double[] v) {
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }

    /** Prints one CSV row on PE 0, flushed so that partial results survive a later failure. */
    public void emit(String op, long bytes, Metric metric, double value) {
        if (me != 0) {
            return;
        }
        // 3 decimals; 6 below 0.1, so that a slow rate (0.0003 Mops/s) is not 0 (as bench_emit)
        String digits = value != 0 && Math.abs(value) < 0.1 ? "%.6f" : "%.3f";
        System.out.printf(Locale.ROOT, "jshmem,%s,%d,%s,%d,%s," + digits + ",%s%n", options.transport(), shmem.nPes(), op,
                bytes, metric.label(), value, metric.unit());
        System.out.flush();
    }

    /** A verification failure: reports it and ends the whole job with status 1 (does not return). */
    public void fail(String message) {
        System.err.println("VERIFY FAILED on PE " + me + ": " + message);
        System.err.flush();
        shmem.globalExit(1);
    }
}
