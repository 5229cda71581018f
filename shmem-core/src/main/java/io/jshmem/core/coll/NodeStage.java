/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.lang.foreign.MemorySegment;

/**
 * The on-node part of a hierarchical collective ({@link HierarchicalReduce},
 * {@link HierarchicalCollect}): the members of a
 * node meet at its leader (its lowest team PE) through shared memory, and only the leaders use the
 * network. A follower arrives at the operation's epoch (its source may then be read and its dest
 * written), the leader reads every follower's input straight from its mapped heap, does the
 * network part among the leaders, writes the result into every follower's dest and releases the
 * node ({@link SlotProtocol#releaseNode}), as a hierarchical sync does. The followers send nothing
 * over the network, and each node's data crosses it only through its leader.
 */
final class NodeStage {
    private final SlotProtocol team;
    /** This PE's node leader (team PE). */
    final int leader;
    /** For a leader, the other members of its node, ascending; else empty. */
    private final int[] followers;
    /**
     * {@link #reduceNodeAsRecursiveDoubling}'s schedule over the node's members (member 0 the
     * leader, i its follower i - 1), and whether a member's partial sum is in its dest yet (else
     * it is its source); on a follower, a node of one.
     */
    private final RecursiveDoubling nodeRd;
    private final boolean[] summed;

    NodeStage(SlotProtocol team) {
        this(team, team.shape);
    }

    /** The node stage of {@code team} as if its members sat on nodes as {@code shape} says. */
    NodeStage(SlotProtocol team, NodeShape shape) {
        this.team = team;
        this.leader = shape.leaderOf()[team.me];
        this.followers = leader == team.me ? shape.followersOf(leader) : new int[0];
        this.nodeRd = new RecursiveDoubling(followers.length + 1);
        this.summed = new boolean[followers.length + 1];
    }

    /** Whether this PE leads its node (takes part in the network part). */
    boolean leads() {
        return leader == team.me;
    }

    /**
     * A follower: says it has entered operation {@code e} (its source readable, its dest free) and
     * waits until its leader has written the result and released the node.
     */
    void arriveAndAwaitRelease(long e) {
        team.arrive(e);
        team.awaitNodeRelease(leader, e);
    }

    /**
     * A leader: puts into its dest at {@code dOff} its own {@code count} elements at {@code sOff}
     * combined with every follower's at {@code sOff}, in team order (a follower's as soon as it has
     * arrived at {@code e}). Nothing is written to the followers.
     */
    void reduceNode(long e, ReduceOp op, Reductions.Elem elem, long dOff, long sOff, long count, long nbytes) {
        MemorySegment self = team.st.self;
        if (dOff != sOff) {
            MemorySegment.copy(self, sOff, self, dOff, nbytes);
        }
        for (int f : followers) {
            team.awaitArrivalAt(f, e);
            Reductions.combine(op, elem, self, dOff, team.mapped(f), sOff, count);
        }
    }

    /**
     * A leader (reductions): puts into its dest at {@code dOff} its node's inputs at {@code sOff}
     * combined as recursive doubling over the node's members in team order would (the fold, then
     * aligned pairs of ever larger groups, the lower first), so that with the leaders' recursive
     * doubling over the node sums the tree can be recursive doubling's over the whole team
     * ({@link HierarchicalReduce#keepsGrouping}). The members' dests hold the partial sums (each
     * member's is free once it has arrived at {@code e}, and gets the result later); nothing else
     * is written.
     */
    void reduceNodeAsRecursiveDoubling(long e, ReduceOp op, Reductions.Elem elem, long dOff, long sOff, long count, long nbytes) {
        for (int f : followers) {
            team.awaitArrivalAt(f, e);
        }
        java.util.Arrays.fill(summed, false);
        for (int v = 0; v < nodeRd.rem; v++) { // the fold: an extra and its survivor, the extra's first
            combineInto(2 * v, 2 * v + 1, op, elem, dOff, sOff, count, nbytes);
        }
        for (int k = 0; k < nodeRd.rounds; k++) {
            for (int g = 0; g < nodeRd.p2; g += 2 << k) {
                combineInto(holder(g), holder(g + (1 << k)), op, elem, dOff, sOff, count, nbytes);
            }
        }
        if (!summed[0] && dOff != sOff) { // a node of one
            MemorySegment.copy(team.st.self, sOff, team.st.self, dOff, nbytes);
        }
    }

    /** The member holding virtual rank {@code v}'s partial sum: after the fold, the lower of a folded pair. */
    private int holder(int v) {
        return v < nodeRd.rem ? 2 * v : v + nodeRd.rem;
    }

    /** Member {@code i}'s heap: this PE's for the leader, else the follower's mapped one. */
    private MemorySegment heap(int i) {
        return i == 0 ? team.st.self : team.mapped(followers[i - 1]);
    }

    /** Member {@code lo}'s dest gets its partial sum OP member {@code hi}'s (each from its dest if summed, else its source). */
    private void combineInto(int lo, int hi, ReduceOp op, Reductions.Elem elem, long dOff, long sOff, long count, long nbytes) {
        MemorySegment a = heap(lo);
        if (!summed[lo] && dOff != sOff) {
            MemorySegment.copy(a, sOff, a, dOff, nbytes);
        }
        Reductions.combine(op, elem, a, dOff, heap(hi), summed[hi] ? dOff : sOff, count);
        summed[lo] = true;
    }

    /**
     * A leader (collect): the bytes its node's members bring, its own {@code nbytes} and each
     * follower's, which a follower leaves in its scratch word before it arrives at {@code e}.
     */
    long nodeBytes(long e, long nbytes) {
        long sum = nbytes;
        for (int f : followers) {
            team.awaitArrivalAt(f, e);
            sum += team.words.scratchWordAcquire(f);
        }
        return sum;
    }

    /**
     * A leader ((f)collect): copies its own {@code nbytes} at {@code sOff} and then every
     * follower's (as soon as it has arrived at {@code e}; a collect's sizes from their scratch
     * words, {@code fixed}: {@code nbytes} each) into its dest from {@code to} on, one after the
     * other: the node's members are consecutive in the team, the leader first.
     */
    void gather(long e, long to, long sOff, long nbytes, boolean fixed) {
        MemorySegment self = team.st.self;
        MemorySegment.copy(self, sOff, self, to, nbytes);
        long at = to + nbytes;
        for (int f : followers) {
            team.awaitArrivalAt(f, e);
            long size = fixed ? nbytes : team.words.scratchWordAcquire(f);
            MemorySegment.copy(team.mapped(f), sOff, self, at, size);
            at += size;
        }
    }

    /**
     * A leader whose dest holds the result (fcollect): releases the node at {@code e}, then waits
     * until every follower has copied it and said so in its exit word (the dest is then the
     * caller's again). The followers copy in parallel, where the leader would copy to each in turn.
     */
    void releaseAndAwaitCopies(long e) {
        team.releaseNode(e);
        for (int f : followers) {
            team.words.awaitExitAcquire(f, e);
        }
    }

    /**
     * A leader: copies the {@code nbytes} at {@code dOff} (the result) into every follower's dest at
     * the same offset, then releases the node at {@code e}.
     */
    void release(long e, long dOff, long nbytes) {
        for (int f : followers) {
            MemorySegment.copy(team.st.self, dOff, team.mapped(f), dOff, nbytes);
        }
        team.releaseNode(e);
    }
}
