/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-gather-at-0}: members across nodes (other than 2), all inputs within a push buffer:
 * gathered at team PE 0, combined there in team order (the result every member gets, bitwise),
 * pushed back down. 2(n-1) messages in two hops; every member pushing to every other (n(n-1)
 * messages, one hop) cost 2-3x more with more PEs than cores over TCP.
 */
final class GatherAt0Reduce extends CollKind implements ReduceAlgorithm {
    GatherAt0Reduce(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-gather-at-0";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        int n = team.members.length;
        long e = team.beginPush();
        long buf = kit.gatherAt0(e, sOff, nbytes);
        if (team.me == 0) {
            MemorySegment.copy(st.self, buf, st.self, dOff, nbytes);
            for (int i = 1; i < n; i++) {
                Reductions.combine(op, elem, st.self, dOff, st.self, buf + i * nbytes, count);
            }
        }
        long from = kit.pushDown(e, 0, dOff, nbytes, false);
        if (team.me != 0) {
            MemorySegment.copy(st.self, from, st.self, dOff, nbytes);
        }
        // The result left PE 0 after every member had entered this call.
        team.receivedFromAll(e);
    }
}
