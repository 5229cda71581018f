/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * Shared helpers for the OSHMEM comparison benchmarks (rma.c, amo.c, coll.c,
 * pingpong.c, steady.c).
 *
 * Output contract (only PE 0 prints, no header):
 *   impl,transport,pes,op,bytes,metric,value,unit
 * impl is always "oshmem"; transport is the label given with --transport
 * (the program cannot tell which UCX transport oshrun selected, so the
 * caller names it). MB is 10^6 bytes, as in the OSU micro-benchmarks.
 *
 * Method: every measurement first calibrates its iteration count with
 * untimed warm-up repetitions (x8 until one repetition takes about
 * target_us), warms up by iteration count (BENCH_WARMUP_ITERS), then runs
 * `reps` timed repetitions of that many iterations and reports the median
 * per-op value. Every row with a target also gets per-call percentiles
 * (bench_run_waits, bench_percentiles), which the targets judge. Calibrating by time rather than using
 * fixed counts keeps shared memory (~0.05 us/op) and UCX over TCP
 * (~20 us/op) equally precise and bounded in run time. Every repetition,
 * warm-ups included, verifies the data it moved; a mismatch ends the whole
 * job through shmem_global_exit(1), so oshrun exits non-zero.
 */
#ifndef JSHMEM_BENCH_COMMON_H
#define JSHMEM_BENCH_COMMON_H

#include <shmem.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
    int quick;             /* --quick: fewer iterations and repetitions */
    int inject_error;      /* --inject-error: corrupt data to test the checks */
    int page_aliased;      /* --page-aliased: rma.c keeps src/dst 4 KiB-aliased */
    const char *transport; /* --transport LABEL, echoed into the CSV */
    int reps;              /* timed repetitions per measurement (odd) */
    double target_us;      /* wanted duration of one repetition */
} bench_opts;

/* Message sizes shared by the RMA latency and bandwidth tests. */
static const size_t bench_sizes[] = {8, 64, 512, 4096, 32768, 262144, 1048576};
#define BENCH_NSIZES (sizeof(bench_sizes) / sizeof(bench_sizes[0]))
#define BENCH_MAX_SIZE 1048576

static inline double bench_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values; sorts in place. */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(double), bench_cmp_double);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void bench_usage(const char *prog)
{
    fprintf(stderr,
            "usage: oshrun ... %s [--quick] [--transport LABEL] [--inject-error]\n"
            "                     [--page-aliased]\n"
            "  --quick         fewer iterations/repetitions (smoke run)\n"
            "  --transport L   label for the CSV transport column (default: shm)\n"
            "  --inject-error  corrupt the moved data once, to test that\n"
            "                  verification fails the run (exit non-zero)\n"
            "  --page-aliased  rma: 4 KiB-aliased src/dst (slow glibc memcpy path\n"
            "                  on AMD EPYC; see rma.c)\n",
            prog);
}

/* Parses flags; call after shmem_init() so bad usage ends every PE. */
static inline bench_opts bench_parse(int argc, char **argv)
{
    bench_opts o = {0, 0, 0, "shm", 0, 0};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--quick")) {
            o.quick = 1;
        } else if (!strcmp(argv[i], "--inject-error")) {
            o.inject_error = 1;
        } else if (!strcmp(argv[i], "--page-aliased")) {
            o.page_aliased = 1;
        } else if (!strcmp(argv[i], "--transport") && i + 1 < argc) {
            o.transport = argv[++i];
        } else if (!strncmp(argv[i], "--transport=", 12)) {
            o.transport = argv[i] + 12;
        } else {
            if (shmem_my_pe() == 0)
                bench_usage(argv[0]);
            shmem_global_exit(2);
        }
    }
    o.reps = o.quick ? 3 : 9;
    o.target_us = o.quick ? 2000 : 30000;
    return o;
}

/*
 * shmem_init, bench_parse, and the PE count check: with fewer than min_pes
 * PEs, PE 0 says so and the job ends with status 2.
 */
static inline bench_opts bench_start(int argc, char **argv, int min_pes, const char *prog)
{
    shmem_init();
    bench_opts o = bench_parse(argc, argv);
    if (shmem_n_pes() < min_pes) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "%s: needs at least %d PEs\n", prog, min_pes);
        shmem_global_exit(2);
    }
    return o;
}

/* A zeroed symmetric allocation (collective); ends the job if it fails. */
static inline void *bench_calloc(size_t bytes, const char *prog)
{
    void *p = shmem_malloc(bytes);
    if (!p) {
        fprintf(stderr, "%s: shmem_malloc failed on PE %d\n", prog, shmem_my_pe());
        shmem_global_exit(2);
    }
    memset(p, 0, bytes);
    shmem_barrier_all(); /* zeroed everywhere before anyone writes to it */
    return p;
}

/* Symmetric scratch word used to hand PE 0's decisions to all PEs. */
static long bench_share_word;

/* Every PE returns PE 0's value of v. Collective over all PEs. */
static inline long bench_share(long v)
{
    if (shmem_my_pe() == 0)
        for (int pe = 1; pe < shmem_n_pes(); pe++)
            shmem_long_p(&bench_share_word, v, pe);
    shmem_barrier_all();
    if (shmem_my_pe() != 0)
        v = bench_share_word;
    shmem_barrier_all(); /* nobody overwrites the word before all read it */
    return v;
}

/*
 * One repetition of `iters` iterations; must be called by all PEs, verify
 * its data, and return the elapsed time in us on PE 0 (ignored elsewhere).
 */
typedef double (*bench_rep_fn)(void *ctx, long iters);

#define BENCH_MAX_ITERS 2000000L

/*
 * Warm-up after calibration (shared with Harness.java): repetitions continue
 * until BENCH_QUIET_REPS in a row ran without JIT compilation on any PE (C:
 * every repetition) and either BENCH_WARMUP_ITERS iterations have run in all
 * (calibration included: enough for HotSpot's C2 to compile a fast
 * operation's path) or BENCH_WARMUP_BUDGET_TARGETS targets of timed work
 * went by (slow operations); or until BENCH_MAX_WARMUP_REPS repetitions.
 * After each repetition the count is calibrated again from it.
 */
#define BENCH_WARMUP_ITERS 200000L
#define BENCH_QUIET_REPS 3
#define BENCH_WARMUP_BUDGET_TARGETS 40
#define BENCH_MAX_WARMUP_REPS 100

/*
 * Calibrates the iteration count: starts at 1, always takes a second round
 * (the first pays one-off costs: connection setup, page faults), multiplies
 * by 8 until a repetition lasts a quarter of the target, then uses the count
 * that makes its timed part (what fn returns on PE 0) last the target. The
 * count is sized from the timed part: sized from the whole repetition, a
 * slow untimed barrier would shrink a fast operation's count to a few
 * hundred iterations, mostly first-touch and timer cost. PE 0's wall time
 * of the whole repetition (untimed parts included: on a loaded machine a
 * barrier can take milliseconds) still stops the growth at four targets,
 * so no repetition runs for minutes. Adds the iterations run to *warmed.
 */
static inline long bench_calibrate(const bench_opts *o, bench_rep_fn fn, void *ctx,
                                   long min_iters, long *warmed)
{
    int me = shmem_my_pe();
    long n = 1;
    for (int round = 0;; round++) {
        double t0 = bench_now_us();
        double timed = fn(ctx, n);
        double wall = bench_now_us() - t0;
        *warmed += n;
        long next = n; /* PE 0 decides; > 0 means calibrate again */
        if (me == 0) {
            double per = timed > 0 ? timed / (double)n : 1e-3;
            long want = (long)(o->target_us / per);
            if (want > BENCH_MAX_ITERS)
                want = BENCH_MAX_ITERS;
            if (want < min_iters)
                want = min_iters;
            int grow = timed < o->target_us / 4 && wall < 4 * o->target_us && n < want;
            if (round == 0 || grow) {
                next = n * 8 < want ? n * 8 : want;
            } else {
                double wall_bound = (double)n * 4 * o->target_us / (wall > 1e-3 ? wall : 1e-3);
                long cap = wall_bound < (double)want ? (long)wall_bound : want;
                next = -(cap > min_iters ? cap : min_iters);
            }
        }
        next = bench_share(next);
        if (next < 0)
            return -next;
        n = next;
    }
}

/* Warm-up repetitions at count n (see BENCH_WARMUP_ITERS); C has no JIT, so
 * every repetition is "quiet". */
static inline long bench_warm_up(const bench_opts *o, bench_rep_fn fn, void *ctx, long n, long warmed,
                                 long min_iters)
{
    double spent = 0;
    for (int reps = 1, quiet = 0; reps <= BENCH_MAX_WARMUP_REPS; reps++) {
        double t0 = bench_now_us();
        double timed = fn(ctx, n);
        double wall = bench_now_us() - t0;
        warmed += n;
        spent += timed;
        ++quiet;
        long next = n;
        if (shmem_my_pe() == 0) {
            if (quiet >= BENCH_QUIET_REPS &&
                (warmed >= BENCH_WARMUP_ITERS || spent >= BENCH_WARMUP_BUDGET_TARGETS * o->target_us)) {
                next = -n;
            } else if (timed > 0) {
                double want = o->target_us * (double)n / timed;
                double cap = (double)n * 4 * o->target_us / (wall > 1e-3 ? wall : 1e-3);
                double v = want < cap ? want : cap;
                if (v > BENCH_MAX_ITERS)
                    v = BENCH_MAX_ITERS;
                next = (long)v > min_iters ? (long)v : min_iters;
                if (next < 1)
                    next = 1;
            }
        }
        next = bench_share(next);
        if (next < 0)
            break;
        n = next;
    }
    return n;
}

/*
 * Calibrates, warms up, then times o->reps repetitions. Returns (on PE 0)
 * the median time per iteration in us; *iters_out gets the iteration count
 * used. min_iters bounds the count from below so slow ops still get a
 * median over several iterations.
 */
static inline double bench_run(const bench_opts *o, bench_rep_fn fn, void *ctx,
                               long min_iters, long *iters_out)
{
    long warmed = 0;
    long n = bench_calibrate(o, fn, ctx, min_iters, &warmed);
    n = bench_warm_up(o, fn, ctx, n, warmed, min_iters);

    double v[64];
    for (int r = 0; r < o->reps && r < 64; r++)
        v[r] = fn(ctx, n) / (double)n;
    *iters_out = n;
    return shmem_my_pe() == 0 ? bench_median(v, o->reps) : 0;
}

/*
 * Per-call samples, for the operations that wait (barrier, ping-pong,
 * collectives): besides the loop average, a sampled pass times every call on
 * its own with the monotonic clock into a preallocated array. A rep function
 * checks bench_sampling() and then records each call with bench_sample(us).
 */
#define BENCH_SAMPLES 65536L /* per PE and measurement */

static double *bench_sample_buf; /* local, BENCH_SAMPLES */
static long bench_sample_n;
static int bench_sample_on;
static double *bench_gather; /* symmetric, npes * BENCH_SAMPLES, on PE 0 */
static long *bench_gather_n; /* symmetric, npes */

static inline int bench_sampling(void) { return bench_sample_on; }

static inline void bench_sample(double us)
{
    if (bench_sample_n < BENCH_SAMPLES)
        bench_sample_buf[bench_sample_n++] = us;
}

/* Nearest-rank percentile of n sorted values (Harness.percentile). */
static inline double bench_percentile(const double *sorted, long n, double p)
{
    long k = (long)((double)n * p + 0.999999999);
    if (k < 1)
        k = 1;
    if (k > n)
        k = n;
    return sorted[k - 1];
}

static inline void bench_emit(const bench_opts *o, const char *op, size_t bytes,
                              const char *metric, double value);

/*
 * The sampled pass after a bench_run of the same fn (Harness.percentiles):
 * warm-up repetitions of the per-call loop (same rule as bench_run's,
 * unrecorded), then o->reps repetitions of min(iters, BENCH_SAMPLES / reps)
 * recorded calls. The samples of all PEs (of PE 0 alone where only PE 0
 * calls) are pooled on PE 0, which gets p[0] = p50 and p[1] = p99 of the
 * per-call times in us (nearest rank); other PEs get zeros. Collective.
 */
static inline void bench_percentiles(const bench_opts *o, bench_rep_fn fn, void *ctx, long iters,
                                     double p[2])
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    if (!bench_sample_buf) { /* the first call on every PE: collective */
        bench_sample_buf = malloc(BENCH_SAMPLES * sizeof(double));
        bench_gather = shmem_malloc((size_t)npes * BENCH_SAMPLES * sizeof(double));
        bench_gather_n = shmem_malloc((size_t)npes * sizeof(long));
        if (!bench_sample_buf || !bench_gather || !bench_gather_n) {
            fprintf(stderr, "bench: cannot allocate the sample buffers on PE %d\n", me);
            shmem_global_exit(2);
        }
    }
    long n = iters < BENCH_SAMPLES / o->reps ? iters : BENCH_SAMPLES / o->reps;
    bench_sample_on = 1;
    bench_sample_n = 0;
    (void)bench_warm_up(o, fn, ctx, n, 0, 1); /* the count stays n: the sample buffer holds reps x n */
    bench_sample_n = 0;
    for (int r = 0; r < o->reps; r++)
        fn(ctx, n);
    bench_sample_on = 0;

    shmem_putmem(bench_gather + (size_t)me * BENCH_SAMPLES, bench_sample_buf,
                 (size_t)bench_sample_n * sizeof(double), 0);
    shmem_long_p(&bench_gather_n[me], bench_sample_n, 0);
    shmem_barrier_all();
    p[0] = p[1] = 0;
    if (me == 0) {
        long total = 0;
        for (int pe = 0; pe < npes; pe++) {
            memmove(bench_gather + total, bench_gather + (size_t)pe * BENCH_SAMPLES,
                    (size_t)bench_gather_n[pe] * sizeof(double));
            total += bench_gather_n[pe];
        }
        qsort(bench_gather, (size_t)total, sizeof(double), bench_cmp_double);
        p[0] = bench_percentile(bench_gather, total, 0.50);
        p[1] = bench_percentile(bench_gather, total, 0.99);
    }
    shmem_barrier_all(); /* PE 0's gather buffer is free again */
}

/*
 * For an operation whose targets are judged per call (Harness.measureWaits):
 * bench_run (row lat_us, the loop average, shown but never judged), then
 * bench_percentiles (rows lat_p50_us and lat_p99_us; ping-pong: only PE 0
 * records, half of each round trip). Collective.
 */
static inline void bench_run_waits(const bench_opts *o, bench_rep_fn fn, void *ctx,
                                   long min_iters, const char *op, size_t bytes)
{
    long iters;
    double p[2];
    double t = bench_run(o, fn, ctx, min_iters, &iters);
    bench_emit(o, op, bytes, "lat_us", t);
    bench_percentiles(o, fn, ctx, iters, p);
    bench_emit(o, op, bytes, "lat_p50_us", p[0]);
    bench_emit(o, op, bytes, "lat_p99_us", p[1]);
}

static inline const char *bench_unit(const char *metric)
{
    if (!strcmp(metric, "lat_us") || !strcmp(metric, "lat_p50_us") ||
        !strcmp(metric, "lat_p99_us") || !strcmp(metric, "first1000_us") ||
        !strcmp(metric, "first100_p50_us") || !strcmp(metric, "steady_p50_us"))
        return "us";
    if (!strcmp(metric, "calls_to_steady"))
        return "calls";
    if (!strcmp(metric, "bw_MBps") || !strcmp(metric, "bw_p50_MBps") ||
        !strcmp(metric, "bw_p99_MBps"))
        return "MB/s";
    if (!strcmp(metric, "rate_Mops"))
        return "Mops/s";
    return "?";
}

/* One CSV row; PE 0 only. Flushed so partial results survive a later crash. */
static inline void bench_emit(const bench_opts *o, const char *op, size_t bytes,
                              const char *metric, double value)
{
    if (shmem_my_pe() != 0)
        return;
    /* 3 decimals; 6 below 0.1, so that a slow rate (0.0003 Mops/s) is not 0 */
    printf("oshmem,%s,%d,%s,%zu,%s,%.*f,%s\n", o->transport, shmem_n_pes(), op,
           bytes, metric, value != 0 && value < 0.1 && value > -0.1 ? 6 : 3, value,
           bench_unit(metric));
    fflush(stdout);
}

/* Verification failure: report and take the whole job down with status 1. */
static inline void bench_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "VERIFY FAILED on PE %d: ", shmem_my_pe());
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    shmem_global_exit(1);
}

/* Deterministic byte pattern, distinct per (seed, offset), so stale data from
 * an earlier repetition or a shifted copy does not pass the check. */
static inline uint8_t bench_pattern(unsigned seed, size_t i)
{
    uint32_t x = (uint32_t)i * 2654435761u + seed * 40503u;
    return (uint8_t)(x >> 24 ^ x >> 8);
}

static inline void bench_fill(uint8_t *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = bench_pattern(seed, i);
}

/* Returns the first mismatching offset, or -1 if the buffer is intact. */
static inline long bench_check(const uint8_t *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        if (buf[i] != bench_pattern(seed, i))
            return (long)i;
    return -1;
}

#endif
