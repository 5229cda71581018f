/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-reduce-scatter-allgather}: a reduction too large for the push buffers, members not
 * all on this node: reduce-scatter then allgather, both pushed, in rounds of at most
 * {@link TeamSlots#LANDING_BYTES}. In a round each member pushes slice i of its source into member
 * i's landing area (at its own place there); member i reduces the slices in team order (so every
 * member gets bitwise the same result) and pushes the reduced slice into every member's dest. Two
 * one-way hops a round and no sync: having a member's slice proves it entered the call (its dest
 * is free), and a member starts round r + 1 only with every member's result of round r, sent
 * after that member had read its landing area. (Pulled, with three syncs, 64 KiB over UCX/TCP at 4
 * PEs on 2 cores took 10-30x OSHMEM's time: the gets waited for peers that yielded the core in
 * their waits.)
 */
final class PushedScatterReduce extends CollKind implements ReduceAlgorithm {
    PushedScatterReduce(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-reduce-scatter-allgather";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        int n = team.members.length;
        int me = team.me;
        long perSlice = (TeamSlots.LANDING_BYTES / n) >> shift; // elements of a slice, at most
        long perRound = perSlice * n;
        long place = perSlice << shift; // member k's slice at k * place in the landing area
        long e1 = team.beginPush(); // counts the slices
        long e2 = team.beginPush(); // counts the results
        for (long base = 0; base < count; base += perRound) {
            long c = Math.min(perRound, count - base);
            for (int k = 1; k < n; k++) {
                int i = (me + k) % n; // staggered, so that members do not all send to PE 0 first
                long lo = base + c * i / n;
                long hi = base + c * (i + 1) / n;
                team.pushInto(i, e1, team.landingOff + me * place, sOff + (lo << shift), (hi - lo) << shift);
            }
            long lo = base + c * me / n;
            long len = base + c * (me + 1) / n - lo;
            team.awaitPushes(e1, n - 1, 0, n);
            MemorySegment a = kit.accumulator(len << shift);
            for (int k = 0; k < n; k++) {
                long at = k == me ? sOff + (lo << shift) : team.landingOff + k * place;
                if (k == 0) {
                    MemorySegment.copy(st.self, at, a, 0, len << shift);
                } else {
                    Reductions.combine(op, elem, a, 0, st.self, at, len);
                }
            }
            // Into this PE's dest first (its source there, if the same, is read by nobody else).
            long mine = dOff + (lo << shift);
            MemorySegment.copy(a, 0, st.self, mine, len << shift);
            for (int k = 1; k < n; k++) {
                team.pushInto((me + k) % n, e2, mine, mine, len << shift);
            }
            team.awaitPushes(e2, n - 1, 0, n);
        }
        team.receivedFromAll(e2);
    }
}
