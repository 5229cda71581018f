/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.core.comm.SymArrayImpl;

/**
 * {@code push}: members all on this node, data within a push buffer. Each member copies its input
 * into its push buffer and arrives; each sums its predecessors' buffers (and its own) into its dest.
 */
final class PushScan extends CollKind implements ScanAlgorithm {
    PushScan(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push";
    }

    @Override
    public void scan(SymArrayImpl<?> d, SymArrayImpl<?> s, Reductions.Elem elem, long count, long nbytes, boolean inclusive) {
        long e = kit.produce(s.offset, nbytes, false);
        long buf = team.buffer(e);
        Collectives.zero(st.self, d.offset, nbytes);
        int upto = inclusive ? team.me + 1 : team.me;
        for (int i = 0; i < upto; i++) {
            team.awaitArrival(i, e);
            Reductions.combine(ReduceOp.SUM, elem, st.self, d.offset, kit.mapped(i), buf, count);
        }
    }
}
