/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-exchange-run}: two members across nodes, data up to
 * {@link Collectives#EXCHANGE_BUFFERS} push buffers: each pushes its whole input into the other's
 * push buffers of a run of epochs ({@link SlotProtocol#beginPushRun}) and combines both, in team
 * order, into its dest. One hop and no sync, where reduce-scatter then allgather
 * ({@link PushedScatterReduce}) takes two; each PE combines all the data instead of half, which
 * costs far less than a hop.
 */
final class ExchangeRunReduce extends CollKind implements ReduceAlgorithm {
    ExchangeRunReduce(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-exchange-run";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        long e = team.beginPushRun((int) ((nbytes + TeamSlots.BUF_BYTES - 1) / TeamSlots.BUF_BYTES));
        // The run wraps around the slot's buffers: `head` bytes from buffer(e), the rest from the first buffer.
        long head = Math.min(nbytes, (TeamSlots.PUSH_BUFFERS - (e & (TeamSlots.PUSH_BUFFERS - 1))) * (long) TeamSlots.BUF_BYTES);
        long buf = team.buffer(e);
        long tail = team.buffer(e + head / TeamSlots.BUF_BYTES);
        int other = 1 - team.me;
        team.pushInto(other, e, buf, sOff, head);
        if (head < nbytes) {
            team.pushInto(other, e, tail, sOff + head, nbytes - head);
        }
        team.awaitPushes(e, head < nbytes ? 2 : 1, other, other + 1);
        long headCount = head >> shift;
        if (team.me == 0) { // dest = mine op theirs
            MemorySegment.copy(st.self, sOff, st.self, dOff, nbytes);
            Reductions.combine(op, elem, st.self, dOff, st.self, buf, headCount);
            Reductions.combine(op, elem, st.self, dOff + head, st.self, tail, count - headCount);
        } else { // dest = theirs op mine; through private memory if dest overlaps the source it still reads
            boolean overlap = dOff < sOff + nbytes && sOff < dOff + nbytes;
            MemorySegment to = overlap ? kit.accumulator(nbytes) : st.self;
            long at = overlap ? 0 : dOff;
            MemorySegment.copy(st.self, buf, to, at, head);
            MemorySegment.copy(st.self, tail, to, at + head, nbytes - head);
            Reductions.combine(op, elem, to, at, st.self, sOff, count);
            if (overlap) {
                MemorySegment.copy(to, 0, st.self, dOff, nbytes);
            }
        }
        team.receivedFromAll(e);
    }
}
