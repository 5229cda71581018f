/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * Ping-pong (half round trip, cross-PE visibility): PE 0 writes the next
 * value into PE 1's flag with shmem_long_p and waits with
 * shmem_long_wait_until for PE 1 to write the same value into PE 0's flag.
 * The row is half a round trip: the loop average (lat_us) and, from a sampled
 * pass that times every round trip, the median and p99 (lat_p50_us,
 * lat_p99_us). Further PEs only take part in the barriers.
 */
#include "bench_common.h"

static long *flag; /* symmetric; each of PEs 0 and 1 waits on its own */
static long seq;   /* last value exchanged; the same on PEs 0 and 1 */

struct pp_ctx {
    int corrupt; /* --inject-error: spoil the next check once */
};

/* Values only grow, so a flag never has to be reset between repetitions. */
static double pp_rep(void *vctx, long iters)
{
    struct pp_ctx *c = vctx;
    int me = shmem_my_pe();
    long base = seq;
    double t = 0;

    shmem_barrier_all();
    if (me == 0 && bench_sampling()) {
        for (long i = 1; i <= iters; i++) {
            double t0 = bench_now_us();
            shmem_long_p(flag, base + i, 1);
            shmem_long_wait_until(flag, SHMEM_CMP_EQ, base + i);
            bench_sample((bench_now_us() - t0) / 2);
        }
    } else if (me == 0) {
        double t0 = bench_now_us();
        for (long i = 1; i <= iters; i++) {
            shmem_long_p(flag, base + i, 1);
            shmem_long_wait_until(flag, SHMEM_CMP_EQ, base + i);
        }
        t = (bench_now_us() - t0) / 2;
    } else if (me == 1) {
        for (long i = 1; i <= iters; i++) {
            shmem_long_wait_until(flag, SHMEM_CMP_EQ, base + i);
            shmem_long_p(flag, base + i, 0);
        }
    }
    seq = base + iters;
    shmem_barrier_all(); /* completes PE 1's last put */

    if (me <= 1) {
        long got = *flag + (c->corrupt && me == 1);
        if (got != seq)
            bench_fail("pingpong: PE %d's flag is %ld after %ld round trips, expected %ld",
                       me, got, iters, seq);
    }
    c->corrupt = 0;
    return t;
}

int main(int argc, char **argv)
{
    bench_opts o = bench_start(argc, argv, 2, "pingpong");
    flag = bench_calloc(sizeof(long), "pingpong");

    struct pp_ctx c = {o.inject_error};
    bench_run_waits(&o, pp_rep, &c, o.quick ? 3 : 10, "pingpong", 8);

    shmem_barrier_all();
    shmem_free(flag);
    shmem_finalize();
    return 0;
}
