/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-tree} / {@code push-flat}: members not all on this node, data within a push buffer.
 * The data goes down from the root into the members' push buffers ({@link Collectives#pushDown}),
 * from the root to each member or down a binomial tree, as the {@link Selector#BROADCAST_TREE}
 * row says. Where the team has entry words, a member tells its sender that it has entered
 * instead of a sync when the buffers may still be in use.
 */
final class PushDownBroadcast extends CollKind implements BroadcastAlgorithm {
    private final String name;
    /**
     * Per root: the last operation at which every sender of a small broadcast from that root
     * learned that its receivers had entered it (so had finished everything before); the same on
     * every member. Null until needed.
     */
    private long[] entryKnown;

    /** @param tree whether the team's broadcasts go down a binomial tree ({@link Collectives}'s tree) */
    PushDownBroadcast(Collectives kit, boolean tree) {
        super(kit);
        this.name = tree ? "push-tree" : "push-flat";
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void broadcast(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
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
    }
}
