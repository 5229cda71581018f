/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.lang.foreign.MemorySegment;

/**
 * Reduce-scatter, pulled: after a sync member i reduces elements [lo(i), lo(i+1)) of every
 * member's source into private memory. Then {@code pull-reduce-scatter-allgather} (one node, or
 * across nodes with {@code pull}): it stores its slice into its dest, and after a sync every
 * member fetches the others' slices, and a last sync ends the reading. Or
 * {@code pull-reduce-scatter-into-dest} (one node, more than 2 members): the slice goes straight
 * into every member's dest (all have entered the call, so their dest is free), and one sync both
 * delivers the slices and ends the reading of the sources: two syncs instead of three. The slice is
 * reduced into private memory first, since a member's dest may be its source, which others still
 * read. Not for 2 PEs: there it was bimodal (bound to cores, 64 KiB: a median of 7 us in some
 * runs, 94 in others, against 9-23 us pulling), cause not found.
 */
final class PullScatterReduce extends CollKind implements ReduceAlgorithm {
    private final boolean intoDest;

    PullScatterReduce(Collectives kit, boolean intoDest) {
        super(kit);
        this.intoDest = intoDest;
    }

    @Override
    public String name() {
        return intoDest ? "pull-reduce-scatter-into-dest" : "pull-reduce-scatter-allgather";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        int n = team.members.length;
        team.syncInternal();
        long lo = count * team.me / n;
        long hi = count * (team.me + 1) / n;
        MemorySegment a = kit.accumulator((hi - lo) << shift);
        kit.reduceInto(op, elem, a, sOff + (lo << shift), 0, hi - lo, shift, n);
        if (intoDest) {
            for (int k = 0; k < n; k++) {
                int i = (team.me + k) % n; // staggered, so that members do not all write to PE 0 first
                MemorySegment.copy(a, 0, kit.mapped(i), dOff + (lo << shift), (hi - lo) << shift);
            }
            team.syncInternal();
            return;
        }
        MemorySegment.copy(a, 0, st.self, dOff + (lo << shift), (hi - lo) << shift);
        team.syncInternal();
        for (int i = 0; i < n; i++) {
            if (i != team.me) {
                long ilo = count * i / n;
                long ihi = count * (i + 1) / n;
                kit.fetch(team.members[i], dOff + (ilo << shift), st.self, dOff + (ilo << shift), (ihi - ilo) << shift);
            }
        }
        kit.fetched();
        team.syncInternal();
    }
}
