/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * Per-call tails of the waiting collectives where PEs may outnumber cores, as
 * TailsBench.java: barrier_all, broadcast64 of 8 B from PE 0 and
 * long_sum_to_all of one long, the data collectives alone (an untimed
 * barrier_all between calls, as coll.c) and each with the barrier_all after
 * it timed together. Each operation runs --warm calls, then --calls more;
 * every call is timed on its own on every PE and the times of all PEs are
 * pooled on PE 0 after both (as TailsBench, which says why). Rows:
 * lat_p50_us/lat_p99_us of the calls after the warm-up,
 * cold_p50_us/cold_p99_us of the warm-up calls. Every call's data is checked.
 * Driven by bench/tails.sh.
 */
#include "bench_common.h"

enum op { BARRIER, BROADCAST, BROADCAST_BARRIER, SUM, SUM_BARRIER, NOPS };
static const char *const op_name[] = {"barrier_all", "broadcast", "broadcast+barrier_all",
                                      "sum_reduce", "sum_reduce+barrier_all"};
static const size_t op_bytes[] = {0, 8, 8, 8, 8};
static const int op_with_barrier[] = {0, 0, 1, 0, 1};

static long *src, *dst, *pSync, *pWrk; /* symmetric */
static double *pool;                   /* symmetric, npes * max calls */
static double *warm_times, *times;
static long seq;

static void usage(void)
{
    fprintf(stderr, "usage: oshrun ... tails [--transport LABEL] [--warm W] [--calls M]\n");
}

/* n calls of op, each timed into t[0..n). */
static void run(enum op op, long n, int me, int npes, double *t)
{
    for (long i = 0; i < n; i++) {
        long v = ++seq;
        src[0] = v * 31 + me;
        double t0 = bench_now_us();
        if (op == BARRIER)
            shmem_barrier_all();
        else if (op == BROADCAST || op == BROADCAST_BARRIER)
            shmem_broadcast64(dst, src, 1, 0, 0, 0, npes, pSync);
        else
            shmem_long_sum_to_all(dst, src, 1, 0, 0, npes, pWrk, pSync);
        if (op_with_barrier[op])
            shmem_barrier_all();
        t[i] = bench_now_us() - t0;
        if (op == SUM || op == SUM_BARRIER) {
            long want = v * 31 * npes + (long)npes * (npes - 1) / 2;
            if (dst[0] != want)
                bench_fail("tails %s call %ld: got %ld, expected %ld", op_name[op], v, dst[0], want);
        } else if (op != BARRIER && me != 0 && dst[0] != v * 31) {
            bench_fail("tails %s call %ld: got %ld, expected %ld", op_name[op], v, dst[0], v * 31);
        }
        if (op != BARRIER && !op_with_barrier[op])
            shmem_barrier_all(); /* untimed, as coll.c: pSync, source and dest free again */
    }
}

/* Pools every PE's t[0..n) on PE 0; p[0], p[1]: p50 and p99 of them all (PE 0). */
static void pool_times(const double *t, long n, int me, int npes, double p[2])
{
    shmem_putmem(pool + (size_t)me * (size_t)n, t, (size_t)n * sizeof(double), 0);
    shmem_barrier_all();
    if (me == 0) {
        long total = n * npes;
        qsort(pool, (size_t)total, sizeof(double), bench_cmp_double);
        p[0] = bench_percentile(pool, total, 0.50);
        p[1] = bench_percentile(pool, total, 0.99);
    }
    shmem_barrier_all(); /* PE 0 has read the pool */
}

static void emit(const char *transport, int npes, enum op op, const char *kind, const double p[2])
{
    printf("oshmem,%s,%d,%s,%zu,%s_p50_us,%.3f,us\n", transport, npes, op_name[op], op_bytes[op], kind, p[0]);
    printf("oshmem,%s,%d,%s,%zu,%s_p99_us,%.3f,us\n", transport, npes, op_name[op], op_bytes[op], kind, p[1]);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    const char *transport = "shm";
    long warm = 30000, calls = 3000;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--transport") && i + 1 < argc) {
            transport = argv[++i];
        } else if (!strcmp(argv[i], "--warm") && i + 1 < argc) {
            warm = atol(argv[++i]);
        } else if (!strcmp(argv[i], "--calls") && i + 1 < argc) {
            calls = atol(argv[++i]);
        } else {
            usage();
            return 2;
        }
    }
    if (warm < 1 || calls < 1) {
        usage();
        return 2;
    }
    shmem_init();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long most = warm > calls ? warm : calls;
    long nsync = SHMEM_BCAST_SYNC_SIZE > SHMEM_REDUCE_SYNC_SIZE ? SHMEM_BCAST_SYNC_SIZE : SHMEM_REDUCE_SYNC_SIZE;
    src = shmem_malloc(sizeof(long));
    dst = shmem_malloc(sizeof(long));
    pSync = shmem_malloc((size_t)nsync * sizeof(long));
    pWrk = shmem_malloc(SHMEM_REDUCE_MIN_WRKDATA_SIZE * sizeof(long));
    pool = shmem_malloc((size_t)most * (size_t)npes * sizeof(double));
    warm_times = malloc((size_t)warm * sizeof(double));
    times = malloc((size_t)calls * sizeof(double));
    if (!src || !dst || !pSync || !pWrk || !pool || !warm_times || !times) {
        fprintf(stderr, "tails: out of memory\n");
        shmem_global_exit(1);
    }
    for (long i = 0; i < nsync; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all();
    double p[2] = {0, 0};
    for (int op = 0; op < NOPS; op++) {
        run((enum op)op, warm, me, npes, warm_times);
        run((enum op)op, calls, me, npes, times);
        pool_times(warm_times, warm, me, npes, p);
        if (me == 0)
            emit(transport, npes, (enum op)op, "cold", p);
        pool_times(times, calls, me, npes, p);
        if (me == 0)
            emit(transport, npes, (enum op)op, "lat", p);
    }
    shmem_free(pool);
    shmem_free(pWrk);
    shmem_free(pSync);
    shmem_free(dst);
    shmem_free(src);
    free(times);
    free(warm_times);
    shmem_finalize();
    return 0;
}
