/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-bruck}: alltoall(s) across nodes for small blocks, Bruck's algorithm (as MPICH's
 * short alltoall), for any number of members: ceil(log2 N) rounds of one push each (through the
 * push buffers, or straight into a free part of the receiver's dest, {@link BufferedRounds}), so
 * O(log N) messages per PE for O(N log N) bytes instead of a push to every member.
 *
 * <p>This PE's blocks are first rotated into a private working array W, W[i] being the block for
 * member me + i (mod N). In round k (distance 2^k) it sends every W[i] whose index has bit k set,
 * packed, to member me + 2^k and receives the same places from member me - 2^k: a block at place
 * i moves by the distances of i's bits, so it ends at member (sender + i), still at place i. So
 * at the end W[i] is member me - i's block for this PE, and dest gets it at block me - i. The
 * packed run is staged in the first half of this PE's dest, and a run too large for a push buffer
 * lands in the second (nobody else writes dest in this call); dest gets its blocks last, so
 * strided calls (whose dest has gaps to keep) go another way.
 */
final class BruckAlltoall extends CollKind implements AlltoallAlgorithm {
    /** Round words 112-175 ({@link RoundPushes}; the reductions take 0-95, {@link PipelinedBroadcast} 96-103). */
    private final BufferedRounds rounds;

    BruckAlltoall(Collectives kit) {
        super(kit);
        this.rounds = new BufferedRounds(team, RoundPushes.SPARE);
    }

    @Override
    public String name() {
        return "push-bruck";
    }

    @Override
    public void alltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        int n = team.members.length;
        int me = team.me;
        long all = nbytes * n;
        MemorySegment w = kit.staging(all + (n / 2) * nbytes); // W, then the received run of a round
        long received = all;
        MemorySegment.copy(st.self, s.offset + me * nbytes, w, 0, all - me * nbytes);
        MemorySegment.copy(st.self, s.offset, w, all - me * nbytes, me * nbytes);
        long first = 0;
        for (int dist = 1; dist < n; dist <<= 1) {
            int to = (me + dist) % n;
            int from = (me - dist + n) % n;
            long len = moveRun(w, st.self, d.offset, dist, n, nbytes, true);
            // a run past a push buffer lands at the end of dest: it holds the places whose index has bit k
            // set, at most N / 2, so it stays clear of the first half, where the receiver stages its own
            first = rounds.sendReceive(Integer.numberOfTrailingZeros(dist), to, d.offset, from, w, received, d.offset + all - len, len,
                    first);
            moveRun(w, w, received, dist, n, nbytes, false);
        }
        for (int i = 0; i < n; i++) {
            MemorySegment.copy(w, i * nbytes, st.self, d.offset + ((me - i + n) % n) * nbytes, nbytes);
        }
        BufferedRounds.finished(team, first);
    }

    /**
     * A round's run of Bruck's schedule over {@code n} places of {@code unit} bytes in W: the places
     * with bit log2(dist) set (runs of dist places), packed at {@code at} of {@code seg} in order.
     * Copies them there from W ({@code pack}) or back into W; returns the run's length in bytes.
     */
    static long moveRun(MemorySegment w, MemorySegment seg, long at, int dist, int n, long unit, boolean pack) {
        long len = 0;
        for (int lo = dist; lo < n; lo += 2 * dist) {
            long run = (Math.min(lo + dist, n) - lo) * unit;
            if (pack) {
                MemorySegment.copy(w, lo * unit, seg, at + len, run);
            } else {
                MemorySegment.copy(seg, at + len, w, lo * unit, run);
            }
            len += run;
        }
        return len;
    }
}
