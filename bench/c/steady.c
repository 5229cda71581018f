/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * Time to steady state, as SteadyBench.java: right after init, the first
 * CALLS calls of put (8 B + quiet, PE 0 to PE 1), then of barrier_all, then
 * of a sum reduction of one long over all PEs (an untimed barrier after
 * each, as coll.c), every call timed on its own on PE 0. Then each operation
 * is warmed up by the harness's rule (bench_run) and CALLS more calls give
 * the steady-state median. Rows (PE 0's times): first1000_us (the first
 * CALLS calls together), first100_p50_us, steady_p50_us and calls_to_steady:
 * the calls after init until the median of the last WINDOW came within
 * WITHIN x the steady-state median (CALLS + 1 if it never did).
 */
#include "bench_common.h"

#define CALLS 1000
#define WINDOW 25
#define WITHIN 1.2

enum op { PUT, BARRIER, SUM_REDUCE };
static const char *const op_name[] = {"put", "barrier_all", "sum_reduce"};
static const size_t op_bytes[] = {8, 0, 8};

static long *sbuf, *rbuf, *rsrc, *rdst; /* symmetric, one long each */
static long *pSync, *pWrk;
static long seq;      /* calls of each operation so far, the same on every PE */
static long last_put; /* the value of the last put (every PE, for PE 1's check) */
static int corrupt;   /* --inject-error: spoil the first put check */

/* n calls of op, each timed on its own into record (if not NULL); returns their sum. */
static double calls(enum op op, long n, double *record)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    double acc = 0;
    for (long i = 0; i < n; i++) {
        long s = ++seq;
        double dt = 0, t0;
        switch (op) {
        case PUT:
            last_put = s;
            if (me == 0) {
                *sbuf = s;
                t0 = bench_now_us();
                shmem_putmem(rbuf, sbuf, 8, 1);
                shmem_quiet();
                dt = bench_now_us() - t0;
            }
            break;
        case BARRIER:
            t0 = bench_now_us();
            shmem_barrier_all();
            dt = bench_now_us() - t0;
            break;
        case SUM_REDUCE: {
            *rsrc = s * 1000003 + me;
            t0 = bench_now_us();
            shmem_long_sum_to_all(rdst, rsrc, 1, 0, 0, npes, pWrk, pSync);
            dt = bench_now_us() - t0;
            shmem_barrier_all(); /* also makes reusing pSync legal */
            long want = npes * s * 1000003 + (long)npes * (npes - 1) / 2;
            if (*rdst != want)
                bench_fail("steady sum_reduce: call %ld gave %ld, expected %ld", s, *rdst, want);
            break;
        }
        }
        if (record)
            record[i] = dt;
        acc += dt;
    }
    return acc;
}

/* PE 1's buffer holds PE 0's last put (the first check spoils it once with
 * --inject-error). Collective. */
static void check_puts(void)
{
    shmem_barrier_all(); /* completes PE 0's puts */
    if (shmem_my_pe() == 1) {
        long got = *rbuf + (corrupt ? 1 : 0);
        if (got != last_put)
            bench_fail("steady put: PE 1 holds %ld, expected %ld", got, last_put);
    }
    corrupt = 0;
    shmem_barrier_all();
}

/* A warm-up repetition for bench_run: PE 0's time of iters calls. */
static double steady_rep(void *vop, long iters)
{
    enum op op = *(enum op *)vop;
    shmem_barrier_all();
    double t = calls(op, iters, NULL);
    shmem_barrier_all();
    check_puts();
    return shmem_my_pe() == 0 ? t : 0;
}

/* The calls until the median of the last WINDOW is within WITHIN x
 * steady_p50 (SteadyBench.callsToSteady); n + 1 if that never happens. */
static long calls_to_steady(const double *first, long n, double steady_p50)
{
    double window[WINDOW];
    for (long i = WINDOW; i <= n; i++) {
        memcpy(window, first + i - WINDOW, sizeof window);
        if (bench_median(window, WINDOW) <= WITHIN * steady_p50)
            return i;
    }
    return n + 1;
}

int main(int argc, char **argv)
{
    bench_opts o = bench_start(argc, argv, 2, "steady");
    int npes = shmem_n_pes();
    size_t nsync = SHMEM_REDUCE_SYNC_SIZE;
    size_t nwrk = SHMEM_REDUCE_MIN_WRKDATA_SIZE;
    sbuf = bench_calloc(sizeof(long), "steady");
    rbuf = bench_calloc(sizeof(long), "steady");
    rsrc = bench_calloc(sizeof(long), "steady");
    rdst = bench_calloc(sizeof(long), "steady");
    pWrk = bench_calloc(nwrk * sizeof(long), "steady");
    pSync = bench_calloc(nsync * sizeof(long), "steady");
    for (size_t i = 0; i < nsync; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    shmem_barrier_all(); /* pSync initialised everywhere before first use */
    corrupt = o.inject_error;
    (void)npes;

    static double first[3][CALLS], steady[CALLS];
    for (int op = PUT; op <= SUM_REDUCE; op++)
        calls((enum op)op, CALLS, first[op]);
    check_puts();
    for (int op = PUT; op <= SUM_REDUCE; op++) {
        enum op e = (enum op)op;
        long iters;
        (void)bench_run(&o, steady_rep, &e, o.quick ? 3 : 10, &iters);
        shmem_barrier_all();
        calls(e, CALLS, steady);
        shmem_barrier_all();
        if (shmem_my_pe() == 0) {
            double total = 0, head[100];
            for (long i = 0; i < CALLS; i++)
                total += first[op][i];
            memcpy(head, first[op], sizeof head);
            double steady_p50 = bench_median(steady, CALLS);
            bench_emit(&o, op_name[op], op_bytes[op], "first1000_us", total);
            bench_emit(&o, op_name[op], op_bytes[op], "first100_p50_us", bench_median(head, 100));
            bench_emit(&o, op_name[op], op_bytes[op], "steady_p50_us", steady_p50);
            bench_emit(&o, op_name[op], op_bytes[op], "calls_to_steady",
                       (double)calls_to_steady(first[op], CALLS, steady_p50));
        }
    }
    check_puts();

    shmem_barrier_all();
    shmem_free(pSync);
    shmem_free(pWrk);
    shmem_free(rdst);
    shmem_free(rsrc);
    shmem_free(rbuf);
    shmem_free(sbuf);
    shmem_finalize();
    return 0;
}
