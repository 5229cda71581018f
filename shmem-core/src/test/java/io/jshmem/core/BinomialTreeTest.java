/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The binomial tree of the broadcasts ({@link Collectives#treeParent}, {@link Collectives#treeChild}). */
class BinomialTreeTest {
    /**
     * For every team size up to 130: every rank but the root has exactly one parent, which lists
     * it as a child; children come biggest subtree first; and the children are exactly the ranks
     * r + 2^k (2^k above r's highest bit, below n), as the broadcast loops had them before.
     */
    @Test
    void everyRankIsReachedOnceFromItsParent() {
        for (int n = 1; n <= 130; n++) {
            int[] reached = new int[n];
            for (int r = 0; r < n; r++) {
                List<Integer> children = new ArrayList<>();
                for (int k = 0, c; (c = Collectives.treeChild(r, n, k)) >= 0; k++) {
                    children.add(c);
                    reached[c]++;
                    assertEquals(r, Collectives.treeParent(c), "n=" + n + ": parent of " + c);
                }
                List<Integer> want = new ArrayList<>();
                for (int mask = Integer.highestOneBit(Math.max(1, n - 1)); mask > Integer.highestOneBit(r); mask >>= 1) {
                    if (r + mask < n) {
                        want.add(r + mask);
                    }
                }
                assertEquals(want, children, "n=" + n + ": children of rank " + r);
            }
            for (int r = 0; r < n; r++) {
                assertEquals(r == 0 ? 0 : 1, reached[r], "n=" + n + ": times rank " + r + " is reached");
            }
        }
    }
}
