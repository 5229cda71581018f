/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import java.util.Arrays;

/**
 * A tree over a team's PEs that is fixed for the team and follows its nodes, seen from one
 * member: inside each node a binary heap over the node's members in team order (its leader, the
 * lowest, at the top), and a binary heap over the node leaders joining the nodes. With one PE per
 * node it is the binary heap over all members. Every member builds the same tree.
 *
 * <p>Data from any root flows outward along its edges ({@link #upstream}, {@link #downstream}):
 * into a node once, through its leader, then on through shared memory. A member has at most 5
 * neighbours (a leader: 2 in its node, 3 among the leaders) and sends across nodes to at most 3.
 *
 * <p>Each (member, neighbour) pair has its own word number ({@link #wordFrom}, {@link #wordAt}):
 * the neighbour raises that word only at this member and nobody else raises it here, which is
 * what {@link RoundPushes} needs. Nothing is allocated after construction, which is O(N) once
 * (scans of {@link NodeShape#leaderOf}); it keeps the member's node and the leaders.
 */
final class NodeTree {
    /** Notice words: {@link #WORDS} in all, by how the neighbour is related to the member. */
    static final int WORDS = 8;

    private final int me;
    private final int[] leaderOf;
    /** The members of this member's node, ascending (the leader first), and this member's index there. */
    private final int[] node;
    private final int local;
    /** The node leaders, ascending, and this member's index there (-1 when it is not a leader). */
    private final int[] leaders;
    private final int leaderIndex;

    NodeTree(NodeShape shape, int me) {
        this.me = me;
        this.leaderOf = shape.leaderOf();
        int mine = leaderOf[me];
        this.node = java.util.stream.IntStream.range(0, leaderOf.length).filter(i -> leaderOf[i] == mine).toArray();
        this.local = Arrays.binarySearch(node, me);
        this.leaders = shape.leaders();
        this.leaderIndex = mine == me ? Arrays.binarySearch(leaders, me) : -1;
    }

    /** In a binary heap, the neighbour of index {@code p} on its path to index {@code root} (p != root). */
    static int heapUpstream(int p, int root) {
        // p's ancestors are all below it: root is in p's subtree iff walking root up meets p, and
        // then the path comes through the child it met p from
        int below = root;
        int x = root;
        while (x > p) {
            below = x;
            x = (x - 1) / 2;
        }
        return x == p ? below : (p - 1) / 2;
    }

    /**
     * The member this one receives from when {@code root} broadcasts, or -1 for the root: in the
     * root's node, the next member up or down its heap towards the root; elsewhere the member's
     * parent in its node, or, for a leader, the next leader towards the root's leader.
     */
    int upstream(int root) {
        if (root == me) {
            return -1;
        }
        if (leaderOf[root] == leaderOf[me]) {
            return node[heapUpstream(local, Arrays.binarySearch(node, root))];
        }
        if (leaderIndex < 0) {
            return node[(local - 1) / 2];
        }
        return leaders[heapUpstream(leaderIndex, Arrays.binarySearch(leaders, leaderOf[root]))];
    }

    /**
     * Writes into {@code out} (room for 5) the members this one sends to in a broadcast where it
     * receives from {@code up} ({@link #upstream}; -1 at the root): its neighbours but that one.
     * Returns how many.
     */
    int downstream(int up, int[] out) {
        int k = 0;
        if (local > 0) {
            k = add(out, k, node[(local - 1) / 2], up);
        }
        for (int c = 2 * local + 1; c <= 2 * local + 2 && c < node.length; c++) {
            k = add(out, k, node[c], up);
        }
        if (leaderIndex >= 0) {
            if (leaderIndex > 0) {
                k = add(out, k, leaders[(leaderIndex - 1) / 2], up);
            }
            for (int c = 2 * leaderIndex + 1; c <= 2 * leaderIndex + 2 && c < leaders.length; c++) {
                k = add(out, k, leaders[c], up);
            }
        }
        return k;
    }

    private static int add(int[] out, int k, int pe, int up) {
        if (pe != up) {
            out[k++] = pe;
        }
        return k;
    }

    /** The word at this member that its neighbour {@code from} raises. */
    int wordFrom(int from) {
        return leaderOf[from] == leaderOf[me] ? heapWord(local, Arrays.binarySearch(node, from))
                : 4 + heapWord(leaderIndex, Arrays.binarySearch(leaders, from));
    }

    /** The word at neighbour {@code at} that this member raises. */
    int wordAt(int at) {
        return leaderOf[at] == leaderOf[me] ? heapWord(Arrays.binarySearch(node, at), local)
                : 4 + heapWord(Arrays.binarySearch(leaders, at), leaderIndex);
    }

    /**
     * In a binary heap, the word at index {@code at} raised by its neighbour {@code from}: 0 or 1
     * from its parent (as {@code at} is a left or a right child: a parent raises each at one child),
     * 2 or 3 from its left or right child.
     */
    private static int heapWord(int at, int from) {
        if (at > 0 && from == (at - 1) / 2) {
            return at % 2 == 1 ? 0 : 1;
        }
        return from % 2 == 1 ? 2 : 3;
    }

    @Override
    public String toString() {
        return "node tree of " + leaderOf.length + " PEs on " + leaders.length + " nodes, seen from " + me;
    }
}
