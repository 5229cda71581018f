/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.core.comm.PeState;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-recursive-doubling}: a small reduction across nodes ({@link RecursiveDoubling}'s
 * schedule): in round k each virtual rank pushes its partial result (in its dest) into its
 * partner's push buffer of the epoch, at place k + 1, and combines the partner's into it, the
 * lower group's first, so that both get bitwise the same value and every member the team-order
 * result. An extra pushes its input to place 0 of its survivor first and gets the result there at
 * the end. log2 N rounds (two more when N is not a power of two), log2 N pushes per PE, no sync;
 * the buffer holds (rounds + 1) inputs ({@link Selector#ROUNDS_WITHIN_A_BUFFER}). Each round's
 * push raises its own word ({@link RoundPushes}): a later round's partner may come first.
 */
final class RecursiveDoublingReduce extends CollKind implements ReduceAlgorithm {
    /**
     * The members that take part, in order: null for all of them; the node leaders for
     * {@link HierarchicalReduce}, whose followers have given them their inputs.
     */
    private final int[] group;
    /** This PE's place in the group (negative: not in it). */
    private final int place;
    private final RecursiveDoubling rd;
    /** Word 0: the fold (in at a survivor, out at an extra); word k + 1: round k. */
    private final RoundPushes words;

    RecursiveDoublingReduce(Collectives kit) {
        this(kit, null, 0, 32);
    }

    /**
     * Recursive doubling among {@code group} (team PEs, ascending; null: every member), on round
     * words {@code [firstWord, firstWord + words)} ({@link RoundPushes}; an algorithm's own).
     */
    RecursiveDoublingReduce(Collectives kit, int[] group, int firstWord, int words) {
        super(kit);
        this.group = group;
        this.place = group == null ? team.me : java.util.Arrays.binarySearch(group, team.me);
        this.rd = RecursiveDoubling.within(group == null ? team.members.length : group.length, words);
        this.words = new RoundPushes(team, firstWord, words);
    }

    @Override
    public String name() {
        return "push-recursive-doubling";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        long e = team.beginPush();
        rounds(e, op, elem, dOff, sOff, count, nbytes);
        team.receivedFromAll(e); // the result holds every member's input of epoch e
    }

    /** The team PE at place {@code i} of the group. */
    private int pe(int i) {
        return group == null ? i : group[i];
    }

    /**
     * This PE's part at epoch {@code e} (begun with {@link SlotProtocol#beginPush}): the group's
     * inputs at {@code sOff} reduced into every group member's {@code dOff}.
     */
    void rounds(long e, ReduceOp op, Reductions.Elem elem, long dOff, long sOff, long count, long nbytes) {
        long buf = team.buffer(e);
        if (rd.extra(place)) {
            int survivor = pe(place + 1);
            words.push(survivor, e, 0, buf, sOff, nbytes);
            words.await(e, 0, survivor);
            MemorySegment.copy(st.self, buf, st.self, dOff, nbytes);
            return;
        }
        if (rd.survivor(place)) {
            words.await(e, 0, pe(place - 1));
            combineInOrder(st, op, elem, dOff, sOff, buf, count, nbytes, false);
        } else if (dOff != sOff) {
            MemorySegment.copy(st.self, sOff, st.self, dOff, nbytes);
        }
        int v = rd.virtual(place);
        for (int k = 0; k < rd.rounds; k++) {
            int partner = pe(rd.partner(v, k));
            long in = buf + (k + 1) * nbytes;
            words.push(partner, e, k + 1, in, dOff, nbytes);
            words.await(e, k + 1, partner);
            combineInOrder(st, op, elem, dOff, dOff, in, count, nbytes, (v & 1 << k) == 0);
        }
        if (rd.survivor(place)) {
            words.push(pe(place - 1), e, 0, buf, dOff, nbytes);
        }
    }

    /**
     * The heap at {@code dOff} gets {@code count} elements of mine (at {@code mine}, which may be
     * {@code dOff}) combined with theirs (at {@code theirs}, a place this PE received them into and may
     * overwrite): mine OP theirs when {@code mineFirst}, else theirs OP mine, in that order, so that
     * the PE on the other side, combining the same two the other way round, gets the same bits.
     */
    static void combineInOrder(PeState st, ReduceOp op, Reductions.Elem elem, long dOff, long mine, long theirs, long count,
            long nbytes, boolean mineFirst) {
        if (mineFirst) {
            if (mine != dOff) {
                MemorySegment.copy(st.self, mine, st.self, dOff, nbytes);
            }
            Reductions.combine(op, elem, st.self, dOff, st.self, theirs, count);
        } else {
            Reductions.combine(op, elem, st.self, theirs, st.self, mine, count);
            MemorySegment.copy(st.self, theirs, st.self, dOff, nbytes);
        }
    }
}
