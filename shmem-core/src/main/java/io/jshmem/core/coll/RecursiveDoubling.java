/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * The partner schedule of recursive doubling (and halving) over a team of any size, written once:
 * the standard fold for a size n that is not a power of two. With p2 the largest power of two up
 * to n and rem = n - p2, the first 2 rem team PEs pair up: each even one (an <em>extra</em>) hands
 * its data to the odd one after it (its <em>survivor</em>) before the rounds and gets the result
 * from it after them; the survivors and the PEs from 2 rem on are the p2 <em>virtual ranks</em>,
 * in team order, which meet in {@link #rounds} = log2 p2 rounds: in round k, virtual rank v with
 * {@code v ^ (1 << k)}. Each virtual rank stands for one or two consecutive team PEs, so a group
 * of ranks that share their high bits is a run of consecutive team PEs (which keeps a reduction's
 * order the team's). Immutable.
 */
final class RecursiveDoubling {
    /** The team's size. */
    final int n;
    /** The largest power of two up to n: the virtual ranks. */
    final int p2;
    /** n - p2: the extras, each folded into the team PE after it. */
    final int rem;
    /** log2 p2. */
    final int rounds;

    RecursiveDoubling(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("recursive doubling needs a team, not n=" + n);
        }
        this.n = n;
        this.p2 = Integer.highestOneBit(n);
        this.rem = n - p2;
        this.rounds = Integer.numberOfTrailingZeros(p2);
    }

    /**
     * Recursive doubling over {@code n} PEs whose words, the fold's and one per round, fit
     * {@code words} round words ({@link RoundPushes}) of an algorithm's range.
     */
    static RecursiveDoubling within(int n, int words) {
        RecursiveDoubling rd = new RecursiveDoubling(n);
        if (rd.rounds + 1 > words) {
            throw new IllegalStateException(rd + " needs " + (rd.rounds + 1) + " round words, not " + words);
        }
        return rd;
    }

    /** Whether team PE {@code pe} is an extra: it hands its data to {@code pe + 1} and takes no part in the rounds. */
    boolean extra(int pe) {
        return pe < 2 * rem && (pe & 1) == 0;
    }

    /** Whether team PE {@code pe} is a survivor: it first combines the data of {@code pe - 1}, its extra. */
    boolean survivor(int pe) {
        return pe < 2 * rem && (pe & 1) == 1;
    }

    /** The virtual rank of team PE {@code pe}, which must not be an {@link #extra}. */
    int virtual(int pe) {
        return pe < 2 * rem ? pe >> 1 : pe - rem;
    }

    /** The team PE of virtual rank {@code v}. */
    int pe(int v) {
        return v < rem ? 2 * v + 1 : v + rem;
    }

    /** The team PE that virtual rank {@code v} meets in round {@code k}. */
    int partner(int v, int k) {
        return pe(v ^ 1 << k);
    }

    @Override
    public String toString() {
        return "recursive doubling over " + n + " PEs (" + rounds + " rounds" + (rem > 0 ? ", " + rem + " folded" : "") + ")";
    }
}
