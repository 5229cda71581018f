/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * The k-nomial tree over the ranks {@code 0..n-1} of a team relative to a root (rank = (team PE -
 * root) mod n), written once for every collective that goes down (or up) a tree.
 *
 * <p>Write a rank in base {@code radix}: its parent is the rank with its highest non-zero digit
 * cleared, and its children are the ranks that add one non-zero digit above its highest one
 * (below {@code n}). Rank 0 is the root. Data sent down the tree takes {@link #rounds()} =
 * ceil(log_radix n) rounds when in round {@code j} (from the lowest digit) every rank that has the
 * data sends it to its up to {@code radix - 1} children of digit {@code j}.
 *
 * <ul>
 * <li>Radix 2 is the binomial tree: rank r > 0 receives from {@code r - highestOneBit(r)} and
 * forwards to {@code r + 2^k} for every {@code 2^k} above its own highest bit.
 * <li>Radix {@code n} (or more) is the flat tree: the root sends to every other rank, in order.
 * </ul>
 *
 * <p>{@link #child} lists the children highest digit first (within a digit, in increasing order):
 * the order in which the broadcasts have always sent. Note that this is the smallest subtrees
 * first (the child of the highest digit is a leaf), so a rank that sends to its children one after
 * the other delays the big subtrees: the critical path is up to about twice {@link #rounds()}
 * sends. The lowest digit first would keep it at {@link #rounds()}; that is a behaviour change
 * left to the algorithm work of issue 36, not this refactor.
 *
 * <p>Immutable, and nothing is allocated after construction, so a team builds its trees once and
 * its collectives walk them on the hot path.
 */
public final class KnomialTree {
    private final int n;
    private final int radix;
    /** {@code radix^j} for {@code j < rounds}: the place values of the digits (each below n). */
    private final int[] place;

    /**
     * The tree of {@code n >= 1} ranks with {@code radix >= 2}.
     *
     * @throws IllegalArgumentException if {@code n < 1} or {@code radix < 2}
     */
    public KnomialTree(int n, int radix) {
        if (n < 1 || radix < 2) {
            throw new IllegalArgumentException("a k-nomial tree needs n >= 1 and radix >= 2, not n=" + n + ", radix=" + radix);
        }
        this.n = n;
        this.radix = radix;
        int rounds = ceilLog(n, radix);
        this.place = new int[rounds];
        long p = 1;
        for (int j = 0; j < rounds; j++, p *= radix) {
            place[j] = (int) p; // p < n for j < rounds
        }
    }

    /** The binomial tree (radix 2) of {@code n} ranks. */
    public static KnomialTree binomial(int n) {
        return new KnomialTree(n, 2);
    }

    /** The flat tree of {@code n} ranks: the root sends to every other rank. */
    public static KnomialTree flat(int n) {
        return new KnomialTree(n, Math.max(2, n));
    }

    /** ceil(log_radix n) for {@code n >= 1}, {@code radix >= 2}: 0 for n = 1. */
    public static int ceilLog(int n, int radix) {
        int rounds = 0;
        for (long p = 1; p < n; p *= radix) {
            rounds++;
        }
        return rounds;
    }

    /** The number of ranks. */
    public int size() {
        return n;
    }

    public int radix() {
        return radix;
    }

    /** The rounds of a send down the tree: ceil(log_radix n), the number of digits of a rank. */
    public int rounds() {
        return place.length;
    }

    /** The index of {@code rank}'s highest non-zero digit, -1 for the root. */
    private int top(int rank) {
        int j = place.length - 1;
        while (j >= 0 && place[j] > rank) {
            j--;
        }
        return j;
    }

    /** The parent of {@code rank} (0 < rank < n): the rank with its highest non-zero digit cleared. */
    public int parent(int rank) {
        return rank % place[top(rank)];
    }

    /**
     * Child {@code i} (from 0) of {@code rank} (0 <= rank < n), highest digit first, or -1 when it
     * has no more: the ranks {@code rank + d * radix^j} below n, for the digits j above rank's highest
     * non-zero one from the top down, d = 1..radix-1.
     */
    public int child(int rank, int i) {
        int low = top(rank) + 1;
        for (int j = place.length - 1; j >= low; j--) {
            int p = place[j];
            int count = Math.min(radix - 1, (n - 1 - rank) / p);
            if (i < count) {
                return rank + (i + 1) * p;
            }
            i -= count;
        }
        return -1;
    }

    @Override
    public String toString() {
        return radix >= n ? "flat(" + n + ")" : radix + "-nomial(" + n + ")";
    }
}
