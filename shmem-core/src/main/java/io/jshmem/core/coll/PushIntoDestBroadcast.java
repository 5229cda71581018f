/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-into-dest-tree} / {@code push-into-dest-flat}: a broadcast too large for the push
 * buffers, members not all on this node: each member tells its parent (the root, or its parent
 * in the binomial tree) that it has entered the call, so its dest is free; a sender that has the
 * data pushes it straight into each child's dest as soon as that child has entered. Two one-way
 * hops, no sync, nothing waits for a peer to serve a read. (Pulling, where each member got the
 * data from its parent after a notice and told it when done, had four, and the gets waited for
 * parents yielding the core: 4-PE broadcasts of 64 KiB over UCX/TCP on 2 cores were 4x OSHMEM's
 * time.)
 */
final class PushIntoDestBroadcast extends CollKind implements BroadcastAlgorithm {
    private final KnomialTree tree;
    private final String name;

    /** @param binomial whether the tree is binomial ({@link Selector#LARGE_BROADCAST_TREE}), else flat */
    PushIntoDestBroadcast(Collectives kit, boolean binomial) {
        super(kit);
        int n = team.members.length;
        this.tree = binomial ? KnomialTree.binomial(n) : KnomialTree.flat(n);
        this.name = binomial ? "push-into-dest-tree" : "push-into-dest-flat";
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void broadcast(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
        long e = team.beginEntered();
        int n = team.members.length;
        int rel = (team.me - root + n) % n;
        if (rel != 0) {
            team.tellEntered((tree.parent(rel) + root) % n, e);
            team.awaitPushes(e, 1, 0, n);
        }
        long from = rel == 0 ? s.offset : d.offset;
        for (int k = 0, c; (c = tree.child(rel, k)) >= 0; k++) {
            int child = (c + root) % n;
            team.awaitEntered(child, e);
            team.pushInto(child, e, d.offset, from, nbytes);
        }
        if (rel == 0) {
            MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        }
    }
}
