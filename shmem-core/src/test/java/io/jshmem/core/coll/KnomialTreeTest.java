/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link KnomialTree}: the one tree of the collectives. */
class KnomialTreeTest {
    private static final int[] RADIXES = {2, 3, 4, 8};

    /** ceil(log_radix n), computed in floating point as a check of the integer loop. */
    private static int ceilLog(int n, int radix) {
        int r = 0;
        while (Math.pow(radix, r) < n) {
            r++;
        }
        return r;
    }

    /**
     * For N = 1..200 and every radix: every rank but the root is reached exactly once, from a
     * parent that lists it as a child and that {@link KnomialTree#parent} names; the root is never
     * reached; no rank is deeper than {@link KnomialTree#rounds} = ceil(log_k N), and data sent down
     * one digit per round (the lowest first) reaches every rank in that many rounds; children are listed
     * highest digit first.
     */
    @Test
    void everyRankIsReachedOnceInCeilLogRounds() {
        for (int radix : RADIXES) {
            for (int n = 1; n <= 200; n++) {
                KnomialTree tree = new KnomialTree(n, radix);
                String where = "n=" + n + ", radix=" + radix;
                assertEquals(ceilLog(n, radix), tree.rounds(), where + ": rounds");
                assertEquals(ceilLog(n, radix), KnomialTree.ceilLog(n, radix), where + ": ceilLog");
                int[] reached = new int[n];
                int[] subtree = new int[n];
                for (int r = n - 1; r >= 0; r--) { // children are above their parent: sizes bottom-up
                    subtree[r] = 1;
                    int previous = Integer.MIN_VALUE;
                    int count = 0;
                    for (int i = 0, c; (c = tree.child(r, i)) >= 0; i++) {
                        assertTrue(c > r && c < n, where + ": child " + c + " of " + r);
                        reached[c]++;
                        count++;
                        assertEquals(r, tree.parent(c), where + ": parent of " + c);
                        int step = c - r; // d * radix^j, 1 <= d < radix
                        int j = 0;
                        while (step % radix == 0) {
                            step /= radix;
                            j++;
                        }
                        assertTrue(step < radix, where + ": child " + c + " of " + r + " adds one digit");
                        int order = -j * radix + step; // highest digit first, then increasing
                        assertTrue(order > previous, where + ": children of " + r + " highest digit first");
                        previous = order;
                        subtree[r] += subtree[c];
                    }
                    assertTrue(count <= (radix - 1) * tree.rounds(), where + ": children of " + r);
                }
                assertEquals(n, subtree[0], where + ": the root's subtree is everyone");
                int deepest = 0;
                for (int r = 0; r < n; r++) {
                    assertEquals(r == 0 ? 0 : 1, reached[r], where + ": times rank " + r + " is reached");
                    int depth = 0;
                    for (int x = r; x != 0; x = tree.parent(x)) {
                        depth++;
                    }
                    deepest = Math.max(deepest, depth);
                }
                assertTrue(deepest <= tree.rounds(), where + ": depth " + deepest);
                // Sent down in rounds, one digit each from the lowest: every rank has the data after rounds().
                boolean[] has = new boolean[n];
                has[0] = true;
                long place = 1;
                for (int round = 0; round < tree.rounds(); round++, place *= radix) {
                    boolean[] before = has.clone();
                    for (int r = 0; r < n; r++) {
                        for (int i = 0, c; before[r] && (c = tree.child(r, i)) >= 0; i++) {
                            if ((c - r) % place == 0 && (c - r) / place < radix) {
                                has[c] = true;
                            }
                        }
                    }
                }
                for (int r = 0; r < n; r++) {
                    assertTrue(has[r], where + ": rank " + r + " has the data after " + tree.rounds() + " rounds");
                }
            }
        }
    }

    /**
     * Radix 2 is the binomial tree the broadcasts have always used: rank r's children are r + 2^k
     * for each 2^k above r's highest bit, below n, largest first; its parent r - highestOneBit(r).
     */
    @Test
    void radixTwoIsTheBinomialTree() {
        for (int n = 1; n <= 200; n++) {
            KnomialTree tree = KnomialTree.binomial(n);
            for (int r = 0; r < n; r++) {
                List<Integer> children = new ArrayList<>();
                for (int i = 0, c; (c = tree.child(r, i)) >= 0; i++) {
                    children.add(c);
                }
                List<Integer> want = new ArrayList<>();
                for (int mask = Integer.highestOneBit(Math.max(1, n - 1)); mask > Integer.highestOneBit(r); mask >>= 1) {
                    if (r + mask < n) {
                        want.add(r + mask);
                    }
                }
                assertEquals(want, children, "n=" + n + ": children of rank " + r);
                if (r > 0) {
                    assertEquals(r - Integer.highestOneBit(r), tree.parent(r), "n=" + n + ": parent of " + r);
                }
            }
        }
    }

    /** The flat tree: the root sends to 1, 2, ..., n-1 in order; everyone else is a leaf under it. */
    @Test
    void flatTreeIsTheRootToEveryone() {
        for (int n = 1; n <= 200; n++) {
            KnomialTree tree = KnomialTree.flat(n);
            for (int i = 0; i < n - 1; i++) {
                assertEquals(i + 1, tree.child(0, i), "n=" + n);
            }
            assertEquals(-1, tree.child(0, n - 1), "n=" + n);
            for (int r = 1; r < n; r++) {
                assertEquals(0, tree.parent(r), "n=" + n);
                assertEquals(-1, tree.child(r, 0), "n=" + n);
            }
            assertEquals(n > 1 ? 1 : 0, tree.rounds(), "n=" + n);
        }
    }

    @Test
    void rejectsEmptyTreesAndRadixBelowTwo() {
        assertThrows(IllegalArgumentException.class, () -> new KnomialTree(0, 2));
        assertThrows(IllegalArgumentException.class, () -> new KnomialTree(4, 1));
    }
}
