/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemTeam;
import io.jshmem.SignalOp;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymFloatArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Hot paths allocate nothing: once compiled, on-node RMA, atomics, waits, synchronization,
 * collectives on the shared team (the scalar reductions too) and the bulk local copies of the
 * typed symmetric arrays create no Java objects. Besides garbage collections, an
 * allocation costs its first touch of fresh heap pages: on this project's VM a page fault took
 * about 12 us, so 128 bytes per 8-byte reduction (a message string built every call) made one
 * call in 16 take 12 us (2 PEs: p99 11.5 us against a median of 0.6).
 *
 * <p>Each operation runs {@value #WARM_UP} times (so that the JIT has compiled it and removed the
 * allocations escape analysis can), then in windows of {@value #WINDOW} calls measured with the
 * thread's allocated-bytes counter until a window stays under one byte per call on every PE (at
 * most {@value #MAX_WINDOWS}: a busy machine may compile late). A window can catch a one-off
 * allocation (a deoptimization, a late compilation), never every window an allocation of every
 * call. Under load the waits yield and sleep, so their slow paths count too: on a loaded machine a
 * sleep and a wake-up each allocated a 40-byte segment slice for the futex call, and sumReduce of
 * 64 KiB failed with 1280 bytes in its best window of 1000 calls (32 sleeps or wakes); an idle
 * machine never slept there. Every PE runs the same calls, so collectives match. Peers reached through a network
 * transport are left out, and atomics and locks where atomics go through it
 * (SHMEM_ATOMICS=transport): the rule is for on-node operations.
 */
final class AllocationCases {
    private AllocationCases() {
    }

    private static final int WARM_UP = 6_000;
    private static final int MAX_WINDOWS = 30;
    private static final int WINDOW = 1_000;
    /**
     * The same for the 64 KiB collectives, each call of which runs its copy and combine loops
     * thousands of times (compiled by their back edges): a quarter of the calls, which kept them
     * from taking minutes where 4 PEs share 2 cores with other jobs (the dissemination/pull job of
     * a CI run beside two CPU hogs passed its 600 s --timeout in this case). A window of 250 still
     * sees any allocation of a byte or more per call.
     */
    private static final int WARM_UP_LARGE = 1_500;
    private static final int WINDOW_LARGE = 250;
    /** Elements per PE of the large collectives: 64 KiB of longs, beyond the push buffers. */
    private static final int LARGE = 8192;

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(Case.of("alloc.rma-amo", AllocationCases::rmaAndAtomics));
        cases.add(Case.of("alloc.wait-sync", AllocationCases::waitsAndSyncs));
        cases.add(Case.of("alloc.collectives", AllocationCases::collectives));
        return cases;
    }

    private static void rmaAndAtomics(CaseContext c) {
        Shmem shmem = c.shmem;
        SymLongArray src = c.calloc(SymType.LONG, 1024);
        SymLongArray dst = c.calloc(SymType.LONG, 1024);
        SymIntArray ints = c.calloc(SymType.INT, 8);
        // On-node peers only (load/store reachable); with none but itself, the PE targets itself.
        int peer = shmem.ptr(dst, c.right()).isPresent() ? c.right() : c.me;
        long[] array = new long[8];
        MemorySegment seg = Arena.ofAuto().allocate(8192, 64);
        MemorySegment seg8 = seg.asSlice(0, 8);
        Map<String, Runnable> ops = new LinkedHashMap<>();
        ops.put("put(long[])", () -> shmem.put(dst, 0, array, 0, 1, peer));
        ops.put("get(long[])", () -> shmem.get(array, 0, src, 0, 1, peer));
        ops.put("putmem 8 B", () -> shmem.putmem(dst, 0, seg8, peer));
        ops.put("getmem 8 B", () -> shmem.getmem(seg8, src, 0, peer));
        ops.put("putmem 8 KiB", () -> shmem.putmem(dst, 0, seg, peer));
        ops.put("putmemNbi+quiet", () -> {
            shmem.putmemNbi(dst, 0, seg8, peer);
            shmem.quiet();
        });
        ops.put("iput", () -> shmem.iput(dst, 0, 2, array, 0, 1, 4, peer));
        ops.put("p/g", () -> shmem.p(dst, 0, shmem.g(src, 0, peer), peer));
        if (cpuAtomics()) {
            ops.put("atomicFetchAdd", () -> shmem.atomicFetchAdd(dst, 1, 1, peer));
            ops.put("atomicAdd", () -> shmem.atomicAdd(dst, 1, 1, peer));
            ops.put("atomicCompareSwap", () -> shmem.atomicCompareSwap(dst, 1, 0, 0, peer));
            ops.put("atomicFetchAdd(int)", () -> shmem.atomicFetchAdd(ints, 1, 1, peer));
            ops.put("signalAdd", () -> shmem.signalAdd(dst, 2, 1, peer));
            ops.put("putSignal(long[])", () -> shmem.putSignal(dst, 8, array, 0, 1, dst, 16, 1, SignalOp.ADD, peer));
            ops.put("putSignalNbi 8 B+quiet", () -> {
                shmem.putSignalNbi(dst, 8, seg8, dst, 16, 1, SignalOp.SET, peer);
                shmem.quiet();
            });
            ops.put("atomicFetchAddNbi+quiet", () -> {
                shmem.atomicFetchAddNbi(array, 0, dst, 1, 1, peer);
                shmem.quiet();
            });
        }
        ops.put("fence", shmem::fence);
        // The bulk local copies (Java conveniences): one memory copy, nothing else.
        SymDoubleArray doubles = c.calloc(SymType.DOUBLE, 128);
        double[] doubleArray = new double[128];
        ops.put("bulk get(long[]) 8 elements", () -> src.get(0, array, 0, 8));
        ops.put("bulk set(long[]) 8 elements", () -> dst.set(8, array, 0, 8));
        ops.put("bulk get(double[]) 1 KiB", () -> doubles.get(0, doubleArray, 0, 128));
        ops.put("bulk set(double[]) 1 KiB", () -> doubles.set(0, doubleArray, 0, 128));
        // A context of its own: the same paths through ShmemContext.
        ShmemContext ctx = shmem.ctxCreate(Shmem.CTX_PRIVATE);
        ops.put("context put+quiet", () -> {
            ctx.putmem(dst, 0, seg8, peer);
            ctx.quiet();
        });
        ops.put("context get", () -> ctx.get(array, 0, src, 0, 1, peer));
        measure(c, ops);
        ctx.close();
    }

    private static void waitsAndSyncs(CaseContext c) {
        Shmem shmem = c.shmem;
        SymLongArray flags = c.calloc(SymType.LONG, 8 + c.npes);
        Map<String, Runnable> ops = new LinkedHashMap<>();
        ops.put("test", () -> shmem.test(flags, 0, Cmp.EQ, 0));
        ops.put("waitUntil (already true)", () -> shmem.waitUntil(flags, 0, Cmp.EQ, 0));
        ops.put("signalWaitUntil (already true)", () -> shmem.signalWaitUntil(flags, 0, Cmp.GE, 0));
        int lock = 8 + c.me; // a lock of its own: the uncontended path, without waiting for the others
        // A lock's queue tail is on PE 0: measured where every PE reaches it by load/store, so that
        // every PE runs the same operations (the windows are agreed on by a collective).
        if (cpuAtomics() && shmem.teamShared().nPes() == c.npes) {
            ops.put("setLock/clearLock", () -> {
                shmem.setLock(flags, lock);
                shmem.clearLock(flags, lock);
            });
        }
        SymLongArray ivars = c.calloc(SymType.LONG, 4); // the vector waits take every element
        int[] status = new int[4];
        long[] values = new long[4];
        ops.put("waitUntilAll (already true)", () -> shmem.waitUntilAll(ivars, status, Cmp.EQ, 0));
        ops.put("waitUntilAny (already true)", () -> shmem.waitUntilAny(ivars, status, Cmp.EQ, 0));
        ops.put("testAllVector", () -> shmem.testAllVector(ivars, status, Cmp.EQ, values));
        ops.put("barrierAll", shmem::barrierAll);
        ops.put("syncAll", shmem::syncAll);
        measure(c, ops);
    }

    private static void collectives(CaseContext c) {
        ShmemTeam team = c.shmem.teamShared(); // on this node by definition
        int n = team.nPes();
        SymLongArray src = c.calloc(SymType.LONG, (long) LARGE * c.npes);
        SymLongArray dst = c.calloc(SymType.LONG, (long) LARGE * c.npes);
        SymIntArray isrc = c.calloc(SymType.INT, 64);
        SymIntArray idst = c.calloc(SymType.INT, 64);
        Map<String, Runnable> ops = new LinkedHashMap<>();
        ops.put("team sync", team::sync);
        for (int elems : new int[] {1, LARGE}) {
            String size = elems == 1 ? " 8 B" : " 64 KiB";
            ops.put("broadcast" + size, () -> team.broadcast(dst, src, elems, 0));
            ops.put("fcollect" + size, () -> team.fcollect(dst, src, elems));
            ops.put("alltoall" + size, () -> team.alltoall(dst, src, elems));
            ops.put("sumReduce" + size, () -> team.sumReduce(dst, src, elems));
        }
        ops.put("collect 8 B", () -> team.collect(dst, src, 1));
        ops.put("alltoalls 8 B", () -> team.alltoalls(dst, src, 2, 1, 1));
        ops.put("maxReduce(int)", () -> team.maxReduce(idst, isrc, 4));
        SymDoubleArray zsrc = c.calloc(SymType.DOUBLE, LARGE);
        SymDoubleArray zdst = c.calloc(SymType.DOUBLE, LARGE);
        SymFloatArray fsrc = c.calloc(SymType.FLOAT, 2);
        SymFloatArray fdst = c.calloc(SymType.FLOAT, 2);
        ops.put("complexSumReduce(float) 8 B", () -> team.complexSumReduce(fdst, fsrc, 1));
        ops.put("complexProdReduce(float) 8 B", () -> team.complexProdReduce(fdst, fsrc, 1));
        ops.put("complexProdReduce(double) 16 B", () -> team.complexProdReduce(zdst, zsrc, 1));
        ops.put("complexProdReduce(double) 64 KiB", () -> team.complexProdReduce(zdst, zsrc, LARGE / 2));
        ops.put("sumInscan 8 B", () -> team.sumInscan(dst, src, 1));
        // The scalar reductions (Java conveniences): through the team's internal words.
        ops.put("scalar sumReduce(long)", () -> team.sumReduce(7L));
        ops.put("scalar maxReduce(double)", () -> team.maxReduce(0.5));
        ops.put("scalar minReduce(int)", () -> team.minReduce(3));
        ops.put("scalar xorReduce(long)", () -> team.xorReduce(5L));
        // Teams split from it (even and odd members), which have slots of their own.
        Optional<ShmemTeam> evens = team.splitStrided(0, 2, (n + 1) / 2, null, 0);
        Optional<ShmemTeam> odds = n > 1 ? team.splitStrided(1, 2, n / 2, null, 0) : Optional.empty();
        ShmemTeam half = evens.or(() -> odds).orElseThrow();
        ops.put("split team sync", half::sync);
        ops.put("split team broadcast 8 B", () -> half.broadcast(dst, src, 1, 0));
        ops.put("split team sumReduce 8 B", () -> half.sumReduce(dst, src, 1));
        ops.put("split team scalar sumReduce(double)", () -> half.sumReduce(1.5));
        measure(c, ops);
        half.close();
    }

    /** Whether atomics on this node are the CPU's (SHMEM_ATOMICS=transport sends them through the network transport). */
    private static boolean cpuAtomics() {
        return !"transport".equalsIgnoreCase(System.getenv("SHMEM_ATOMICS"));
    }

    /** Runs every operation as the class comment says and fails the case for each that allocates. */
    private static void measure(CaseContext c, Map<String, Runnable> ops) {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (!threads.isThreadAllocatedMemorySupported() || !threads.isThreadAllocatedMemoryEnabled()) {
            c.skip("this JVM does not count allocated bytes per thread");
        }
        ShmemTeam world = c.shmem.teamWorld();
        SymLongArray allocating = c.calloc(SymType.LONG, 1);
        SymLongArray anyAllocating = c.calloc(SymType.LONG, 1);
        for (Map.Entry<String, Runnable> op : ops.entrySet()) {
            Runnable r = op.getValue();
            boolean large = op.getKey().endsWith("64 KiB");
            int warmUp = large ? WARM_UP_LARGE : WARM_UP;
            int window = large ? WINDOW_LARGE : WINDOW;
            for (int i = 0; i < warmUp; i++) {
                r.run();
                if (i % 500 == 0) {
                    CaseRunner.Watchdog.progressed(); // slow under load, not stuck
                }
            }
            long best = Long.MAX_VALUE;
            int windows = 0;
            do {
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < window; i++) {
                    r.run();
                }
                best = Math.min(best, threads.getCurrentThreadAllocatedBytes() - before);
                CaseRunner.Watchdog.progressed();
                // Agreed by all PEs (the calls may be collective): another window while any PE allocated.
                allocating.set(0, best < window ? 0 : 1);
                world.maxReduce(anyAllocating, allocating, 1);
            } while (anyAllocating.get(0) != 0 && ++windows < MAX_WINDOWS);
            c.check(best < window, op.getKey() + " allocates: " + best + " bytes in " + window + " calls (the least of "
                    + MAX_WINDOWS + " windows, after " + warmUp + " calls to compile it)");
        }
    }
}
