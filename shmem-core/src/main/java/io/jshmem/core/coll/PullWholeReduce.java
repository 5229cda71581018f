/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.lang.foreign.MemorySegment;

/**
 * {@code pull-whole}: small reductions ({@link Selector#SMALL_REDUCE_BYTES}) or a team of one,
 * pulled: after a sync every member reduces all the inputs whole into private memory, and after
 * another (nobody reads the sources any more: dest may be source) copies the result into its dest.
 * One sync fewer than reduce-scatter then allgather.
 */
final class PullWholeReduce extends CollKind implements ReduceAlgorithm {
    PullWholeReduce(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "pull-whole";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        team.syncInternal();
        MemorySegment a = kit.accumulator(nbytes);
        kit.reduceInto(op, elem, a, sOff, 0, count, shift, team.members.length);
        team.syncInternal(); // nobody reads the sources any more: dest may be source
        MemorySegment.copy(a, 0, st.self, dOff, nbytes);
    }
}
