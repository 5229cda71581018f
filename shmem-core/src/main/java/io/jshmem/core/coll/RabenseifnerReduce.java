/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-rabenseifner}: a large reduction across nodes, Rabenseifner's way over
 * {@link RecursiveDoubling}'s schedule: a reduce-scatter by recursive halving, then an allgather
 * by recursive doubling, in chunks that fit the landing area ({@link TeamSlots#LANDING_BYTES},
 * half of it when the team folds). 2 log2 N pushes per PE and chunk, each PE sending and
 * combining about twice the data once in all, whatever N; no sync.
 *
 * <p>The p2 virtual ranks own the chunk's p2 blocks by position: rank v owns position
 * {@code reverse(v)} (its bits read backwards), so that in reduce-scatter round k, with partner
 * {@code v ^ (1 << k)}, the two halve the range they share by position bit {@code log2 p2 - 1 - k}
 * and each pushes the half the other keeps, from its dest (its source in round 0), into the other's
 * landing area; the receiver combines it with its own, the lower group's first (a partial result
 * then always covers a run of consecutive team PEs, combined in team order), into its dest. Each
 * round's input lands after the previous round's (the two partners agree where: they have kept the
 * same ranges so far). The allgather runs the rounds backwards, each PE pushing the part of the
 * result it has straight into its partner's dest, which is free: the partner pushed to this PE
 * before, so it has entered the call, and it no longer reads that part. An extra pushes its chunk
 * into its survivor's landing area (after the rounds' inputs) first and gets the result into its
 * dest at the end.
 *
 * <p>An epoch a chunk, and a word per round ({@link RoundPushes}: the fold and the reduce-scatter's,
 * the allgather's and the result to the extra); no push buffer, so never a sync. The landing area
 * is free at the start of a chunk: a member starts one only with the whole result of the one
 * before, each of whose parts was sent after its member had read its landing area.
 */
final class RabenseifnerReduce extends CollKind implements ReduceAlgorithm {
    /**
     * The members that take part, in order: null for all of them; the node leaders for
     * {@link HierarchicalReduce}, whose followers have given them their inputs.
     */
    private final int[] group;
    /** This PE's place in the group (negative: not in it). */
    private final int place;
    private final RecursiveDoubling rd;
    /** Word 0: the fold; word k + 1: reduce-scatter round k. */
    private final RoundPushes scatter;
    /** Word j: allgather round j; word log2 p2: the result to the extra. */
    private final RoundPushes gather;

    RabenseifnerReduce(Collectives kit) {
        this(kit, null, 32, 32);
    }

    /**
     * Rabenseifner's algorithm among {@code group} (team PEs, ascending; null: every member), on
     * round words {@code [firstWord, firstWord + 2 words)} ({@link RoundPushes}; an algorithm's own).
     */
    RabenseifnerReduce(Collectives kit, int[] group, int firstWord, int words) {
        super(kit);
        this.group = group;
        this.place = group == null ? team.me : java.util.Arrays.binarySearch(group, team.me);
        this.rd = RecursiveDoubling.within(group == null ? team.members.length : group.length, words);
        this.scatter = new RoundPushes(team, firstWord, words);
        this.gather = new RoundPushes(team, firstWord + words, words);
    }

    @Override
    public String name() {
        return "push-rabenseifner";
    }

    /** The first element of position {@code x} (0 to p2) of a chunk of {@code c} elements. */
    private long at(long c, long x) {
        return c * x / rd.p2;
    }

    /** The team PE at place {@code i} of the group. */
    private int pe(int i) {
        return group == null ? i : group[i];
    }

    /** Elements of {@code 1 << shift} bytes per chunk (an epoch each): what the landing area holds. */
    long chunkElements(int shift) {
        return ((long) TeamSlots.LANDING_BYTES >> (rd.rem > 0 ? 1 : 0)) >> shift;
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        long chunk = chunkElements(shift);
        long base = 0;
        do {
            long c = Math.min(chunk, count - base);
            long e = team.beginEntered(); // no push buffer: no sync
            chunk(e, op, elem, shift, dOff + (base << shift), sOff + (base << shift), c);
            // Every member has entered e (the result holds its chunk) and finished its reduce-scatter.
            team.receivedFromAll(e);
            base += c;
        } while (base < count);
    }

    /**
     * This PE's part of one chunk at epoch {@code e} (begun with {@link SlotProtocol#beginEntered}):
     * the group's {@code c} elements at {@code s} reduced into every group member's {@code d}.
     */
    void chunk(long e, ReduceOp op, Reductions.Elem elem, int shift, long d, long s, long c) {
        int rounds = rd.rounds;
        long landing = team.landingOff;
        long foldAt = landing + (chunkElements(shift) << shift); // an extra's chunk, after the rounds' inputs (under a chunk in all)
        if (rd.extra(place)) {
            scatter.push(pe(place + 1), e, 0, foldAt, s, c << shift);
            gather.await(e, rounds, pe(place + 1));
            return;
        }
        int v = rd.virtual(place);
        long p = rounds == 0 ? 0 : Integer.reverse(v) >>> 32 - rounds; // the position this PE owns after the reduce-scatter
        long mine = s; // this PE's partial result: its source until it has combined one
        if (rd.survivor(place)) {
            scatter.await(e, 0, pe(place - 1));
            RecursiveDoublingReduce.combineInOrder(st, op, elem, d, s, foldAt, c, c << shift, false);
            mine = d;
        }
        long got = landing; // where this round's input lands
        for (int k = 0; k < rounds; k++) {
            int b = rounds - 1 - k; // the position bit the two halve by
            long keep = p >> b << b;
            long give = keep ^ 1L << b;
            long kLo = at(c, keep);
            long kHi = at(c, keep + (1L << b));
            long gLo = at(c, give);
            int partner = pe(rd.partner(v, k));
            scatter.push(partner, e, k + 1, got, mine + (gLo << shift), (at(c, give + (1L << b)) - gLo) << shift);
            scatter.await(e, k + 1, partner);
            RecursiveDoublingReduce.combineInOrder(st, op, elem, d + (kLo << shift), mine + (kLo << shift), got, kHi - kLo,
                    (kHi - kLo) << shift, (v & 1 << k) == 0);
            mine = d;
            got += (kHi - kLo) << shift;
        }
        if (mine != d) { // a group of one
            MemorySegment.copy(st.self, mine, st.self, d, c << shift);
        }
        for (int j = 0; j < rounds; j++) { // this PE has the result at positions [own, own + 2^j)
            long own = p >> j << j;
            long lo = at(c, own);
            int partner = pe(rd.partner(v, rounds - 1 - j));
            gather.push(partner, e, j, d + (lo << shift), d + (lo << shift), (at(c, own + (1L << j)) - lo) << shift);
            gather.await(e, j, partner);
        }
        if (rd.survivor(place)) {
            gather.push(pe(place - 1), e, rounds, d, d, c << shift);
        }
    }
}
