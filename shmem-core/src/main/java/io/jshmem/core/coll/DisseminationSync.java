/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.Comm;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A dissemination barrier: in round r, team PE i raises the round-r flag of team PE i+2^r and
 * waits for its own from i-2^r; ceil(log2 N) rounds. A flag raised through the network transport
 * is an increment instead (a count of dissemination syncs; {@link Comm#flagAdd}): it needs no
 * completion round trip, and increments cannot be overtaken by an older value the way unordered
 * puts can. {@link HierarchicalSync} runs the rounds among the node leaders only.
 */
final class DisseminationSync implements SyncAlgorithm {
    private final SlotProtocol p;
    /** Per round: the flag's heap offset, the world PE signalled and its mapped heap (null if remote). */
    private final long[] roundOffset;
    private final int[] roundPe;
    private final MemorySegment[] roundTarget;
    /** Per round: whether the flag this PE waits for is raised by a PE on this node (else through the transport). */
    private final boolean[] roundFromLocal;
    /** Per round: the team PE that raises the flag this PE waits for. */
    private final int[] roundFrom;
    /** Dissemination syncs so far. */
    private long disseminations;
    /**
     * Flags raised through the transport: one word per parity of the dissemination count, the
     * second word of the round's line (the sender can be one sync ahead, and its increments may
     * arrive in any order: with a word per parity, a word reaches its count only with the right
     * sync's increment). Per parity: the syncs so far (what the word counts, low 32 bits), and what
     * the word holds when every member made the same calls (each sync adds {@code 1 + (ident << 32)}).
     */
    private final long[] remoteSyncs = new long[2];
    private final long[] remoteFlagSum = new long[2];

    /**
     * @param among the team PEs that take part, ascending (all, or the node leaders; none of the
     *        rounds for a PE not among them)
     * @param flags0 heap offset of the slot's first flag line
     */
    DisseminationSync(SlotProtocol p, int[] among, long flags0) {
        this.p = p;
        int[] members = p.members;
        int rank = Arrays.binarySearch(among, p.me);
        int k = among.length;
        int rounds = rank < 0 ? 0 : KnomialTree.ceilLog(k, 2);
        this.roundOffset = new long[rounds];
        this.roundPe = new int[rounds];
        this.roundTarget = new MemorySegment[rounds];
        this.roundFromLocal = new boolean[rounds];
        this.roundFrom = new int[rounds];
        for (int r = 0; r < rounds; r++) {
            roundOffset[r] = flags0 + (long) r * TeamSlots.LINE;
            roundPe[r] = members[among[(rank + (1 << r)) % k]];
            roundTarget[r] = p.st.comm.direct(roundPe[r]);
            roundFrom[r] = among[((rank - (1 << r)) % k + k) % k];
            roundFromLocal[r] = p.st.comm.direct(members[roundFrom[r]]) != null;
        }
    }

    @Override
    public String name() {
        return "dissemination";
    }

    @Override
    public void sync(long e) {
        if (p.allLocal) {
            // Published first: a member in a push collective at this epoch (calls that do not
            // match) sees a sync here and says so, instead of both waiting for each other.
            p.arrive(e);
        } else {
            p.publish(e);
        }
        rounds(e);
        p.allFinishedBefore = e;
    }

    /** The rounds of the sync of epoch {@code e}. */
    void rounds(long e) {
        int ident = p.ident;
        TeamSlot words = p.words;
        int par = (int) (++disseminations & 1);
        int d = (int) ++remoteSyncs[par];
        long increment = 1 + ((long) ident << 32);
        long before = remoteFlagSum[par];
        long sum = remoteFlagSum[par] += increment;
        for (int r = 0; r < roundOffset.length; r++) {
            long off = roundOffset[r];
            MemorySegment to = roundTarget[r];
            if (to != null) {
                TeamSlot.raiseFlagReleaseAndWake(to, off, e << SlotProtocol.IDENT_BITS | ident);
            } else {
                p.st.comm.flagAdd(roundPe[r], off + par * 8L, increment);
            }
            int from = roundFrom[r];
            long v;
            p.startWait();
            if (roundFromLocal[r]) {
                for (long w = 0; (v = words.ownWordAcquire(off)) >>> SlotProtocol.IDENT_BITS < e; ) {
                    w = words.idleOnOwnWord(off, v, w);
                    p.checkWhileWaiting(w, e, from, from + 1);
                }
                if (v >>> SlotProtocol.IDENT_BITS == e && (int) (v & SlotProtocol.IDENT_MASK) != ident) {
                    p.mismatch(from, e, (int) (v & SlotProtocol.IDENT_MASK));
                }
            } else {
                // The low 32 bits count the sender's syncs (compared modulo 2^32); at exactly this
                // sync the whole word must be this PE's sum, else some call of the sender differed.
                v = p.awaitCount(off + par * 8L, d, e, from, from + 1);
                if ((int) v == d && v != sum) {
                    p.mismatch(from, e, (int) ((v - before - 1) >>> 32) & (int) SlotProtocol.IDENT_MASK);
                }
            }
        }
    }
}
