/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.SymArray;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * The algorithms of collect, fcollect and their mem forms for one team (what they share: {@link CollKind}).
 */
final class Collects extends CollKind {
    /** Every member's byte count in a pulled collect, reused by each call. */
    private final long[] memberSizes;

    Collects(Collectives kit) {
        super(kit);
        this.memberSizes = new long[team.members.length];
    }

    public void collect(SymArray<?> dest, SymArray<?> source, long count, boolean bytes, boolean fixed) {
        team.checkLive();
        String routine = fixed ? "fcollect" : "collect";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = kit.bytes(d, s, count, bytes, routine);
        kit.checkFits(s, nbytes, routine, "source");
        int n = team.members.length;
        long[] sizes;
        kit.algorithm = "pull";
        team.begin(fixed ? SlotProtocol.OP_FCOLLECT : SlotProtocol.OP_COLLECT, fixed ? nbytes : 0, -1, nbytes, 0, 0, null);
        if (push && fixed && nbytes + 8 <= TeamSlots.BUF_BYTES) {
            kit.algorithm = "push";
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            kit.checkFits(d, nbytes * n, routine, "dest");
            pushCollect(d, s, nbytes, true, routine);
            return;
        }
        if (pushAcross && fixed && nbytes * n <= TeamSlots.BUF_BYTES) {
            kit.algorithm = n == 2 ? "push-exchange" : "push-gather-at-0";
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            kit.checkFits(d, nbytes * n, routine, "dest");
            if (n == 2) {
                MemorySegment.copy(st.self, kit.exchangeAcross(s.offset, nbytes, 0), st.self, d.offset, nbytes * n);
                return;
            }
            // Gathered at team PE 0 and pushed back down, as small reductions are.
            long e = team.beginPush();
            long from = kit.pushDown(e, 0, kit.gatherAt0(e, s.offset, nbytes), nbytes * n, false);
            MemorySegment.copy(st.self, from, st.self, d.offset, nbytes * n);
            team.receivedFromAll(e); // the data left PE 0 after every member had entered this call
            return;
        }
        if (pushIntoDest && fixed) {
            kit.algorithm = "push-into-dest";
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            kit.checkFits(d, nbytes * n, routine, "dest");
            kit.exchange(kit.allEntered(), d.offset, s.offset, nbytes, 0);
            return;
        }
        if (push && !fixed) {
            kit.algorithm = "push";
            // Sizes differ by PE, so whether the data fits the buffers is decided once all sizes are known.
            if (pushCollect(d, s, nbytes, false, routine)) {
                return;
            }
            team.syncInternal();
            long at = 0;
            kit.algorithm = "pull";
            for (int i = 0; i < n; i++) {
                long size = st.comm.getValue(team.members[i], team.buffer(team.epoch() - 1), 8);
                kit.fetch(team.members[i], s.offset, st.self, d.offset + at, size);
                at += size;
            }
            kit.fetched();
            team.syncInternal();
            return;
        }
        if (fixed) {
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            kit.checkFits(d, nbytes * n, routine, "dest");
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
