/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * A sync gathered at team PE 0 (members not all on this node, no node with several of them):
 * each member adds to PE 0's arrival counter and waits for its release; PE 0 waits for all, then
 * releases each. Two hops like a dissemination sync of 3-4 members, with fewer messages (2(N-1)
 * instead of N log2 N), and PE 0 leaves first, so a collective rooted there that follows starts
 * at once (4 PEs on 2 cores over TCP: a broadcast's members waited 100-300 us for a root that left
 * its dissemination barrier late). Counters as in the dissemination rounds: the low 32 bits count,
 * the high ones sum the senders' operation identities, so mismatched calls show.
 */
final class CentralSync implements SyncAlgorithm {
    private final SlotProtocol p;
    /** Heap offsets of the flag lines: arrivals (at team PE 0), releases. */
    private final long arriveOff;
    private final long releaseOff;
    /** Syncs so far, and per parity the count and sum the words should hold (as in {@link DisseminationSync}). */
    private long syncs;
    private final long[] remoteSyncs = new long[2];
    private final long[] remoteFlagSum = new long[2];

    CentralSync(SlotProtocol p, long flags0) {
        this.p = p;
        this.arriveOff = flags0;
        this.releaseOff = flags0 + TeamSlots.LINE;
    }

    @Override
    public String name() {
        return "central";
    }

    @Override
    public void sync(long e) {
        p.publish(e);
        gather(e);
        p.allFinishedBefore = e;
    }

    private void gather(long e) {
        int[] members = p.members;
        int ident = p.ident;
        int par = (int) (++syncs & 1);
        long d = ++remoteSyncs[par];
        long increment = 1 + ((long) ident << 32);
        int n = members.length;
        p.startWait();
        if (p.me != 0) {
            long before = remoteFlagSum[par];
            long sum = remoteFlagSum[par] += increment;
            p.st.comm.flagAdd(members[0], arriveOff + par * 8L, increment);
            long v = p.awaitCount(releaseOff + par * 8L, d, e, 0, 1);
            if ((int) v == (int) d && v != sum) {
                p.mismatch(0, e, (int) ((v - before - 1) >>> 32) & (int) SlotProtocol.IDENT_MASK);
            }
            return;
        }
        long sum = remoteFlagSum[par] += increment * (n - 1);
        long count = d * (n - 1);
        long v = p.awaitCount(arriveOff + par * 8L, count, e, 1, n);
        if ((int) v == (int) count && v != sum) {
            p.checkArrivals(e, 1, n); // names the member, if its arrival word still says
            throw p.abortJob("collective calls do not match on " + p.name + " (operation #" + e + "): PE " + p.st.me
                    + " called " + SlotProtocol.opName(ident & 0xFF) + ", but a member that arrived at it called another operation");
        }
        for (int k = 1; k < n; k++) {
            p.st.comm.flagAdd(members[k], releaseOff + par * 8L, increment);
        }
    }
}
