/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * RMA benchmarks: put/get latency (blocking putmem+quiet, getmem) and
 * put/get bandwidth (windows of 64 putmem_nbi/getmem_nbi, then quiet),
 * plus the 8-byte nbi put message rate. PE 0 drives, PE 1 is the target;
 * any further PEs only take part in the barriers. At 8 B and 1 MiB a sampled
 * pass follows (bench_percentiles): every call (latency) or window
 * (bandwidth) timed on its own, for the per-call median and p99 that the
 * targets judge.
 */
#include "bench_common.h"

#define WINDOW 64 /* nbi operations issued before each quiet */

enum kind { PUT_LAT, GET_LAT, PUT_BW, GET_BW };

static uint8_t *sbase, *rbase; /* symmetric allocations */
static uint8_t *sbuf, *rbuf;   /* BENCH_MAX_SIZE windows into them */

static int is_put(enum kind k) { return k == PUT_LAT || k == PUT_BW; }

/* Fill so that every byte differs from the expected pattern. */
static void poison(uint8_t *buf, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (uint8_t)~bench_pattern(seed, i);
}

struct rma_ctx {
    enum kind kind;
    size_t n;      /* bytes per operation */
    unsigned seed; /* advanced every repetition */
    int corrupt;   /* --inject-error: spoil the next check once */
};

/* The sampled pass's call: one latency operation, or one window and its quiet. */
static void one_call(enum kind k, size_t n, int pe)
{
    switch (k) {
    case PUT_LAT:
        shmem_putmem(rbuf, sbuf, n, pe);
        shmem_quiet();
        break;
    case GET_LAT:
        shmem_getmem(rbuf, sbuf, n, pe);
        break;
    case PUT_BW:
        for (int w = 0; w < WINDOW; w++)
            shmem_putmem_nbi(rbuf, sbuf, n, pe);
        shmem_quiet();
        break;
    case GET_BW:
        for (int w = 0; w < WINDOW; w++)
            shmem_getmem_nbi(rbuf, sbuf, n, pe);
        shmem_quiet();
        break;
    }
}

/*
 * One repetition. Puts go sbuf(PE 0) -> rbuf(PE 1); gets read sbuf(PE 1)
 * into rbuf(PE 0). The destination is poisoned first and checked after.
 */
static double rma_rep(void *vctx, long iters)
{
    struct rma_ctx *c = vctx;
    enum kind k = c->kind;
    size_t n = c->n;
    unsigned seed = c->seed++;
    int me = shmem_my_pe();
    int src_pe = is_put(k) ? 0 : 1, dst_pe = is_put(k) ? 1 : 0;
    double t = 0;

    if (me == src_pe)
        bench_fill(sbuf, n, seed);
    if (me == dst_pe)
        poison(rbuf, n, seed);
    shmem_barrier_all();

    if (me == 0 && bench_sampling()) {
        double t0 = bench_now_us();
        for (long i = 0; i < iters; i++) {
            double c0 = bench_now_us();
            one_call(k, n, 1);
            bench_sample(bench_now_us() - c0);
        }
        t = bench_now_us() - t0;
    } else if (me == 0) {
        double t0 = bench_now_us();
        switch (k) {
        case PUT_LAT:
            for (long i = 0; i < iters; i++) {
                shmem_putmem(rbuf, sbuf, n, 1);
                shmem_quiet();
            }
            break;
        case GET_LAT:
            for (long i = 0; i < iters; i++)
                shmem_getmem(rbuf, sbuf, n, 1);
            break;
        case PUT_BW:
            for (long i = 0; i < iters; i++) {
                for (int w = 0; w < WINDOW; w++)
                    shmem_putmem_nbi(rbuf, sbuf, n, 1);
                shmem_quiet();
            }
            break;
        case GET_BW:
            for (long i = 0; i < iters; i++) {
                for (int w = 0; w < WINDOW; w++)
                    shmem_getmem_nbi(rbuf, sbuf, n, 1);
                shmem_quiet();
            }
            break;
        }
        t = bench_now_us() - t0;
    }
    /* barrier_all completes outstanding puts, so PE 1 may now read rbuf. */
    shmem_barrier_all();

    if (me == dst_pe) {
        if (c->corrupt)
            rbuf[n / 2] ^= 0x5a;
        long bad = bench_check(rbuf, n, seed);
        if (bad >= 0)
            bench_fail("rma %s %s %zu B: byte %ld is 0x%02x, expected 0x%02x",
                       is_put(k) ? "put" : "get",
                       (k == PUT_LAT || k == GET_LAT) ? "lat" : "bw", n, bad,
                       rbuf[bad], bench_pattern(seed, (size_t)bad));
    }
    c->corrupt = 0;
    return t;
}

static void measure(const bench_opts *o, struct rma_ctx *c, enum kind k,
                    size_t n)
{
    int lat = (k == PUT_LAT || k == GET_LAT);
    long iters;
    c->kind = k;
    c->n = n;
    /* A bandwidth iteration is already WINDOW ops (64 MiB at 1 MiB). */
    long min_iters = lat ? (o->quick ? 3 : 10) : 1;
    double t = bench_run(o, rma_rep, c, min_iters, &iters);
    const char *op = is_put(k) ? "put" : "get";
    if (lat) {
        bench_emit(o, op, n, "lat_us", t);
    } else {
        /* t is per window of WINDOW ops; bytes per us = MB/s. */
        bench_emit(o, op, n, "bw_MBps", WINDOW * (double)n / t);
        if (k == PUT_BW && n == 8)
            bench_emit(o, op, n, "rate_Mops", WINDOW / t);
    }
    if (n == bench_sizes[0] || n == BENCH_MAX_SIZE) { /* the sizes that carry targets */
        double p[2];
        bench_percentiles(o, rma_rep, c, iters, p); /* collective */
        if (shmem_my_pe() != 0)
            return;
        if (lat) {
            bench_emit(o, op, n, "lat_p50_us", p[0]);
            bench_emit(o, op, n, "lat_p99_us", p[1]);
        } else {
            bench_emit(o, op, n, "bw_p50_MBps", WINDOW * (double)n / p[0]);
            bench_emit(o, op, n, "bw_p99_MBps", WINDOW * (double)n / p[1]);
        }
    }
}

int main(int argc, char **argv)
{
    shmem_init();
    bench_opts o = bench_parse(argc, argv);
    if (shmem_n_pes() < 2) {
        if (shmem_my_pe() == 0)
            fprintf(stderr, "rma: needs at least 2 PEs\n");
        shmem_global_exit(2);
    }
    /*
     * Source and destination deliberately do not share their offset within a
     * 4 KiB page: on this AMD EPYC VM, glibc 2.36's memcpy ("rep movsb" for
     * 2 KiB+) runs 10-20x slower for 4 KiB-aliased buffers, which would
     * measure a CPU quirk rather than OSHMEM. --page-aliased measures it.
     */
    size_t skew = o.page_aliased ? 0 : 2048;
    sbase = shmem_malloc(BENCH_MAX_SIZE + 4096);
    rbase = shmem_malloc(BENCH_MAX_SIZE + 4096);
    if (!sbase || !rbase) {
        fprintf(stderr, "rma: shmem_malloc failed on PE %d\n", shmem_my_pe());
        shmem_global_exit(2);
    }
    sbuf = sbase;
    rbuf = rbase + skew;

    struct rma_ctx c = {PUT_LAT, 0, 1, o.inject_error};
    const enum kind kinds[] = {PUT_LAT, GET_LAT, PUT_BW, GET_BW};
    for (size_t k = 0; k < 4; k++)
        for (size_t s = 0; s < BENCH_NSIZES; s++)
            measure(&o, &c, kinds[k], bench_sizes[s]);

    shmem_barrier_all();
    shmem_free(rbase);
    shmem_free(sbase);
    shmem_finalize();
    return 0;
}
