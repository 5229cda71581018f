/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-pipelined}: a broadcast across nodes that sends O(size) bytes per PE whatever the
 * team's size, in chunks that each PE forwards as soon as they land (the pipelined tree of MPICH's
 * and Open MPI's large broadcasts). A binomial tree ({@link PushIntoDestBroadcast}) has its root
 * send the whole data ceil(log2 N) times, and every hop wait for all of it.
 *
 * <p>The tree is a {@link NodeTree}, fixed for the team: a binary heap over the node leaders, and
 * one inside each node below its leader (with one PE per node, the binary heap over all members).
 * Data from a root flows outward along its edges: each PE receives from the one neighbour on its
 * path to the root (upstream) and sends to the others. So the data crosses into each node once,
 * every PE sends at most 3 x the data across nodes (a leader: 2 more copies inside its node, through
 * shared memory), and the path is at most 2 floor(log2 nodes) + 2 floor(log2 PEs per node) edges.
 *
 * <p>Because the tree does not depend on the root, each signal word has one writer for the life
 * of the team, so this works for teams of any size, where the entry words of the into-dest
 * algorithms stop at {@link TeamSlots#ENTRY_WORDS} members. A PE tells its upstream neighbour
 * that it has entered (its dest is then free: a {@link RoundPushes} word that only that
 * neighbour raises); the upstream neighbour waits for it, then pushes each chunk into the PE's
 * dest, counted on the push counter of the epoch: a push is ordered after the sender's earlier
 * puts to the same PE ({@link io.jshmem.core.comm.Comm#pushCounted}), so a count of k says that
 * the first k chunks are in place. The last wait checks the exact count and identity, as every
 * push collective does.
 */
final class PipelinedBroadcast extends CollKind implements BroadcastAlgorithm {
    /** Data per chunk at least; the chunks of one call are at most {@link #MAX_CHUNKS}. */
    static final long CHUNK_BYTES = 16 << 10;
    /** Chunks per call up to {@link #MAX_CHUNK_BYTES} each (larger calls take larger chunks), which bounds the messages per PE. */
    static final int MAX_CHUNKS = 16;
    /**
     * Data per chunk at most: a call over 16 MiB takes more than {@link #MAX_CHUNKS} chunks rather
     * than larger ones (a push is one message, which the receiver's transport may hold whole before
     * it lands, and a larger chunk delays the next hop longer).
     */
    static final long MAX_CHUNK_BYTES = 1 << 20;

    private final NodeTree tree;
    /** The entry notices, a word per neighbour ({@link NodeTree#wordFrom}). */
    private final RoundPushes entered;
    /** The downstream neighbours of this PE in the current call, and their number. */
    private final int[] down = new int[5];

    PipelinedBroadcast(Collectives kit) {
        super(kit);
        this.tree = new NodeTree(team.shape, team.me);
        this.entered = new RoundPushes(team, 96, NodeTree.WORDS); // the reductions take 0-95 and 240-299, Bruck 112-239
    }

    @Override
    public String name() {
        return "push-pipelined";
    }

    /** The chunks of a call of {@code nbytes} (1 for 0 bytes: every member still takes one push). */
    static int chunks(long nbytes) {
        long c = Math.max(1, Math.min(MAX_CHUNKS, (nbytes + CHUNK_BYTES - 1) / CHUNK_BYTES));
        return (int) Math.max(c, (nbytes + MAX_CHUNK_BYTES - 1) / MAX_CHUNK_BYTES);
    }

    @Override
    public void broadcast(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
        long e = team.beginEntered();
        int up = tree.upstream(root);
        if (up >= 0) {
            entered.push(up, e, tree.wordAt(up), 0, 0, 0);
        }
        int downs = tree.downstream(up, down);
        int chunks = chunks(nbytes);
        long chunk = (nbytes + chunks - 1) / chunks;
        long from = up < 0 ? s.offset : d.offset;
        for (int i = 0; i < chunks; i++) {
            long at = i * chunk;
            long len = Math.max(0, Math.min(chunk, nbytes - at));
            if (up >= 0) {
                team.awaitPushesSoFar(e, i + 1, up);
            }
            for (int k = 0; k < downs; k++) {
                int q = down[k];
                if (i == 0) {
                    awaitEntered(q, e);
                }
                team.pushInto(q, e, d.offset + at, from + at, len);
            }
        }
        if (up >= 0) {
            team.awaitPushes(e, chunks, up, up + 1); // checks the count and the senders' identity
        } else {
            MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        }
    }

    /**
     * Waits until downstream neighbour {@code q} has said it entered operation {@code e}. Its word
     * past e would mean it went through e without this PE's data, in another operation: a mismatch.
     */
    private void awaitEntered(int q, long e) {
        long v = entered.reach(e, tree.wordFrom(q), q, false);
        if (v >>> SlotProtocol.IDENT_BITS != e || (int) (v & SlotProtocol.IDENT_MASK) != team.ident) {
            team.mismatch(q, e, (int) (v & SlotProtocol.IDENT_MASK));
        }
    }
}
