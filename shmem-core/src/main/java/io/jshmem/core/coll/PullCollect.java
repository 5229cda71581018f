/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * {@code pull}: after a sync each member reads every member's source into its dest (a collect
 * first exchanges the sizes and checks that dest holds them all), then a sync ends the reading.
 */
final class PullCollect extends CollKind implements CollectAlgorithm {
    /** Every member's byte count in a pulled collect, reused by each call. */
    private final long[] memberSizes;

    PullCollect(Collectives kit) {
        super(kit);
        this.memberSizes = new long[team.members.length];
    }

    @Override
    public String name() {
        return "pull";
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        int n = team.members.length;
        long[] sizes;
        if (fixed) {
            team.syncInternal();
            sizes = null;
        } else {
            sizes = team.exchange(nbytes, memberSizes);
            long total = 0;
            for (long z : sizes) {
                total += z;
            }
            kit.checkFits(d, total, routine, "dest");
            team.syncInternal();
        }
        long at = 0;
        for (int i = 0; i < n; i++) {
            long size = fixed ? nbytes : sizes[i];
            kit.fetch(team.members[i], s.offset, st.self, d.offset + at, size);
            at += size;
        }
        kit.fetched();
        team.syncInternal();
    }
}
