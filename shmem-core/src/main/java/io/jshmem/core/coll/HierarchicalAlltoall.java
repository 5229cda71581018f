/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-hierarchical}: alltoall of small blocks (contiguous) across nodes that each hold the
 * same number m of members, consecutive in the team, through the node leaders. A leader reads its
 * node's sources from the followers' mapped heaps once they have arrived, packed as one super-block
 * of m x m blocks per node (block [j][t]: from its member j to that node's member t); the leaders
 * exchange the super-blocks by Bruck's algorithm over the L leaders (as {@link BruckAlltoall} over
 * members: ceil(log2 L) rounds of one run each); last, each leader writes every block into its
 * receiver's dest (its own or a follower's, mapped) and releases the node. Only leaders send, one
 * run (data and its word) a round: O(log nodes) messages, where every member going Bruck's way
 * sends O(log N). The price: a leader carries its whole node's data, m times a member's, and
 * copies every block at least twice on the node.
 *
 * <p>One operation of 1 + ceil(log2 L) epochs, whose push buffers are its own on every member
 * ({@link SlotProtocol#beginPushRun}, which syncs first where they are not known to be free: every
 * member begins it alike, followers too): a leader packs each round's run in the first and puts it
 * from there straight into the receiver's buffer of that round, raising the round's word
 * ({@link RoundPushes}). A buffer of the call's is written by nobody else, so no entry notice and
 * no ready word: a network message and its word a round, and no sync while calls of other
 * operations leave enough buffers between them (up to {@link #MAX_NODES} nodes: 7 of the 16). It
 * takes calls whose largest run fits a push buffer ({@link #fits}); larger ones go Bruck's way over
 * all members. Not the landing area: a reduction pushes into a member's landing area without
 * waiting for it to enter, and a leader may still be in its last round here when another has
 * finished and begun the next operation.
 */
final class HierarchicalAlltoall extends CollKind implements AlltoallAlgorithm {
    /** Round words 400-407: a round's run has landed. */
    static final int FIRST_WORD = 400;
    static final int WORDS = 8;
    /**
     * The most nodes: 6 rounds, so a call takes 7 epochs (its outgoing buffer and one per round),
     * and two such calls in a row fit the 16 push buffers without a sync.
     */
    static final int MAX_NODES = 64;

    private final NodeStage node;
    /** The node leaders (team PEs, ascending), this PE's place among them (negative: a follower). */
    private final int[] leaders;
    private final int place;
    /** Members per node; the most leader places any round's run holds. */
    private final int m;
    private final int mostPlaces;
    /** ceil(log2 L): the rounds, each with a buffer of its own. */
    private final int rounds;
    private final RoundPushes landed;

    HierarchicalAlltoall(Collectives kit) {
        super(kit);
        NodeShape shape = team.shape;
        this.node = new NodeStage(team, shape);
        this.leaders = shape.leaders();
        this.place = java.util.Arrays.binarySearch(leaders, team.me);
        this.m = shape.size() / leaders.length;
        this.mostPlaces = mostPlaces(leaders.length);
        this.rounds = KnomialTree.ceilLog(leaders.length, 2);
        this.landed = new RoundPushes(team, FIRST_WORD, WORDS);
    }

    /**
     * Whether a team of this shape can take it: across nodes (up to {@link #MAX_NODES}), each
     * node's members consecutive and as many as every other's, several.
     */
    static boolean fits(NodeShape shape) {
        return !shape.allLocal() && shape.someNodeShared() && shape.uniformNodeSize() > 0 && shape.nodes() <= MAX_NODES;
    }

    /** The most places of {@code l} that one of Bruck's rounds moves: those below l with bit k set, at the worst k. */
    static int mostPlaces(int l) {
        int most = 0;
        for (int dist = 1; dist < l; dist <<= 1) {
            int places = 0;
            for (int lo = dist; lo < l; lo += 2 * dist) {
                places += Math.min(lo + dist, l) - lo;
            }
            most = Math.max(most, places);
        }
        return most;
    }

    @Override
    public boolean fits(long nbytes) {
        return (long) mostPlaces * m * m * nbytes <= TeamSlots.BUF_BYTES;
    }

    @Override
    public String name() {
        return "push-hierarchical";
    }

    @Override
    public void alltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        long e = team.beginPushRun(1 + rounds);
        if (!node.leads()) {
            node.arriveAndAwaitRelease(e); // the leader has read this PE's source and written its dest
            team.receivedFromAll(e); // every leader entered e after its followers had
            return;
        }
        int l = leaders.length;
        long super_ = (long) m * m * nbytes;
        long row = m * nbytes; // a member's blocks for one node
        MemorySegment w = kit.staging(l * super_); // W[i]: the super-block for leader place + i, then from place - i
        MemorySegment self = st.self;
        for (int j = 0; j < m; j++) {
            MemorySegment heap = j == 0 ? self : team.mapped(team.me + j);
            if (j > 0) {
                team.awaitArrivalAt(team.me + j, e);
            }
            for (int i = 0; i < l; i++) {
                int q = (place + i) % l;
                MemorySegment.copy(heap, s.offset + q * row, w, i * super_ + j * row, row);
            }
        }
        long out = team.buffer(e);
        for (int k = 0, dist = 1; dist < l; k++, dist <<= 1) {
            long in = team.buffer(e + 1 + k);
            int to = leaders[(place + dist) % l];
            int src = leaders[(place - dist + l) % l];
            long len = BruckAlltoall.moveRun(w, self, out, dist, l, super_, true); // super-blocks as Bruck's blocks
            landed.push(to, e, k, in, out, len); // out is free again when the put returns
            landed.await(e, k, src);
            BruckAlltoall.moveRun(w, self, in, dist, l, super_, false);
        }
        // W[i] is the super-block from leader place - i: block [j][t] goes to member t of this node,
        // at block (that node's first member + j).
        for (int t = 0; t < m; t++) {
            MemorySegment heap = t == 0 ? self : team.mapped(team.me + t);
            for (int i = 0; i < l; i++) {
                long from = (long) ((place - i + l) % l) * m;
                for (int j = 0; j < m; j++) {
                    MemorySegment.copy(w, i * super_ + (j * m + t) * nbytes, heap, d.offset + (from + j) * nbytes, nbytes);
                }
            }
        }
        team.releaseNode(e);
        team.receivedFromAll(e); // every leader's data reached this one through chains started after it entered e
    }
}
