/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * Members on several nodes, some node with several: the members of each node arrive on their
 * node's leader (its lowest team PE), the leaders run the dissemination rounds among themselves
 * ({@link DisseminationSync#rounds}), and each leader releases its node
 * ({@link SlotProtocol#releaseNode}). So a sync costs ceil(log2 nodes) network rounds
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
            p.awaitNodeRelease(leader, e);
            p.allFinishedBefore = e;
            return;
        }
        for (int i : followers) {
            p.awaitArrivalAt(i, e);
        }
        leaders.rounds(e);
        p.releaseNode(e);
        p.allFinishedBefore = e;
    }
}
