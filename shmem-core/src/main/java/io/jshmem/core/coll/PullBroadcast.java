/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/** {@code pull}: after a sync every member reads the root's source; a second sync ends the reading. */
final class PullBroadcast extends CollKind implements BroadcastAlgorithm {
    PullBroadcast(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "pull";
    }

    @Override
    public void broadcast(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
        team.syncInternal();
        kit.copyFrom(team.members[root], s.offset, st.self, d.offset, nbytes);
        team.syncInternal();
    }
}
