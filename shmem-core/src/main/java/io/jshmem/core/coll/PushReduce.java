/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;

/**
 * {@code push}: members all on this node, data within a push buffer. Each member copies its input
 * into its push buffer and arrives; each combines all buffers, in team order, into its dest.
 */
final class PushReduce extends CollKind implements ReduceAlgorithm {
    PushReduce(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        int n = team.members.length;
        long e = kit.produce(sOff, nbytes, false);
        long buf = team.buffer(e);
        team.awaitArrival(0, e);
        st.comm.get(team.members[0], buf, st.self, dOff, nbytes, false);
        for (int i = 1; i < n; i++) {
            team.awaitArrival(i, e);
            Reductions.combine(op, elem, st.self, dOff, kit.mapped(i), buf, count);
        }
    }
}
