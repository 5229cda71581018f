/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-hierarchical-recursive-doubling} (scans): a small scan of a team across nodes with
 * several members on some node, each node's members consecutive in the team, through the node
 * leaders ({@link NodeStage}). A follower only arrives; its leader sums its node's inputs (read
 * from the followers' mapped heaps) into place 0 of its push buffer, the leaders scan those node
 * sums among themselves by recursive doubling ({@link RecursiveDoublingScan} over the leaders, in
 * places 1 to rounds + 1), which leaves each the sum of the nodes before its own; from it the
 * leader runs down its node in team order, adding each member's input and writing that member's
 * result into its dest, and releases the node. ceil(log2 nodes) network rounds of one push each,
 * only leaders send; the buffer holds (rounds among the leaders + 2) inputs, within
 * {@link Selector#SCAN_ROUNDS_WITHIN_A_BUFFER}, or a larger scan goes through in chunks that fit,
 * an epoch each.
 */
final class HierarchicalScan extends CollKind implements ScanAlgorithm {
    private final NodeStage node;
    /** This PE's node's members after the leader, in team order (a leader's; else empty). */
    private final int[] followers;
    private final RecursiveDoublingScan leaders;

    HierarchicalScan(Collectives kit) {
        super(kit);
        this.node = new NodeStage(team);
        this.followers = node.leads() ? team.shape.followersOf(team.me) : new int[0];
        this.leaders = new RecursiveDoublingScan(kit, team.shape.leaders(), RecursiveDoublingScan.FIRST_WORD + RecursiveDoublingScan.WORDS);
    }

    @Override
    public String name() {
        return "push-hierarchical-recursive-doubling";
    }

    @Override
    public void scan(SymArrayImpl<?> d, SymArrayImpl<?> s, Reductions.Elem elem, long count, long nbytes, boolean inclusive) {
        long chunk = RecursiveDoublingScan.chunkBytes(leaders.rounds + 2, d.shift);
        for (long at = 0; at == 0 || at < nbytes; at += chunk) { // an epoch a chunk; one for 0 bytes
            long len = Math.min(chunk, nbytes - at);
            scanChunk(d.offset + at, s.offset + at, elem, len >> d.shift, len, inclusive);
        }
    }

    private void scanChunk(long dOff, long sOff, Reductions.Elem elem, long count, long nbytes, boolean inclusive) {
        long e = team.beginPush();
        if (!node.leads()) {
            node.arriveAndAwaitRelease(e);
            return;
        }
        MemorySegment self = st.self;
        long buf = team.buffer(e);
        node.reduceNode(e, ReduceOp.SUM, elem, buf, sOff, count, nbytes); // the node's sum, at place 0
        long before = leaders.rounds(e, buf + nbytes, elem, buf, count, nbytes);
        // Down the node: 'sum' holds the inputs before member j's; 'next' gets them and j's.
        long sum = buf + (leaders.rounds + 1) * nbytes;
        long next = buf; // the node's sum is no longer needed
        if (before < 0) {
            Collectives.zero(self, sum, nbytes);
        }
        for (int i = -1; i < followers.length; i++) {
            MemorySegment heap = i < 0 ? self : team.mapped(followers[i]);
            MemorySegment.copy(self, sum, self, next, nbytes);
            Reductions.combine(ReduceOp.SUM, elem, self, next, heap, sOff, count);
            MemorySegment.copy(self, inclusive ? next : sum, heap, dOff, nbytes); // its source is read: dest may be it
            long t = sum;
            sum = next;
            next = t;
        }
        team.releaseNode(e);
    }
}
