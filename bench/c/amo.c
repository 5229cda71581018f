/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * Atomic memory operations on a long (int64) living on PE 1, driven by PE 0:
 * latency of fetch_add, add (+quiet), compare_swap and swap, and the rate of
 * a non-fetching add stream (one quiet at the end) and of back-to-back
 * fetch_adds. Any further PEs only take part in the barriers. The latencies
 * also get a sampled pass (bench_percentiles): every operation timed on its
 * own, for the per-call median and p99 that the targets judge.
 */
#include "bench_common.h"

enum kind { FETCH_ADD, ADD, COMPARE_SWAP, SWAP, ADD_STREAM };

static const char *const kind_name[] = {"fetch_add", "add", "compare_swap",
                                        "swap", "add"};

/* Symmetric, from shmem_malloc as jshmem's counter is from calloc (a static
 * long sits in OSHMEM's data segment, whose atomics take a slower path);
 * only PE 1's copy is the target. */
static long *counter;

struct amo_ctx {
    enum kind kind;
    int corrupt; /* --inject-error: spoil the next check once */
};

/*
 * One repetition. Every op is arranged so that after i ops the counter is
 * exactly i; fetching ops also check each returned value on PE 0, and PE 1
 * checks the final count.
 */
static double amo_rep(void *vctx, long iters)
{
    struct amo_ctx *c = vctx;
    int me = shmem_my_pe();
    long bad_at = -1, bad_val = 0;
    double t = 0;

    if (me == 1)
        *counter = 0;
    shmem_barrier_all();

    if (me == 0 && bench_sampling()) {
        double t0 = bench_now_us();
        for (long i = 0; i < iters; i++) {
            double c0 = bench_now_us();
            long old = i;
            switch (c->kind) {
            case FETCH_ADD:
                old = shmem_long_atomic_fetch_add(counter, 1, 1);
                break;
            case ADD:
                shmem_long_atomic_add(counter, 1, 1);
                shmem_quiet();
                break;
            case COMPARE_SWAP:
                old = shmem_long_atomic_compare_swap(counter, i, i + 1, 1);
                break;
            case SWAP:
                old = shmem_long_atomic_swap(counter, i + 1, 1);
                break;
            case ADD_STREAM: /* no per-call pass */
                break;
            }
            bench_sample(bench_now_us() - c0);
            if (old != i && bad_at < 0)
                bad_at = i, bad_val = old;
        }
        t = bench_now_us() - t0;
        if (bad_at >= 0)
            bench_fail("amo %s: op %ld returned %ld, expected %ld",
                       kind_name[c->kind], bad_at, bad_val, bad_at);
    } else if (me == 0) {
        double t0 = bench_now_us();
        switch (c->kind) {
        case FETCH_ADD:
            for (long i = 0; i < iters; i++) {
                long old = shmem_long_atomic_fetch_add(counter, 1, 1);
                if (old != i && bad_at < 0)
                    bad_at = i, bad_val = old;
            }
            break;
        case ADD:
            for (long i = 0; i < iters; i++) {
                shmem_long_atomic_add(counter, 1, 1);
                shmem_quiet();
            }
            break;
        case COMPARE_SWAP:
            for (long i = 0; i < iters; i++) {
                long old = shmem_long_atomic_compare_swap(counter, i, i + 1, 1);
                if (old != i && bad_at < 0)
                    bad_at = i, bad_val = old;
            }
            break;
        case SWAP:
            for (long i = 0; i < iters; i++) {
                long old = shmem_long_atomic_swap(counter, i + 1, 1);
                if (old != i && bad_at < 0)
                    bad_at = i, bad_val = old;
            }
            break;
        case ADD_STREAM:
            for (long i = 0; i < iters; i++)
                shmem_long_atomic_add(counter, 1, 1);
            shmem_quiet();
            break;
        }
        t = bench_now_us() - t0;
        if (bad_at >= 0)
            bench_fail("amo %s: op %ld returned %ld, expected %ld",
                       kind_name[c->kind], bad_at, bad_val, bad_at);
    }
    shmem_barrier_all();

    if (me == 1) {
        if (c->corrupt)
            *counter += 1;
        if (*counter != iters)
            bench_fail("amo %s: counter is %ld after %ld ops, expected %ld",
                       kind_name[c->kind], *counter, iters, iters);
    }
    c->corrupt = 0;
    return t;
}

int main(int argc, char **argv)
{
    bench_opts o = bench_start(argc, argv, 2, "amo");
    counter = bench_calloc(sizeof(long), "amo");

    struct amo_ctx c = {FETCH_ADD, o.inject_error};
    long iters;
    const enum kind kinds[] = {FETCH_ADD, ADD, COMPARE_SWAP, SWAP, ADD_STREAM};
    for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
        c.kind = kinds[k];
        double t = bench_run(&o, amo_rep, &c, o.quick ? 3 : 10, &iters);
        if (kinds[k] == ADD_STREAM) {
            bench_emit(&o, "add", 8, "rate_Mops", 1.0 / t);
        } else {
            bench_emit(&o, kind_name[kinds[k]], 8, "lat_us", t);
            /* Back-to-back fetch_adds: the rate is the inverse latency of
             * the same loop (the median commutes with 1/x for odd reps). */
            if (kinds[k] == FETCH_ADD)
                bench_emit(&o, "fetch_add", 8, "rate_Mops", 1.0 / t);
            double p[2];
            bench_percentiles(&o, amo_rep, &c, iters, p);
            bench_emit(&o, kind_name[kinds[k]], 8, "lat_p50_us", p[0]);
            bench_emit(&o, kind_name[kinds[k]], 8, "lat_p99_us", p[1]);
        }
    }

    shmem_barrier_all();
    shmem_free(counter);
    shmem_finalize();
    return 0;
}
