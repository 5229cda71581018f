/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-to-successors}: members across nodes, all inputs within a push buffer. Member j
 * pushes its input to the members after it; each sums its predecessors' (and its own) into its dest.
 */
final class SuccessorsScan extends CollKind implements ScanAlgorithm {
    SuccessorsScan(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-to-successors";
    }

    @Override
    public void scan(SymArrayImpl<?> d, SymArrayImpl<?> s, Reductions.Elem elem, long count, long nbytes, boolean inclusive) {
        int n = team.members.length;
        long e = team.beginPush();
        long buf = team.buffer(e);
        for (int i = team.me + 1; i < n; i++) {
            team.pushTo(i, e, team.me * nbytes, s.offset, nbytes);
        }
        MemorySegment.copy(st.self, s.offset, st.self, buf + team.me * nbytes, nbytes);
        team.awaitPushes(e, team.me, 0, team.me);
        Collectives.zero(st.self, d.offset, nbytes);
        int upto = inclusive ? team.me + 1 : team.me;
        for (int i = 0; i < upto; i++) {
            Reductions.combine(ReduceOp.SUM, elem, st.self, d.offset, st.self, buf + i * nbytes, count);
        }
    }
}
