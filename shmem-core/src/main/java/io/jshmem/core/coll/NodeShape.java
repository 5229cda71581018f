/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.PeState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * How a team's members sit on nodes: which members map each other's heaps (the same node, when
 * on-node PEs are mapped at all) and each node's leader (its lowest team PE). Every member
 * computes the same shape from the same data.
 *
 * @param size the number of members
 * @param allLocal whether every member's heap is mapped on this PE (then syncs and small
 *        collectives use the arrival words)
 * @param leaderOf per team PE, the leader of its node
 * @param nodes the number of nodes (distinct leaders)
 */
public record NodeShape(int size, boolean allLocal, int[] leaderOf, int nodes) {

    public static NodeShape of(PeState st, int[] members) {
        int n = members.length;
        boolean local = true;
        int[] leaderOf = new int[n];
        Map<String, Integer> firstOnNode = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            local &= st.comm.direct(members[i]) != null;
            String node = st.config.directOnNode() ? st.heap.nodeOf(members[i]) : "PE " + members[i];
            int index = i;
            leaderOf[i] = firstOnNode.computeIfAbsent(node, x -> index);
        }
        return new NodeShape(n, local, leaderOf, firstOnNode.size());
    }

    /** Whether some node holds several members. */
    public boolean someNodeShared() {
        return nodes < size;
    }

    /** Whether each node's members are consecutive team PEs (then each node is a range, its leader first). */
    public boolean nodesConsecutive() {
        for (int i = 1; i < size; i++) {
            if (leaderOf[i] != leaderOf[i - 1] && leaderOf[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** The members per node, if each node's are consecutive and as many as every other's; else 0. */
    public int uniformNodeSize() {
        if (size % nodes != 0 || !nodesConsecutive()) {
            return 0;
        }
        int m = size / nodes;
        for (int i = 0; i < size; i++) {
            if (leaderOf[i] != i / m * m) {
                return 0;
            }
        }
        return m;
    }

    /**
     * The same members as if each were on a node of its own (every member a leader): for running a
     * node-leader algorithm over all members where the real nodes do not fit it.
     */
    NodeShape apart() {
        return new NodeShape(size, false, IntStream.range(0, size).toArray(), size);
    }

    /** The node leaders, ascending. */
    int[] leaders() {
        return IntStream.range(0, size).filter(i -> leaderOf[i] == i).toArray();
    }

    /** The members of {@code leader}'s node other than the leader. */
    int[] followersOf(int leader) {
        return IntStream.range(0, size).filter(i -> i != leader && leaderOf[i] == leader).toArray();
    }

    @Override
    public String toString() {
        return size + " PEs on " + nodes + (nodes == 1 ? " node" : " nodes") + (allLocal ? ", all mapped here" : "");
    }
}
