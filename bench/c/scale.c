/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * Scale probe, the C side of io.jshmem.bench.ScaleProbe (bench/scale.sh runs both): when each PE
 * reached main, finished shmem_init and passed the first barrier (wall-clock, so that the script
 * can line them up with the launch time), its memory before and after init (/proc/self/smaps_rollup),
 * its CPU time, then the latency of barrier_all and of an 8-byte broadcast at this PE count.
 *
 * One line per PE on stdout:
 *   probe,oshmem,NPES,PE,PID,t_start_us,t_main_us,t_init_us,t_ready_us,rss0,pss0,uss0,rss1,pss1,uss1,
 *   jheap0,jheap1,cpu_ready_ms,barrier_us,bcast_us,iters
 * (times in microseconds since the epoch, memory in kB; jheap is -1 here: no Java heap).
 * If the ucxtime shim (bench/c/ucxtime.c) is preloaded, its lines follow (see there). With
 * --out DIR, each PE writes them to DIR/pe-PE.csv instead of stdout.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static long long now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Rss, Pss and Private_Clean + Private_Dirty (USS) of this process, in kB. */
static void memory(long *rss, long *pss, long *uss)
{
    char line[256];
    long v, clean = 0, dirty = 0;
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    *rss = *pss = *uss = -1;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (sscanf(line, "Rss: %ld", &v) == 1)
            *rss = v;
        else if (sscanf(line, "Pss: %ld", &v) == 1)
            *pss = v;
        else if (sscanf(line, "Private_Clean: %ld", &v) == 1)
            clean = v;
        else if (sscanf(line, "Private_Dirty: %ld", &v) == 1)
            dirty = v;
    }
    fclose(f);
    *uss = clean + dirty;
}

/* Process start, from /proc/self/stat (clock ticks after boot) and /proc/stat's btime: 10 ms grain. */
static long long start_us(void)
{
    char buf[1024], *p;
    unsigned long long ticks = 0;
    long long btime = 0;
    FILE *f = fopen("/proc/self/stat", "r");
    if (!f || !fgets(buf, sizeof buf, f))
        return -1;
    fclose(f);
    p = strrchr(buf, ')');
    /* field 22 (starttime); p points at the end of field 2 */
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    if (!p || sscanf(p + 1, "%llu", &ticks) != 1)
        return -1;
    f = fopen("/proc/stat", "r");
    if (!f)
        return -1;
    while (fgets(buf, sizeof buf, f))
        if (sscanf(buf, "btime %lld", &btime) == 1)
            break;
    fclose(f);
    return btime * 1000000LL + (long long)ticks * 1000000LL / sysconf(_SC_CLK_TCK);
}

static long *pSync, *src, *dst, *count;

static void bcast8(int npes)
{
    shmem_broadcast64(dst, src, 1, 0, 0, 0, npes, pSync);
}

int main(int argc, char **argv)
{
    long long t_start = start_us(), t_main = now_us();
    long rss0, pss0, uss0, rss1, pss1, uss1;
    memory(&rss0, &pss0, &uss0);

    shmem_init();
    long long t_init = now_us();
    int me = shmem_my_pe(), npes = shmem_n_pes();
    shmem_barrier_all();
    long long t_ready = now_us();
    memory(&rss1, &pss1, &uss1);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    double cpu_ms = ru.ru_utime.tv_sec * 1e3 + ru.ru_utime.tv_usec / 1e3 + ru.ru_stime.tv_sec * 1e3
                    + ru.ru_stime.tv_usec / 1e3;

    pSync = shmem_malloc(SHMEM_BCAST_SYNC_SIZE * sizeof(long));
    src = shmem_malloc(sizeof(long));
    dst = shmem_malloc(sizeof(long));
    count = shmem_malloc(sizeof(long));
    for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; i++)
        pSync[i] = SHMEM_SYNC_VALUE;
    *src = 42;
    shmem_barrier_all();

    /* Iteration count: about 0.3 s of barriers, as PE 0 measured them, the same on every PE. */
    for (int i = 0; i < 50; i++)
        shmem_barrier_all();
    double t = mono_s();
    for (int i = 0; i < 50; i++)
        shmem_barrier_all();
    t = (mono_s() - t) / 50;
    if (me == 0) {
        long n = (long)(0.3 / t);
        n = n < 20 ? 20 : n > 5000 ? 5000 : n;
        for (int pe = 0; pe < npes; pe++)
            shmem_long_p(count, n, pe);
    }
    shmem_barrier_all();
    long iters = *count;

    /* barrier_all: a warm-up pass, then a back-to-back timed loop. */
    for (long i = 0; i < iters; i++)
        shmem_barrier_all();
    t = mono_s();
    for (long i = 0; i < iters; i++)
        shmem_barrier_all();
    double barrier_us = (mono_s() - t) / iters * 1e6;

    /* broadcast of 8 bytes from PE 0: each call timed alone, an untimed barrier in between (as coll.c). */
    double sum = 0;
    for (int pass = 0; pass < 2; pass++) {
        sum = 0;
        for (long i = 0; i < iters; i++) {
            shmem_barrier_all();
            t = mono_s();
            bcast8(npes);
            sum += mono_s() - t;
        }
    }
    shmem_barrier_all();
    if (me != 0 && *dst != 42) {
        fprintf(stderr, "scale: PE %d: broadcast delivered %ld, expected 42\n", me, *dst);
        return 1;
    }
    double bcast_us = sum / iters * 1e6;

    /* With --out DIR, to DIR/pe-PE.csv: oshrun may interleave the lines of PEs. */
    if (argc == 3 && strcmp(argv[1], "--out") == 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/pe-%d.csv", argv[2], me);
        if (!freopen(path, "w", stdout)) {
            perror(path);
            return 1;
        }
    }
    printf("probe,oshmem,%d,%d,%d,%lld,%lld,%lld,%lld,%ld,%ld,%ld,%ld,%ld,%ld,-1,-1,%.1f,%.3f,%.3f,%ld\n",
           npes, me, (int)getpid(), t_start, t_main, t_init, t_ready, rss0, pss0, uss0, rss1, pss1, uss1,
           cpu_ms, barrier_us, bcast_us, iters);
    /* The shim's report, if it is preloaded: what UCX calls init made, and when. */
    void (*report)(void) = (void (*)(void))dlsym(RTLD_DEFAULT, "ucxtime_report");
    if (report)
        report();
    fflush(stdout);
    shmem_barrier_all();
    shmem_finalize();
    return 0;
}
