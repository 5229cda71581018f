/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-recursive-doubling}: a small scan across nodes by recursive doubling (Hillis and
 * Steele's): in round k, at distance 2^k, each member pushes the sum it holds of the 2^k inputs up
 * to its own into place k of the push buffer of team PE me + 2^k, and adds the one from team PE
 * me - 2^k into it, and into the sum of its predecessors' (an exclusive scan's result, kept at place
 * {@code rounds} of its own buffer). ceil(log2 N) rounds of at most one push per member, no sync
 * (but every {@code PUSH_BUFFERS - 1} epochs for the buffers' reuse: a member hears only from those
 * before it), where pushing to every successor costs team PE 0 N - 1 pushes. Each round's push
 * raises its own word ({@link RoundPushes}): a later round's may come first. The buffer holds
 * (rounds + 1) inputs ({@link Selector#ROUNDS_WITHIN_A_BUFFER}); a larger scan goes through in
 * chunks that fit, an epoch each. {@link HierarchicalScan} runs the same rounds among the node leaders.
 */
final class RecursiveDoublingScan extends CollKind implements ScanAlgorithm {
    /** Round words: one per round, up to 2^20 members; {@link HierarchicalScan}'s leaders take the next range. */
    static final int FIRST_WORD = 360;
    static final int WORDS = 20;

    /** The members that take part, in order: null for all of them; the node leaders for {@link HierarchicalScan}. */
    private final int[] group;
    /** This PE's place in the group (negative: not in it), the group's size and ceil(log2) of it. */
    private final int place;
    private final int size;
    final int rounds;
    private final RoundPushes words;

    RecursiveDoublingScan(Collectives kit) {
        this(kit, null, FIRST_WORD);
    }

    /** Recursive doubling among {@code group} (team PEs, ascending; null: every member), on round words {@code [firstWord, firstWord + WORDS)}. */
    RecursiveDoublingScan(Collectives kit, int[] group, int firstWord) {
        super(kit);
        this.group = group;
        this.place = group == null ? team.me : java.util.Arrays.binarySearch(group, team.me);
        this.size = group == null ? team.members.length : group.length;
        this.rounds = KnomialTree.ceilLog(size, 2);
        if (rounds > WORDS) {
            throw new IllegalStateException("a recursive-doubling scan over " + size + " PEs needs " + rounds + " round words");
        }
        this.words = new RoundPushes(team, firstWord, WORDS);
    }

    @Override
    public String name() {
        return "push-recursive-doubling";
    }

    @Override
    public void scan(SymArrayImpl<?> d, SymArrayImpl<?> s, Reductions.Elem elem, long count, long nbytes, boolean inclusive) {
        long chunk = chunkBytes(rounds + 1, d.shift);
        MemorySegment self = st.self;
        for (long at = 0; at == 0 || at < nbytes; at += chunk) { // an epoch a chunk; one for 0 bytes
            long len = Math.min(chunk, nbytes - at);
            long e = team.beginPush();
            if (d.offset != s.offset) {
                MemorySegment.copy(self, s.offset + at, self, d.offset + at, len);
            }
            long before = rounds(e, team.buffer(e), elem, d.offset + at, len >> d.shift, len);
            if (!inclusive) {
                if (before < 0) {
                    Collectives.zero(self, d.offset + at, len);
                } else {
                    MemorySegment.copy(self, before, self, d.offset + at, len);
                }
            }
        }
    }

    /** The most bytes of whole elements ({@code 1 << shift} bytes each) of which {@code places} fit one push buffer. */
    static long chunkBytes(int places, int shift) {
        return TeamSlots.BUF_BYTES / places >> shift << shift;
    }

    /**
     * This PE's rounds at epoch {@code e} (begun with {@link SlotProtocol#beginPush}): the sum at
     * heap offset {@code sum} (this PE's input) becomes the group's inclusive scan there. The
     * partners' sums land in place k of {@code buf} (this PE's push buffer of e, or a part of it
     * that the group uses alike); returns where the sum of the inputs before this PE's is (place
     * {@code rounds}), or -1 for the group's first, which has none.
     */
    long rounds(long e, long buf, Reductions.Elem elem, long sum, long count, long nbytes) {
        MemorySegment self = st.self;
        long before = buf + rounds * nbytes;
        for (int k = 0, dist = 1; k < rounds; k++, dist <<= 1) {
            if (place + dist < size) {
                words.push(pe(place + dist), e, k, buf + k * nbytes, sum, nbytes);
            }
            if (place >= dist) {
                long in = buf + k * nbytes;
                words.await(e, k, pe(place - dist));
                // The inputs at 'in' come before those 'sum' holds, and after those 'before' holds.
                if (k == 0) { // the first to come: nothing before it yet
                    MemorySegment.copy(self, in, self, before, nbytes);
                } else {
                    Reductions.combine(ReduceOp.SUM, elem, self, before, self, in, count);
                }
                Reductions.combine(ReduceOp.SUM, elem, self, sum, self, in, count);
            }
        }
        return place == 0 ? -1 : before;
    }

    /** The team PE at place {@code i} of the group. */
    private int pe(int i) {
        return group == null ? i : group[i];
    }
}
