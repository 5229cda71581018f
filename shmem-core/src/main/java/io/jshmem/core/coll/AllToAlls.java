/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.SymArray;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * The algorithms of alltoall(s) and their mem forms for one team (what they share: {@link CollKind}).
 */
final class AllToAlls extends CollKind {
    /** Per member, the epoch of the last push alltoall in which this PE sent it its block. */
    private final long[] sentAt;

    AllToAlls(Collectives kit) {
        super(kit);
        this.sentAt = new long[team.members.length];
    }

    public void alltoall(SymArray<?> dest, SymArray<?> source, long dst, long sst, long count, boolean bytes) {
        team.checkLive();
        String routine = dst == 1 && sst == 1 ? "alltoall" : "alltoalls";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long unit = bytes ? 1 : 1L << d.shift;
        long nbytes = kit.bytes(d, s, count, bytes, routine);
        if (dst < 1 || sst < 1) {
            throw st.error(routine + ": strides must be at least 1 (dst=" + dst + ", sst=" + sst + ")");
        }
        int n = team.members.length;
        long elems = nbytes / unit * n; // elements per array
        if (elems > 0) {
            kit.checkFits(d, ((elems - 1) * dst + 1) * unit, routine, "dest");
            kit.checkFits(s, ((elems - 1) * sst + 1) * unit, routine, "source");
        }
        team.checkSameArgs(routine, "bytes per PE", nbytes, "dest stride", dst, "source stride", sst);
        team.begin(SlotProtocol.OP_ALLTOALL, (nbytes * 131 + dst) * 131 + sst, -1, nbytes, dst, sst, null);
        long per = nbytes / unit; // elements per block
        if (push && nbytes * n <= TeamSlots.BUF_BYTES) {
            kit.algorithm = "push";
            pushAlltoall(d, s, dst, sst, nbytes, unit, per);
            return;
        }
        if (pushAcross && dst == 1 && sst == 1 && nbytes * n <= TeamSlots.BUF_BYTES) {
            kit.algorithm = "push-exchange";
            long buf = kit.exchangeAcross(s.offset, nbytes, nbytes);
            MemorySegment.copy(st.self, buf, st.self, d.offset, nbytes * n);
            return;
        }
        if (pushIntoDest && dst == 1 && sst == 1) {
            kit.algorithm = "push-into-dest";
            // Every member's dest is free once all have entered: each block goes straight there.
            kit.exchange(kit.allEntered(), d.offset, s.offset, nbytes, nbytes);
            return;
        }
        if (push && st.coreShared && dst == 1 && sst == 1) {
            kit.algorithm = "push-into-dest";
            pushAlltoallIntoDest(d, s, nbytes);
            return;
        }
        // One node, linear sync: each member's blocks are read as soon as that member has arrived
        // (its own first), instead of after all have.
        boolean split = team.linearSync();
        kit.algorithm = split ? "pull-as-arrived" : "pull";
        long e = split ? team.enterSync() : 0;
        if (!split) {
            team.syncInternal();
        }
        for (int j = 0; j < n; j++) {
            int i = (team.me + j) % n;
            if (split && i != team.me) {
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
        if (split) {
            team.synced(e);
        }
        kit.fetched();
        team.syncInternal();
    }

    /**
     * alltoall above the push buffers, every member on this node: this PE copies its block for
     * each member straight into that member's dest, counted there, as soon as the member has
     * arrived (entered the call, so its dest is free), taking the members in whatever order they
     * arrive; then it waits for its own n-1 blocks. No member reads another's source, so each may
     * reuse its own on return, and no sync is needed: pulling takes one for the sources to be
     * ready and another so that nobody still reads them. Where PEs share cores those syncs cost
     * context switches (4 PEs on 2 cores, 64 KiB: 26 us against 30 pulled; taking the members in
     * a fixed order, waiting for each, was no faster than pulling); where each has its own core
     * they cost little and pulling, which writes only this PE's own dest, was faster (2 PEs on 2
     * cores: 2.3 us against 2.5).
     */
    private void pushAlltoallIntoDest(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes) {
        int n = team.members.length;
        int me = team.me;
        long e = team.enterSync();
        MemorySegment.copy(st.self, s.offset + me * nbytes, st.self, d.offset + me * nbytes, nbytes);
        for (long w = 0, left = n - 1; left > 0; ) {
            int pending = -1;
            long seen = 0;
            for (int k = 1; k < n; k++) {
                int i = (me + k) % n; // staggered, so that members do not all write to PE 0 first
                if (sentAt[i] == e) {
                    continue;
                }
                long v = team.arrivalWord(i);
                if (team.arrivedAt(i, v, e)) {
                    team.pushInto(i, e, d.offset + me * nbytes, s.offset + i * nbytes, nbytes);
                    sentAt[i] = e;
                    left--;
                    w = 0; // a new wait, for the next member
                } else if (pending < 0) {
                    pending = i;
                    seen = v;
                }
            }
            if (pending >= 0) {
                w = team.idleForArrival(pending, seen, w);
            }
        }
        team.awaitPushes(e, n - 1, 0, n);
        team.receivedFromAll(e);
    }

    /** alltoall(s) through the push buffers: each member's buffer holds its blocks for PE 0, 1, ... contiguously. */
    private void pushAlltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        int n = team.members.length;
        long e;
        if (sst == 1) {
            e = kit.produce(s.offset, nbytes * n, false);
        } else {
            e = team.nextEpoch();
            long buf = team.buffer(e);
            team.awaitBufferFree(e);
            for (long k = 0; k < per * n; k++) {
                MemorySegment.copy(st.self, s.offset + sst * k * unit, st.self, buf + k * unit, unit);
            }
            team.arrive(e);
        }
        long buf = team.buffer(e) + team.me * nbytes;
        for (int i = 0; i < n; i++) {
            team.awaitArrival(i, e);
            int pe = team.members[i];
            if (dst == 1) {
                st.comm.get(pe, buf, st.self, d.offset + i * nbytes, nbytes, false);
            } else {
                for (long k = 0; k < per; k++) {
                    st.comm.get(pe, buf + k * unit, st.self, d.offset + dst * (i * per + k) * unit, unit, false);
                }
            }
        }
    }
}
