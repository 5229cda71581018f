/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.ShmemTeam;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.List;

/**
 * Collectives called back to back with no barrier between them, as the specification allows ("on
 * return from a team-based collective call, the PE may immediately call another collective
 * operation on that same team"), reusing the same arrays and rewriting {@code source} as soon as a
 * call returns; at sizes on both sides of the push-buffer size (8 KiB), so the push and pull
 * algorithms alternate; and in place ({@code dest == source}). A fast PE must never overwrite what
 * a slow one has not yet read.
 */
final class BackToBackCases {
    /** Element counts around the 8 KiB push buffer (1024 longs). */
    private static final int[] SIZES = {1, 3, 1023, 1024, 1025, 2000};

    private BackToBackCases() {
    }

    static List<Case> cases() {
        return List.of(
                Case.of("coll.back-to-back.broadcast", BackToBackCases::broadcasts),
                Case.of("coll.back-to-back.reduce", BackToBackCases::reductions),
                Case.of("coll.back-to-back.fcollect-alltoall", BackToBackCases::gathers),
                Case.of("coll.back-to-back.mixed-sizes", BackToBackCases::mixedSizes),
                Case.of("coll.back-to-back.in-place", BackToBackCases::inPlace),
                Case.of("coll.back-to-back.barrier-broadcast", BackToBackCases::barrierBroadcasts));
    }

    private static long v(long iteration, int pe, long j) {
        return iteration * 1_000_003L + pe * 10_007L + j;
    }

    private static void broadcasts(CaseContext c) {
        SymLongArray src = c.calloc(SymType.LONG, 4);
        SymLongArray dst = c.calloc(SymType.LONG, 4);
        ShmemTeam w = c.shmem.teamWorld();
        for (int i = 0; i < 500; i++) {
            int root = i % c.npes;
            for (int j = 0; j < 4; j++) {
                src.set(j, v(i, c.me, j));
            }
            w.broadcast(dst, src, 4, root);
            for (int j = 0; j < 4; j++) {
                if (!c.checkEq(v(i, root, j), dst.get(j), "broadcast #" + i + " from root " + root + ": dest[" + j + "]")) {
                    return;
                }
            }
        }
    }

    private static void reductions(CaseContext c) {
        SymLongArray src = c.calloc(SymType.LONG, 2);
        SymLongArray dst = c.calloc(SymType.LONG, 2);
        ShmemTeam w = c.shmem.teamWorld();
        for (int i = 0; i < 500; i++) {
            src.set(0, v(i, c.me, 0));
            src.set(1, -c.me - i);
            w.sumReduce(dst, src, 2);
            long sum = 0;
            for (int pe = 0; pe < c.npes; pe++) {
                sum += v(i, pe, 0);
            }
            if (!c.checkEq(sum, dst.get(0), "sum_reduce #" + i)) {
                return;
            }
            w.maxReduce(dst, src, 2);
            if (!c.checkEq(v(i, c.npes - 1, 0), dst.get(0), "max_reduce #" + i) || !c.checkEq(-i, dst.get(1), "max_reduce #" + i + "[1]")) {
                return;
            }
        }
    }

    private static void gathers(CaseContext c) {
        int n = c.npes;
        SymLongArray src = c.calloc(SymType.LONG, 2L * n);
        SymLongArray dst = c.calloc(SymType.LONG, 2L * n);
        ShmemTeam w = c.shmem.teamWorld();
        for (int i = 0; i < 300; i++) {
            src.set(0, v(i, c.me, 0));
            w.fcollect(dst, src, 1);
            for (int pe = 0; pe < n; pe++) {
                if (!c.checkEq(v(i, pe, 0), dst.get(pe), "fcollect #" + i + ": block of PE " + pe)) {
                    return;
                }
            }
            for (int to = 0; to < n; to++) {
                src.set(to, v(i, c.me, to));
            }
            w.alltoall(dst, src, 1);
            for (int from = 0; from < n; from++) {
                if (!c.checkEq(v(i, from, c.me), dst.get(from), "alltoall #" + i + ": block from PE " + from)) {
                    return;
                }
            }
        }
    }

    private static void mixedSizes(CaseContext c) {
        int max = SIZES[SIZES.length - 1];
        SymLongArray src = c.calloc(SymType.LONG, (long) max * c.npes);
        SymLongArray dst = c.calloc(SymType.LONG, (long) max * c.npes);
        ShmemTeam w = c.shmem.teamWorld();
        for (int rep = 0; rep < 6; rep++) {
            for (int k = 0; k < SIZES.length; k++) {
                int size = SIZES[(k + rep) % SIZES.length];
                long i = rep * 100L + k;
                int root = (int) (i % c.npes);
                for (int j = 0; j < size; j++) {
                    src.set(j, v(i, c.me, j));
                }
                w.broadcast(dst, src, size, root);
                if (!c.checkEq(v(i, root, size - 1), dst.get(size - 1), "broadcast of " + size + " longs #" + i)
                        || !c.checkEq(v(i, root, 0), dst.get(0), "broadcast of " + size + " longs #" + i + "[0]")) {
                    return;
                }
                w.sumReduce(dst, src, size);
                long sum = 0;
                for (int pe = 0; pe < c.npes; pe++) {
                    sum += v(i, pe, size - 1);
                }
                if (!c.checkEq(sum, dst.get(size - 1), "sum_reduce of " + size + " longs #" + i)) {
                    return;
                }
                w.fcollect(dst, src, size);
                for (int pe = 0; pe < c.npes; pe++) {
                    if (!c.checkEq(v(i, pe, size - 1), dst.get((long) pe * size + size - 1),
                            "fcollect of " + size + " longs #" + i + ", block of PE " + pe)) {
                        return;
                    }
                }
                w.collect(dst, src, c.me % 2 == 0 ? size : 1);
                long at = 0;
                for (int pe = 0; pe < c.npes; pe++) {
                    int len = pe % 2 == 0 ? size : 1;
                    if (!c.checkEq(v(i, pe, len - 1), dst.get(at + len - 1), "collect #" + i + ", block of PE " + pe)) {
                        return;
                    }
                    at += len;
                }
                // Above the push buffers alltoall moves the blocks between the arrays themselves: a
                // fast PE's next call must neither change nor overwrite a block a slow PE still needs.
                for (int to = 0; to < c.npes; to++) {
                    src.set((long) to * size, v(i, c.me, to));
                    src.set((long) to * size + size - 1, v(i, c.me, size > 1 ? -to : to));
                }
                w.alltoall(dst, src, size);
                for (int pe = 0; pe < c.npes; pe++) {
                    if (!c.checkEq(v(i, pe, c.me), dst.get((long) pe * size), "alltoall of " + size + " longs #" + i + ", block of PE " + pe)
                            || !c.checkEq(v(i, pe, size > 1 ? -c.me : c.me), dst.get((long) pe * size + size - 1),
                                    "alltoall of " + size + " longs #" + i + ", end of the block of PE " + pe)) {
                        return;
                    }
                }
            }
        }
    }

    /**
     * Barriers followed by broadcasts, the pattern after which a barrier lets the broadcast's root
     * leave first: the root changes every call (and is sometimes this PE), the root rewrites its
     * source between the barrier and the broadcast, some barriers are followed by another barrier
     * or by two broadcasts from different roots, and the same runs on the shared team with
     * team syncs, so each member's choice of whom to wait for changes from call to call.
     */
    private static void barrierBroadcasts(CaseContext c) {
        SymLongArray src = c.calloc(SymType.LONG, 1);
        SymLongArray dst = c.calloc(SymType.LONG, 1);
        ShmemTeam[] teams = {c.shmem.teamWorld(), c.shmem.teamShared()};
        for (int i = 0; i < 3000; i++) {
            ShmemTeam t = teams[i / 1000 % 2];
            int n = t.nPes();
            int root = (i * 7 / 3) % n;
            src.set(0, -1);
            if (t == teams[0]) {
                c.shmem.barrierAll();
            } else {
                t.sync();
            }
            src.set(0, v(i, t.myPe(), 0));
            if (i % 5 == 4) {
                t.sync(); // a barrier after a barrier: nobody waits for a root
            }
            t.broadcast(dst, src, 1, root);
            if (!c.checkEq(v(i, root, 0), dst.get(0), "broadcast #" + i + " from team PE " + root + " after a barrier")) {
                return;
            }
            if (i % 3 == 0) {
                int second = (root + 1) % n;
                src.set(0, v(i + 1, t.myPe(), 0));
                t.broadcast(dst, src, 1, second);
                if (!c.checkEq(v(i + 1, second, 0), dst.get(0), "second broadcast #" + i + " from team PE " + second)) {
                    return;
                }
            }
        }
    }

    private static void inPlace(CaseContext c) {
        SymLongArray a = c.calloc(SymType.LONG, 3);
        ShmemTeam w = c.shmem.teamWorld();
        for (int i = 0; i < 200; i++) {
            a.set(0, v(i, c.me, 0));
            a.set(1, 1);
            a.set(2, c.me);
            w.sumReduce(a, a, 3);
            long sum = 0;
            for (int pe = 0; pe < c.npes; pe++) {
                sum += v(i, pe, 0);
            }
            if (!c.checkEq(sum, a.get(0), "in-place sum_reduce #" + i) || !c.checkEq(c.npes, a.get(1), "in-place count #" + i)) {
                return;
            }
            a.set(0, 1);
            w.sumInscan(a, a, 1);
            if (!c.checkEq(c.me + 1, a.get(0), "in-place sum_inscan #" + i)) {
                return;
            }
            a.set(0, v(i, c.me, 0));
            w.broadcast(a, a, 1, i % c.npes);
            if (!c.checkEq(v(i, i % c.npes, 0), a.get(0), "in-place broadcast #" + i)) {
                return;
            }
        }
    }
}
