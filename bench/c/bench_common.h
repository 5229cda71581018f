/*
 * Shared helpers for the OSHMEM comparison benchmarks (rma.c, amo.c, coll.c).
 *
 * Output contract (only PE 0 prints, no header):
 *   impl,transport,pes,op,bytes,metric,value,unit
 * impl is always "oshmem"; transport is the label given with --transport
 * (the program cannot tell which UCX transport oshrun selected, so the
 * caller names it). MB is 10^6 bytes, as in the OSU micro-benchmarks.
 *
 * Method: every measurement first calibrates its iteration count with
 * untimed warm-up repetitions (doubling until one repetition takes about
 * target_us), then runs `reps` timed repetitions of that many iterations and
 * reports the median per-op value. Calibrating by time rather than using
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
 * Calibrates, then times o->reps repetitions. Returns (on PE 0) the median
 * time per iteration in us; *iters_out gets the iteration count used.
 * min_iters bounds the count from below so slow ops still get a median
 * over several iterations.
 */
static inline double bench_run(const bench_opts *o, bench_rep_fn fn, void *ctx,
                               long min_iters, long *iters_out)
{
    int me = shmem_my_pe();
    long n = 1;
    for (int round = 0;; round++) {
        double t = fn(ctx, n);
        long next = n; /* PE 0 decides; > 0 means calibrate again */
        if (me == 0) {
            double per = t > 0 ? t / (double)n : 1e-3;
            long want = (long)(o->target_us / per);
            if (want > BENCH_MAX_ITERS)
                want = BENCH_MAX_ITERS;
            if (want < min_iters)
                want = min_iters;
            /* Round 0 pays one-off costs (connection setup, page faults):
             * always take a second warm-up. */
            if (round == 0 || (t < o->target_us / 4 && n < want))
                next = n * 8 < want ? n * 8 : want;
            else
                next = -want;
        }
        next = bench_share(next);
        if (next < 0) {
            n = -next;
            break;
        }
        n = next;
    }

    double v[64];
    for (int r = 0; r < o->reps && r < 64; r++)
        v[r] = fn(ctx, n) / (double)n;
    *iters_out = n;
    return me == 0 ? bench_median(v, o->reps) : 0;
}

static inline const char *bench_unit(const char *metric)
{
    if (!strcmp(metric, "lat_us"))
        return "us";
    if (!strcmp(metric, "bw_MBps"))
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
    printf("oshmem,%s,%d,%s,%zu,%s,%.3f,%s\n", o->transport, shmem_n_pes(), op,
           bytes, metric, value, bench_unit(metric));
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
