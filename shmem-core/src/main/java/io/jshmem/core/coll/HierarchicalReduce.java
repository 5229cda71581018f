/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;

/**
 * {@code push-hierarchical-recursive-doubling} and {@code push-hierarchical-rabenseifner}: a
 * reduction of a team across nodes with several members on some node ({@link Selector#REDUCE}
 * says which calls), in three stages
 * ({@link NodeStage}): each node's leader reduces its node's inputs, read from their mapped heaps;
 * the leaders reduce their nodes' results among themselves over the network, by recursive
 * doubling ({@link RecursiveDoublingReduce}: small) or Rabenseifner's algorithm
 * ({@link RabenseifnerReduce}: large, in chunks of the landing area, each its own epoch); each
 * leader writes the result into its followers' dests and releases its node. So only the leaders
 * send, log2(nodes) rounds instead of log2(members), and a node's data crosses the network once
 * per round instead of once per member. All members get bitwise the same result: the leaders end
 * with the same bits, which they copy.
 *
 * <p>Every member runs the same epochs (one, or one per chunk), followers included, so that the
 * push-buffer syncs and the mismatch checks stay team-wide. The leaders' rounds take their own
 * round words, apart from the flat algorithms' (a team may use both, when a setting forces one).
 */
final class HierarchicalReduce extends CollKind implements ReduceAlgorithm {
    /** Round words of the leaders' recursive doubling, then of their Rabenseifner (two ranges). */
    static final int FIRST_WORD = 240;
    static final int WORDS = 20;

    private final NodeStage node;
    private final RecursiveDoublingReduce doubling;
    private final RabenseifnerReduce rabenseifner;

    /** @param large Rabenseifner's algorithm among the leaders (else recursive doubling) */
    HierarchicalReduce(Collectives kit, boolean large) {
        super(kit);
        this.node = new NodeStage(team);
        int[] leaders = team.shape.leaders();
        this.doubling = large ? null : new RecursiveDoublingReduce(kit, leaders, FIRST_WORD, WORDS);
        this.rabenseifner = large ? new RabenseifnerReduce(kit, leaders, FIRST_WORD + WORDS, WORDS) : null;
    }

    @Override
    public String name() {
        return doubling != null ? "push-hierarchical-recursive-doubling" : "push-hierarchical-rabenseifner";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        if (doubling != null) {
            long e = team.beginPush(); // the leaders push into each other's buffers
            stages(e, op, elem, shift, dOff, sOff, count);
            return;
        }
        long chunk = rabenseifner.chunkElements(shift);
        long base = 0;
        do {
            long c = Math.min(chunk, count - base);
            stages(team.beginEntered(), op, elem, shift, dOff + (base << shift), sOff + (base << shift), c);
            base += c;
        } while (base < count);
    }

    /** One epoch: {@code c} elements at {@code s} reduced into every member's {@code d}. */
    private void stages(long e, ReduceOp op, Reductions.Elem elem, int shift, long d, long s, long c) {
        if (!node.leads()) {
            node.arriveAndAwaitRelease(e);
        } else {
            long nbytes = c << shift;
            node.reduceNode(e, op, elem, d, s, c, nbytes);
            if (doubling != null) {
                doubling.rounds(e, op, elem, d, d, c, nbytes);
            } else {
                rabenseifner.chunk(e, op, elem, shift, d, d, c);
            }
            node.release(e, d, nbytes);
        }
        // Every leader has entered e, each after its followers: all members have finished before it.
        team.receivedFromAll(e);
    }
}
