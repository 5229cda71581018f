/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-bruck}: fcollect across nodes, Bruck's allgather, for any number of members (for a
 * power of two it takes the rounds and pushes of recursive doubling): ceil(log2 N) rounds of one
 * push each (through the push buffers, or straight into the receiver's dest, {@link
 * BufferedRounds}), each PE sending N - 1 PEs' data in all. dest holds the working array: place i
 * is member me + i's data (mod N). In the round of distance d this PE has places [0, d) and sends
 * the first min(d, N - d) of them to member me - d, receiving member me + d's into places [d, 2d).
 * Then a rotation by me places puts every member's data at its own place. The rounds past a push
 * buffer share one epoch, and each PE tells all their senders at once that their places are free:
 * each such round then costs one step, the push, not a word and a push.
 */
final class BruckFcollect extends CollKind implements CollectAlgorithm {
    /** Round words 176-239 ({@link RoundPushes}; {@link BruckAlltoall} takes 112-175). */
    private final BufferedRounds rounds;

    BruckFcollect(Collectives kit) {
        super(kit);
        this.rounds = new BufferedRounds(team, RoundPushes.SPARE + 64);
    }

    @Override
    public String name() {
        return "push-bruck";
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        int n = team.members.length;
        int me = team.me;
        MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        long first = 0;
        long past = 0; // the epoch of the rounds past a push buffer, once they have begun
        for (int dist = 1; dist < n; dist <<= 1) {
            long len = run(dist, n, nbytes);
            long at = d.offset + dist * nbytes; // places [dist, 2 dist): written by nobody else in this call
            int to = (me - dist + n) % n;
            int src = (me + dist) % n;
            if (len <= TeamSlots.BUF_BYTES) { // (the rounds before, or the last one)
                first = rounds.sendReceive(Integer.numberOfTrailingZeros(dist), to, d.offset, src, st.self, at, at, len, first);
                continue;
            }
            if (past == 0) {
                // The runs grow round by round while they land in places of their own: tell the senders
                // of all the rounds past a buffer at once, so that no round waits for its receiver's word.
                past = team.beginEntered();
                first = first == 0 ? past : first;
                for (int later = dist; later < n && run(later, n, nbytes) > TeamSlots.BUF_BYTES; later <<= 1) {
                    rounds.tellReady(Integer.numberOfTrailingZeros(later), (me + later) % n, past);
                }
            }
            rounds.pushWhenReady(Integer.numberOfTrailingZeros(dist), to, d.offset, src, at, len, past);
        }
        if (me != 0) { // place i to block me + i: a rotation, through the staging memory
            long all = nbytes * n;
            long head = (n - me) * nbytes;
            MemorySegment w = kit.staging(all);
            MemorySegment.copy(st.self, d.offset, w, 0, all);
            MemorySegment.copy(w, 0, st.self, d.offset + me * nbytes, head);
            MemorySegment.copy(w, head, st.self, d.offset, all - head);
        }
        BufferedRounds.finished(team, first);
    }

    /** The bytes each PE sends in the round of distance {@code dist}: the first min(dist, n - dist) places. */
    private static long run(int dist, int n, long nbytes) {
        return Math.min(dist, n - dist) * nbytes;
    }
}
