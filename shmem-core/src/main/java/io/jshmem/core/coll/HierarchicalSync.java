/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.Waiter;

/**
 * Members on several nodes, some node with several: the members of each node arrive on their
 * node's leader (its lowest team PE), the leaders run the dissemination rounds among themselves
 * ({@link DisseminationSync#rounds}), and each leader releases its node
 * ({@link TeamSlot#publishNodeReleaseAndWake}). So a sync costs ceil(log2 nodes) network rounds
 * instead of ceil(log2 members).
 */
final class HierarchicalSync implements SyncAlgorithm {
    private final SlotProtocol p;
    /** This PE's node leader (team PE); for a leader, the other members of its node. */
    private final int leader;
    private final int[] followers;
    /** The rounds among the node leaders (none for a follower). */
    private final DisseminationSync leaders;

    HierarchicalSync(SlotProtocol p, NodeShape shape, long flags0) {
        this.p = p;
        this.leader = shape.leaderOf()[p.me];
        this.followers = leader == p.me ? shape.followersOf(leader) : new int[0];
        this.leaders = new DisseminationSync(p, shape.leaders(), flags0);
    }

    @Override
    public String name() {
        return "hierarchical";
    }

    @Override
    public void sync(long e) {
        p.arrive(e);
        if (leader != p.me) {
            awaitRelease(e);
            p.allFinishedBefore = e;
            return;
        }
        for (int i : followers) {
            p.awaitArrival(i, e);
        }
        leaders.rounds(e);
        p.words.publishNodeReleaseAndWake(e << SlotProtocol.IDENT_BITS | p.ident);
        p.allFinishedBefore = e;
    }

    /**
     * A follower: waits until its leader releases epoch {@code e}. A leader that is in another
     * operation at this epoch (calls that do not match) never will: its arrival word says so, and
     * the job is aborted.
     */
    private void awaitRelease(long e) {
        TeamSlot words = p.words;
        int ident = p.ident;
        long v;
        for (long w = 0, t = 0; (v = words.nodeReleaseWordAcquire(leader)) >>> SlotProtocol.IDENT_BITS < e; ) {
            w = words.idleOnNodeRelease(leader, v, w);
            if (Waiter.pastSpin(w) && t != LongWait.REPORTED && (t = LongWait.tick(t)) == LongWait.REPORTED) {
                p.reportLongWait("the node release of", "node-release word", leader, e, v);
            }
            long a = words.arrivalWordAcquire(leader);
            if (a >>> SlotProtocol.IDENT_BITS == e && (int) (a & SlotProtocol.IDENT_MASK) != ident) {
                p.mismatch(leader, e, (int) (a & SlotProtocol.IDENT_MASK));
            }
        }
        if (v >>> SlotProtocol.IDENT_BITS == e && (int) (v & SlotProtocol.IDENT_MASK) != ident) {
            p.mismatch(leader, e, (int) (v & SlotProtocol.IDENT_MASK));
        }
    }
}
