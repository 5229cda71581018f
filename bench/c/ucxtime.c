/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/*
 * LD_PRELOAD shim for bench/scale.sh: times the UCX calls that make up a library's wire-up
 * (context, worker, address, memory registration, endpoints, remote keys) without changing the
 * library. Each wrapper calls the real function (dlsym RTLD_NEXT) and records wall-clock times.
 * Used on OSHMEM, which links libucp normally; jshmem binds libucp through java.lang.foreign's
 * library lookup, which an LD_PRELOAD cannot interpose, so scale.sh times jshmem with JFR instead.
 *
 * ucxtime_report() (called by bench/c/scale.c after init) prints, on stdout, one line per function
 * that was called:
 *   ucxtime,PID,FUNCTION,CALLS,TOTAL_US,FIRST_START_US,LAST_END_US
 * and one line per call of the functions called only a few times (all but ucp_ep_create and
 * ucp_ep_rkey_unpack), in call order:
 *   ucxcall,PID,FUNCTION,START_US,END_US
 * (times in microseconds since the epoch), and the sizes of the last worker address and packed
 * remote key:
 *   ucxsize,PID,address_bytes,BYTES,rkey_bytes,BYTES
 *
 * Build: gcc -O2 -shared -fPIC -o ucxtime.so ucxtime.c -ldl
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include <ucp/api/ucp.h>

enum { F_INIT, F_WORKER, F_ADDRESS, F_MEM_MAP, F_RKEY_PACK, F_EP_CREATE, F_RKEY_UNPACK, F_COUNT };
static const char *const names[F_COUNT] = {"ucp_init", "ucp_worker_create", "ucp_worker_get_address",
                                           "ucp_mem_map", "ucp_rkey_pack", "ucp_ep_create",
                                           "ucp_ep_rkey_unpack"};

static struct {
    long calls;
    long long total_ns, first_ns, last_ns;
} stats[F_COUNT];

#define MAX_CALLS 256
static struct {
    int fn;
    long long start_ns, end_ns;
} calls[MAX_CALLS];
static int ncalls;
/* Sizes of the last worker address and packed remote key: what a wire-up exchanges per PE. */
static size_t address_bytes, rkey_bytes;

static long long now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void record(int fn, long long t0, long long t1)
{
    if (stats[fn].calls++ == 0)
        stats[fn].first_ns = t0;
    stats[fn].last_ns = t1;
    stats[fn].total_ns += t1 - t0;
    if (fn != F_EP_CREATE && fn != F_RKEY_UNPACK && ncalls < MAX_CALLS) {
        calls[ncalls].fn = fn;
        calls[ncalls].start_ns = t0;
        calls[ncalls].end_ns = t1;
        ncalls++;
    }
}

/* The real function, with the prototype ucp.h declares. */
#define REAL(fn) static __typeof__(&fn) real; if (!real) real = (__typeof__(&fn))dlsym(RTLD_NEXT, #fn)

ucs_status_t ucp_init_version(unsigned major, unsigned minor, const ucp_params_t *params,
                              const ucp_config_t *config, ucp_context_h *context_p)
{
    REAL(ucp_init_version);
    long long t0 = now_ns();
    ucs_status_t s = real(major, minor, params, config, context_p);
    record(F_INIT, t0, now_ns());
    return s;
}

ucs_status_t ucp_worker_create(ucp_context_h context, const ucp_worker_params_t *params,
                               ucp_worker_h *worker_p)
{
    REAL(ucp_worker_create);
    long long t0 = now_ns();
    ucs_status_t s = real(context, params, worker_p);
    record(F_WORKER, t0, now_ns());
    return s;
}

ucs_status_t ucp_worker_get_address(ucp_worker_h worker, ucp_address_t **address_p, size_t *length_p)
{
    REAL(ucp_worker_get_address);
    long long t0 = now_ns();
    ucs_status_t s = real(worker, address_p, length_p);
    record(F_ADDRESS, t0, now_ns());
    if (s == UCS_OK)
        address_bytes = *length_p;
    return s;
}

ucs_status_t ucp_mem_map(ucp_context_h context, const ucp_mem_map_params_t *params, ucp_mem_h *memh_p)
{
    REAL(ucp_mem_map);
    long long t0 = now_ns();
    ucs_status_t s = real(context, params, memh_p);
    record(F_MEM_MAP, t0, now_ns());
    return s;
}

ucs_status_t ucp_rkey_pack(ucp_context_h context, ucp_mem_h memh, void **rkey_buffer_p, size_t *size_p)
{
    REAL(ucp_rkey_pack);
    long long t0 = now_ns();
    ucs_status_t s = real(context, memh, rkey_buffer_p, size_p);
    record(F_RKEY_PACK, t0, now_ns());
    if (s == UCS_OK)
        rkey_bytes = *size_p;
    return s;
}

ucs_status_t ucp_ep_create(ucp_worker_h worker, const ucp_ep_params_t *params, ucp_ep_h *ep_p)
{
    REAL(ucp_ep_create);
    long long t0 = now_ns();
    ucs_status_t s = real(worker, params, ep_p);
    record(F_EP_CREATE, t0, now_ns());
    return s;
}

ucs_status_t ucp_ep_rkey_unpack(ucp_ep_h ep, const void *rkey_buffer, ucp_rkey_h *rkey_p)
{
    REAL(ucp_ep_rkey_unpack);
    long long t0 = now_ns();
    ucs_status_t s = real(ep, rkey_buffer, rkey_p);
    record(F_RKEY_UNPACK, t0, now_ns());
    return s;
}

void ucxtime_report(void)
{
    int pid = (int)getpid();
    for (int f = 0; f < F_COUNT; f++)
        if (stats[f].calls > 0)
            printf("ucxtime,%d,%s,%ld,%.1f,%lld,%lld\n", pid, names[f], stats[f].calls, stats[f].total_ns / 1e3,
                   stats[f].first_ns / 1000, stats[f].last_ns / 1000);
    printf("ucxsize,%d,address_bytes,%zu,rkey_bytes,%zu\n", pid, address_bytes, rkey_bytes);
    for (int i = 0; i < ncalls; i++)
        printf("ucxcall,%d,%s,%lld,%lld\n", pid, names[calls[i].fn], calls[i].start_ns / 1000,
               calls[i].end_ns / 1000);
    fflush(stdout);
}
