/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.SymArray;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * The algorithms of broadcast and broadcastmem for one team (what they share: {@link CollKind}).
 */
final class Broadcasts extends CollKind {
    /**
     * The tree of broadcasts across nodes above the push buffers ({@link Selector#LARGE_BROADCAST_TREE}),
     * and the names of both broadcasts across nodes, by their trees, for {@link Collectives#algorithm}.
     */
    private final KnomialTree largeBroadcastTree;
    private final String broadcastName;
    private final String largeBroadcastName;
    /**
     * Per root: the last operation at which every sender of a small broadcast from that root
     * learned that its receivers had entered it (so had finished everything before); the same on
     * every member. Null until needed.
     */
    private long[] entryKnown;

    Broadcasts(Collectives kit, String setting, boolean treeBroadcast) {
        super(kit);
        int n = team.members.length;
        boolean treeLarge = Selector.pick(Selector.LARGE_BROADCAST_TREE, setting, team.shape).equals("tree");
        this.largeBroadcastTree = treeLarge ? KnomialTree.binomial(n) : KnomialTree.flat(n);
        this.broadcastName = treeBroadcast ? "push-tree" : "push-flat";
        this.largeBroadcastName = treeLarge ? "push-into-dest-tree" : "push-into-dest-flat";
    }

    public void broadcast(SymArray<?> dest, SymArray<?> source, long count, int root, boolean bytes) {
        team.checkLive();
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = kit.bytes(d, s, count, bytes, "broadcast");
        kit.checkFits(d, nbytes, "broadcast", "dest");
        kit.checkFits(s, nbytes, "broadcast", "source");
        int rootWorld = team.world(root);
        team.checkSameArgs("broadcast", "bytes", nbytes, "root", root);
        team.begin(SlotProtocol.OP_BROADCAST, nbytes * 131 + root, root, nbytes, root, 0, null);
        if (push && nbytes <= TeamSlots.BUF_BYTES) {
            kit.algorithm = "push";
            long e = team.nextEpoch();
            long buf = team.buffer(e);
            if (team.me == root) {
                team.awaitBufferFree(e);
                MemorySegment.copy(st.self, s.offset, st.self, buf, nbytes);
                team.arrive(e);
                MemorySegment.copy(st.self, buf, st.self, d.offset, nbytes);
            } else {
                team.awaitArrival(root, e);
                st.comm.get(team.members[root], buf, st.self, d.offset, nbytes, false);
                team.arrive(e);
            }
            return;
        }
        if (push) { // larger than the buffers, members all on this node
            kit.algorithm = "in-place";
            broadcastInPlace(d, s, nbytes, root);
            return;
        }
        if (pushIntoDest && nbytes > TeamSlots.BUF_BYTES) {
            kit.algorithm = largeBroadcastName;
            broadcastPushed(d, s, nbytes, root);
            return;
        }
        if (pushAcross && nbytes <= TeamSlots.BUF_BYTES) {
            kit.algorithm = broadcastName;
            long e;
            boolean tell = false;
            if (!pushIntoDest) {
                e = team.beginPush();
            } else {
                // Instead of a sync when the buffers may still be in use (every few calls), each
                // member tells its sender that it has entered: only senders need to know. Every
                // member decides alike, from what all know of the earlier calls.
                e = team.beginEntered();
                if (entryKnown == null) {
                    entryKnown = new long[team.members.length];
                }
                tell = !team.pushBuffersFree(e) && entryKnown[root] < e - (TeamSlots.PUSH_BUFFERS - 1);
                if (tell) {
                    entryKnown[root] = e;
                }
            }
            long from = kit.pushDown(e, root, s.offset, nbytes, tell);
            MemorySegment.copy(st.self, from, st.self, d.offset, nbytes);
            return;
        }
        kit.algorithm = "pull";
        team.syncInternal();
        kit.copyFrom(rootWorld, s.offset, st.self, d.offset, nbytes);
        team.syncInternal();
    }

    /**
     * A broadcast too large for the push buffers, members all on this node: each member copies the
     * root's source in place once the root has arrived, then arrives; the root returns (its source
     * may change after that) once every member has. One hop each way, where a sync before and after
     * the copy took four (4 PEs on 2 cores, 64 KiB: median 23.6 us against OSHMEM's 9.6).
     */
    private void broadcastInPlace(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
        long e = team.nextEpoch();
        if (team.me != root) {
            team.awaitArrival(root, e);
            st.comm.get(team.members[root], s.offset, st.self, d.offset, nbytes, false);
            team.arrive(e);
            return;
        }
        team.arrive(e);
        // The root's own copy: at once, unless dest overlaps the source the others are reading.
        boolean overlap = d.offset != s.offset && Collectives.overlap(d, s, nbytes);
        if (!overlap) {
            MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        }
        team.awaitAll(e);
        if (overlap) {
            MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        }
    }

    /**
     * A broadcast too large for the push buffers, members not all on this node: each member tells
     * its parent (the root, or its parent in the binomial tree) that it has entered the call, so
     * its dest is free; a sender that has the data pushes it straight into each child's dest as
     * soon as that child has entered. Two one-way hops, no sync, nothing waits for a peer to serve
     * a read. (Pulling, where each member got the data from its parent after a notice and told it
     * when done, had four, and the gets waited for parents yielding the core: 4-PE broadcasts of
     * 64 KiB over UCX/TCP on 2 cores were 4x OSHMEM's time.)
     */
    private void broadcastPushed(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
        long e = team.beginEntered();
        int n = team.members.length;
        int rel = (team.me - root + n) % n;
        if (rel != 0) {
            team.tellEntered((largeBroadcastTree.parent(rel) + root) % n, e);
            team.awaitPushes(e, 1, 0, n);
        }
        long from = rel == 0 ? s.offset : d.offset;
        for (int k = 0, c; (c = largeBroadcastTree.child(rel, k)) >= 0; k++) {
            int child = (c + root) % n;
            team.awaitEntered(child, e);
            team.pushInto(child, e, d.offset, from, nbytes);
        }
        if (rel == 0) {
            MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        }
    }
}
