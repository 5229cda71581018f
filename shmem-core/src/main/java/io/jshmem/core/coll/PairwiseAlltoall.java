/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-pairwise}: alltoall across nodes for large blocks (contiguous; no more members than
 * a slot has entry words), as MPICH's long alltoall: in round r (1 to N - 1) this PE sends its
 * block to member me + r and receives from member me - r, so that every member receives from one
 * sender at a time instead of from all at once ({@link PushIntoDestAlltoall}). The block goes
 * straight into the receiver's dest, once the receiver has told this PE that it entered the call;
 * it tells its round-r sender at the start of round r, so a member that runs ahead waits for the
 * slower ones instead of flooding them.
 */
final class PairwiseAlltoall extends CollKind implements AlltoallAlgorithm {
    PairwiseAlltoall(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-pairwise";
    }

    @Override
    public void alltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        int n = team.members.length;
        int me = team.me;
        long e = team.beginEntered();
        for (int r = 1; r < n; r++) {
            int to = (me + r) % n;
            team.tellEntered((me - r + n) % n, e);
            team.awaitEntered(to, e);
            team.pushInto(to, e, d.offset + me * nbytes, s.offset + to * nbytes, nbytes);
        }
        MemorySegment.copy(st.self, s.offset + me * nbytes, st.self, d.offset + me * nbytes, nbytes);
        team.awaitPushes(e, n - 1, 0, n);
        team.receivedFromAll(e);
    }
}
