/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * {@code push}: members all on this node. Each member copies its data into its push buffer as
 * [byte count][data] and arrives; each reads every member's from its buffer. A collect's sizes
 * differ by PE, so whether the data fits is decided once all counts are known: if some member's
 * does not, every member sees it and all fall back to reading the sources ({@code pull}).
 */
final class PushCollect extends CollKind implements CollectAlgorithm {
    PushCollect(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push";
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        if (pushCollect(d, s, nbytes, fixed, routine)) {
            return;
        }
        team.syncInternal();
        long at = 0;
        kit.algorithm = "pull";
        int n = team.members.length;
        for (int i = 0; i < n; i++) {
            long size = st.comm.getValue(team.members[i], team.buffer(team.epoch() - 1), 8);
            kit.fetch(team.members[i], s.offset, st.self, d.offset + at, size);
            at += size;
        }
        kit.fetched();
        team.syncInternal();
    }

    /**
     * (f)collect through the push buffers: each buffer holds [byte count][data], the data only when
     * it fits. Returns false, having moved nothing, when some member's data did not fit (collect
     * only; every member sees the same counts, so all return false together).
     */
    private boolean pushCollect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        int n = team.members.length;
        long limit = TeamSlots.BUF_BYTES - 8;
        long e = kit.produce(s.offset, nbytes <= limit ? nbytes : 0, nbytes, true);
        long buf = team.buffer(e);
        if (!fixed) {
            long total = 0;
            boolean fits = true;
            for (int i = 0; i < n; i++) {
                team.awaitArrival(i, e);
                long size = st.comm.getValue(team.members[i], buf, 8);
                total += size;
                fits &= size <= limit;
            }
            if (total > d.byteSize()) {
                throw st.error(routine + " dest needs " + total + " bytes but " + d + " has " + d.byteSize());
            }
            if (!fits) {
                return false;
            }
        }
        long at = d.offset;
        for (int i = 0; i < n; i++) {
            team.awaitArrival(i, e);
            int pe = team.members[i];
            long size = fixed ? nbytes : st.comm.getValue(pe, buf, 8);
            st.comm.get(pe, buf + 8, st.self, at, size, false);
            at += size;
        }
        return true;
    }
}
