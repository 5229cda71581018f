/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-gather-at-0}: an fcollect of more than two members across nodes whose data fits a
 * push buffer: gathered at team PE 0 and pushed back down as a broadcast, as small reductions are.
 */
final class GatherAt0Collect extends CollKind implements CollectAlgorithm {
    GatherAt0Collect(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-gather-at-0";
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        int n = team.members.length;
        long e = team.beginPush();
        long from = kit.pushDown(e, 0, kit.gatherAt0(e, s.offset, nbytes), nbytes * n, false);
        MemorySegment.copy(st.self, from, st.self, d.offset, nbytes * n);
        team.receivedFromAll(e); // the data left PE 0 after every member had entered this call
    }
}
