/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * Collectives over all PEs, OpenSHMEM 1.4 active-set API (OSHMEM 4.1.x has
 * no teams): barrier_all, broadcast64 (root 0), long_sum_to_all, fcollect64
 * and alltoall64.
 *
 * Timing, as in the OSU OpenSHMEM collective tests: each PE times every call
 * on its own and an untimed barrier_all separates consecutive calls (which
 * also makes reusing a single pSync legal); the reported latency (lat_us) is
 * the mean per-call time averaged over all PEs. barrier_all itself is timed
 * as a back-to-back loop. Besides, a sampled pass (bench_run_waits) gives the
 * median and p99 of the per-call times of all PEs (lat_p50_us, lat_p99_us);
 * there barrier_all is timed call by call too.
 *
 * Every data collective is also measured with the following barrier
 * (op <name>+barrier_all): each call and the shmem_barrier_all after it timed
 * together, no other barrier in between; what a program that synchronizes
 * after the collective pays, including the wait for the slowest PE that the
 * collective alone may leave to the untimed barrier.
 */
#include "bench_common.h"

#define MAX_ELEMS (65536 / 8) /* longs per PE (or per PE pair) */

enum kind { BARRIER, BROADCAST, SUM_REDUCE, FCOLLECT, ALLTOALL };

static const char *const kind_name[] = {"barrier_all", "broadcast", "sum_reduce",
                                        "fcollect", "alltoall"};

static long *src, *dst; /* symmetric, npes * MAX_ELEMS longs each */
static long *pSync;     /* symmetric, big enough for every collective */
static long *pWrk;      /* symmetric reduction scratch */
static double *times;   /* symmetric, per-PE time sums gathered on PE 0 */

struct coll_ctx {
    enum kind kind;
    int with_barrier; /* time each call together with the barrier_all after it */
    size_t bytes;  /* see the bytes column: total, per PE or per PE pair */
    unsigned seed; /* advanced every repetition */
    int corrupt;   /* --inject-error: spoil the next check once */
};

/* Value that PE p contributes for peer q at element j in repetition seed. */
static long val(unsigned seed, int p, int q, size_t j)
{
    return ((long)seed << 40) ^ ((long)p << 28) ^ ((long)q << 20) ^ (long)j;
}

static void check(const struct coll_ctx *c, size_t idx, long got, long want)
{
    if (got != want)
        bench_fail("coll %s %zu B: element %zu is %ld, expected %ld",
                   kind_name[c->kind], c->bytes, idx, got, want);
}

static void call(enum kind k, size_t nelems, int npes)
{
    switch (k) {
    case BARRIER:
        shmem_barrier_all();
        break;
    case BROADCAST:
        shmem_broadcast64(dst, src, nelems, 0, 0, 0, npes, pSync);
        break;
    case SUM_REDUCE:
        shmem_long_sum_to_all(dst, src, (int)nelems, 0, 0, npes, pWrk, pSync);
        break;
    case FCOLLECT:
        shmem_fcollect64(dst, src, nelems, 0, 0, npes, pSync);
        break;
    case ALLTOALL:
        shmem_alltoall64(dst, src, nelems, 0, 0, npes, pSync);
        break;
    }
}

/* barrier_all: besides timing, check that it completes earlier puts. */
static void check_barrier(const struct coll_ctx *c, int me, int npes)
{
    for (int round = 0; round < 3; round++) {
        long tag = val(c->seed, 0, 0, (size_t)round);
        shmem_long_p(&dst[me], tag + me, 0);
        shmem_barrier_all();
        if (me == 0)
            for (int p = 0; p < npes; p++)
                check(c, (size_t)p, dst[p] - (c->corrupt && p == npes - 1),
                      tag + p);
        shmem_barrier_all();
    }
}

static double coll_rep(void *vctx, long iters)
{
    struct coll_ctx *c = vctx;
    int me = shmem_my_pe(), npes = shmem_n_pes();
    size_t ne = c->bytes / 8;
    unsigned seed = c->seed;

    /* Inputs for this repetition; outputs poisoned so stale data fails. */
    size_t nsrc = (c->kind == ALLTOALL) ? ne * (size_t)npes : ne;
    for (size_t j = 0; j < nsrc; j++)
        src[j] = (c->kind == ALLTOALL) ? val(seed, me, (int)(j / ne), j % ne)
                                       : val(seed, me, 0, j);
    for (size_t j = 0; j < ne * (size_t)npes; j++)
        dst[j] = -1;
    shmem_barrier_all();

    double acc = 0;
    if (c->kind == BARRIER && bench_sampling()) {
        for (long i = 0; i < iters; i++) {
            double t0 = bench_now_us();
            shmem_barrier_all();
            double dt = bench_now_us() - t0;
            bench_sample(dt);
            acc += dt;
        }
    } else if (c->kind == BARRIER) {
        double t0 = bench_now_us();
        for (long i = 0; i < iters; i++)
            shmem_barrier_all();
        acc = bench_now_us() - t0;
    } else if (c->with_barrier) {
        for (long i = 0; i < iters; i++) {
            double t0 = bench_now_us();
            call(c->kind, ne, npes);
            shmem_barrier_all();
            double dt = bench_now_us() - t0;
            if (bench_sampling())
                bench_sample(dt);
            acc += dt;
        }
    } else {
        for (long i = 0; i < iters; i++) {
            double t0 = bench_now_us();
            call(c->kind, ne, npes);
            double dt = bench_now_us() - t0;
            if (bench_sampling())
                bench_sample(dt);
            acc += dt;
            shmem_barrier_all();
        }
    }

    /* Verify this PE's result of the last call. */
    long flip = c->corrupt && me == npes - 1;
    switch (c->kind) {
    case BARRIER:
        check_barrier(c, me, npes);
        break;
    case BROADCAST: /* 1.4 semantics: the root's target is not written */
        if (me != 0)
            for (size_t j = 0; j < ne; j++)
                check(c, j, dst[j] ^ (flip && j == 0), val(seed, 0, 0, j));
        break;
    case SUM_REDUCE:
        for (size_t j = 0; j < ne; j++) {
            long want = 0;
            for (int p = 0; p < npes; p++)
                want += val(seed, p, 0, j);
            check(c, j, dst[j] ^ (flip && j == 0), want);
        }
        break;
    case FCOLLECT:
        for (size_t j = 0; j < ne * (size_t)npes; j++)
            check(c, j, dst[j] ^ (flip && j == 0), val(seed, (int)(j / ne), 0, j % ne));
        break;
    case ALLTOALL: /* block p of my target came from PE p's block for me */
        for (size_t j = 0; j < ne * (size_t)npes; j++)
            check(c, j, dst[j] ^ (flip && j == 0), val(seed, (int)(j / ne), me, j % ne));
        break;
    }
    c->corrupt = 0;
    c->seed++;

    /* Gather every PE's time sum on PE 0 and average it. */
    shmem_double_p(&times[me], acc, 0);
    shmem_barrier_all();
    double mean = 0;
    if (me == 0) {
        for (int p = 0; p < npes; p++)
            mean += times[p];
        mean /= npes;
    }
    return mean;
}

int main(int argc, char **argv)
{
    shmem_init();
    bench_opts o = bench_parse(argc, argv);
    int npes = shmem_n_pes();

    /* pSync sized for the largest requirement; OSHMEM's constants are small
     * (1..3) but other implementations differ, so take the maximum. */
    size_t nsync = SHMEM_BCAST_SYNC_SIZE;
    if (nsync < SHMEM_REDUCE_SYNC_SIZE) nsync = SHMEM_REDUCE_SYNC_SIZE;
    if (nsync < SHMEM_COLLECT_SYNC_SIZE) nsync = SHMEM_COLLECT_SYNC_SIZE;
    if (nsync < SHMEM_ALLTOALL_SYNC_SIZE) nsync = SHMEM_ALLTOALL_SYNC_SIZE;
    if (nsync < SHMEM_BARRIER_SYNC_SIZE) nsync = SHMEM_BARRIER_SYNC_SIZE;
    size_t nwrk = MAX_ELEMS / 2 + 1;
    if (nwrk < SHMEM_REDUCE_MIN_WRKDATA_SIZE) nwrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;

    src = shmem_malloc((size_t)npes * MAX_ELEMS * sizeof(long));
    dst = shmem_malloc((size_t)npes * MAX_ELEMS * sizeof(long));
    pSync = shmem_malloc(nsync * sizeof(long));
    pWrk = shmem_malloc(nwrk * sizeof(long));
    times = shmem_malloc((size_t)npes * sizeof(double));
    if (!src || !dst || !pSync || !pWrk || !times) {
        fprintf(stderr, "coll: shmem_malloc failed on PE %d\n", shmem_my_pe());
        shmem_global_exit(2);
    }
    for (size_t i = 0; i < nsync; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all(); /* pSync initialised everywhere before first use */

    /* As CollBench.plan(): barrier_all, then each data collective at 8 B
     * and 64 KiB, alone and with the following barrier. */
    struct coll_ctx c = {BARRIER, 0, 0, 1, o.inject_error};
    bench_run_waits(&o, coll_rep, &c, o.quick ? 3 : 10, kind_name[BARRIER], 0);
    static const size_t sizes[] = {8, 65536};
    for (int k = BROADCAST; k <= ALLTOALL; k++)
        for (size_t s = 0; s < 2; s++)
            for (int wb = 0; wb <= 1; wb++) {
                char op[64];
                snprintf(op, sizeof op, "%s%s", kind_name[k], wb ? "+barrier_all" : "");
                c.kind = (enum kind)k;
                c.bytes = sizes[s];
                c.with_barrier = wb;
                bench_run_waits(&o, coll_rep, &c, o.quick ? 3 : 10, op, c.bytes);
            }

    shmem_barrier_all();
    shmem_free(times);
    shmem_free(pWrk);
    shmem_free(pSync);
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return 0;
}
