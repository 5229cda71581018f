/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code pull}: after a sync each member sums its predecessors' sources (and its own) into
 * private memory; after another (nobody reads the sources any more) it copies the sum into its dest.
 */
final class PullScan extends CollKind implements ScanAlgorithm {
    PullScan(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "pull";
    }

    @Override
    public void scan(SymArrayImpl<?> d, SymArrayImpl<?> s, Reductions.Elem elem, long count, long nbytes, boolean inclusive) {
        team.syncInternal();
        MemorySegment a = kit.accumulator(nbytes);
        Collectives.zero(a, 0, nbytes);
        int upto = inclusive ? team.me + 1 : team.me;
        if (upto > 0) {
            kit.reduceInto(ReduceOp.SUM, elem, a, s.offset, 0, count, d.shift, upto);
        }
        team.syncInternal();
        MemorySegment.copy(a, 0, st.self, d.offset, nbytes);
    }
}
