/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push}: members all on this node, data within a push buffer. The root copies its source
 * into its push buffer of this epoch and publishes the epoch in its arrival word; the others wait
 * for that word and copy from the root's buffer, then arrive. The root returns as soon as its
 * data is in its buffer.
 */
final class PushBroadcast extends CollKind implements BroadcastAlgorithm {
    PushBroadcast(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push";
    }

    @Override
    public void broadcast(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
        long e = team.nextEpoch();
        long buf = team.buffer(e);
        if (team.me == root) {
            team.awaitBufferFree(e);
            MemorySegment.copy(st.self, s.offset, st.self, buf, nbytes);
            team.arrive(e);
            MemorySegment.copy(st.self, buf, st.self, d.offset, nbytes);
        } else {
            team.awaitArrival(root, e);
            st.comm.get(team.members[root], buf, st.self, d.offset, nbytes, false);
            team.arrive(e);
        }
    }
}
