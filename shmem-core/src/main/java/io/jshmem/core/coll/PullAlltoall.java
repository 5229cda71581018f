/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * {@code pull}: after a sync each member reads its block from every member's source (element by
 * element when strided), then a sync ends the reading. {@code pull-as-arrived} (one node, linear
 * sync): each member's blocks are read as soon as that member has arrived (its own first),
 * instead of after all have.
 */
final class PullAlltoall extends CollKind implements AlltoallAlgorithm {
    private final boolean asArrived;

    PullAlltoall(Collectives kit, boolean asArrived) {
        super(kit);
        this.asArrived = asArrived;
    }

    @Override
    public String name() {
        return asArrived ? "pull-as-arrived" : "pull";
    }

    @Override
    public void alltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        int n = team.members.length;
        long e = asArrived ? team.enterSync() : 0;
        if (!asArrived) {
            team.syncInternal();
        }
        for (int j = 0; j < n; j++) {
            int i = (team.me + j) % n;
            if (asArrived && i != team.me) {
                team.awaitArrival(i, e);
            }
            int from = team.members[i];
            if (dst == 1 && sst == 1) {
                kit.fetch(from, s.offset + team.me * nbytes, st.self, d.offset + i * nbytes, nbytes);
            } else {
                for (long k = 0; k < per; k++) {
                    kit.fetch(from, s.offset + sst * (team.me * per + k) * unit, st.self, d.offset + dst * (i * per + k) * unit, unit);
                }
            }
        }
        if (asArrived) {
            team.synced(e);
        }
        kit.fetched();
        team.syncInternal();
    }
}
