/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * {@code push-hierarchical-recursive-doubling} and {@code push-hierarchical-rabenseifner}: a
 * reduction of a team across nodes with several members on some node ({@link Selector#REDUCE}
 * says which calls), in three stages
 * ({@link NodeStage}): each node's leader reduces its node's inputs, read from their mapped heaps
 * (by recursive doubling over them, in its followers' dests);
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

    /**
     * Whether the sums of a team of this shape (each node's members consecutive, else false) group
     * alike through the leaders (recursive doubling inside each node, {@link NodeStage#reduceNodeAsRecursiveDoubling},
     * then over the node sums) and either as recursive doubling over all members does or left to
     * right: the groupings that the reductions of doubles promise (each a binary tree over team
     * order). They do where nodes hold a power of two PEs each and their count is one, and in some
     * uneven layouts (3 + 2, 2 + 2 + 2, 3 + 1). Compares the trees' merges (range start, end and
     * split), O(N) once per team.
     */
    static boolean keepsGrouping(NodeShape shape) {
        if (!shape.nodesConsecutive()) {
            return false; // a node's sum would not be a range of team order at all
        }
        int n = shape.size();
        int[] leaders = shape.leaders();
        Set<List<Integer>> ours = new HashSet<>();
        int[] from = new int[leaders.length + 1];
        for (int i = 0; i < leaders.length; i++) {
            from[i] = leaders[i];
            int end = i + 1 < leaders.length ? leaders[i + 1] : n;
            merges(IntStream.rangeClosed(from[i], end).toArray(), ours); // inside the node
        }
        from[leaders.length] = n;
        merges(from, ours);
        int[] single = IntStream.rangeClosed(0, n).toArray();
        Set<List<Integer>> flat = new HashSet<>();
        merges(single, flat);
        Set<List<Integer>> chain = new HashSet<>();
        for (int j = 2; j <= n; j++) {
            chain.add(List.of(0, j, j - 1));
        }
        return ours.equals(flat) || ours.equals(chain);
    }

    /** Adds to {@code out} the merges recursive doubling (with the fold) makes over the ranges {@code [at[i], at[i + 1])}. */
    private static void merges(int[] at, Set<List<Integer>> out) {
        RecursiveDoubling rd = new RecursiveDoubling(at.length - 1);
        int[] lo = new int[rd.p2];
        int[] hi = new int[rd.p2];
        for (int v = 0; v < rd.p2; v++) {
            int pe = rd.pe(v); // a survivor stands for its extra too
            lo[v] = at[v < rd.rem ? pe - 1 : pe];
            hi[v] = at[pe + 1];
            if (v < rd.rem) {
                out.add(List.of(lo[v], hi[v], at[pe]));
            }
        }
        for (int k = 0; k < rd.rounds; k++) {
            for (int g = 0; g < rd.p2; g += 2 << k) {
                out.add(List.of(lo[g], hi[g + (2 << k) - 1], hi[g + (1 << k) - 1]));
            }
        }
    }

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
            node.reduceNodeAsRecursiveDoubling(e, op, elem, d, s, c, nbytes);
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
