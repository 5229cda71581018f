/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-ring}: a large fcollect across nodes (no more members than a slot has entry words),
 * the ring allgather: each PE tells its left neighbour that it has entered (its dest is free),
 * then in N - 1 steps passes the data it has last got (its own first) straight into its right
 * neighbour's dest, counted. Each PE sends and receives N - 1 PEs' data, one message each, from
 * one neighbour only: no member is flooded by all the others at once ({@link PushIntoDestCollect}).
 */
final class RingFcollect extends CollKind implements CollectAlgorithm {
    RingFcollect(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-ring";
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        int n = team.members.length;
        int me = team.me;
        int left = (me - 1 + n) % n;
        int right = (me + 1) % n;
        long e = team.beginEntered();
        team.tellEntered(left, e);
        MemorySegment.copy(st.self, s.offset, st.self, d.offset + me * nbytes, nbytes);
        team.awaitEntered(right, e);
        for (int r = 0; r < n - 1; r++) {
            if (r > 0) {
                team.awaitPushesSoFar(e, r, left); // member me - r's data, passed on by the left neighbour
            }
            long at = d.offset + ((me - r + n) % n) * nbytes;
            team.pushInto(right, e, at, at, nbytes);
        }
        team.awaitPushes(e, n - 1, left, left + 1);
        team.receivedFromAll(e);
    }
}
