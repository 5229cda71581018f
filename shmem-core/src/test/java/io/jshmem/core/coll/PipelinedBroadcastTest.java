/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The fixed binary tree of {@link PipelinedBroadcast}: from every root, each other PE's upstream
 * neighbour is a tree neighbour one edge nearer the root, so following it always ends at the root
 * within 2 floor(log2 N) edges, and every PE receives from exactly one sender; and the chunking.
 * (The broadcast itself runs in CommInProcessTest and the conformance suite.)
 */
class PipelinedBroadcastTest {
    private static boolean neighbours(int a, int b) {
        return a > 0 && (a - 1) / 2 == b || b > 0 && (b - 1) / 2 == a;
    }

    @Test
    void upstreamLeadsToTheRootAlongTreeEdges() {
        for (int n = 1; n <= 70; n++) {
            int depth = 31 - Integer.numberOfLeadingZeros(n); // floor(log2 n)
            for (int root = 0; root < n; root++) {
                int[] senders = new int[n];
                for (int p = 0; p < n; p++) {
                    if (p == root) {
                        continue;
                    }
                    int hops = 0;
                    for (int x = p; x != root; hops++) {
                        int u = PipelinedBroadcast.upstream(x, root);
                        assertTrue(u >= 0 && u < n && neighbours(x, u), "n=" + n + " root=" + root + " p=" + x + " upstream " + u);
                        assertTrue(hops < 2 * depth, "n=" + n + " root=" + root + ": a path from " + p + " longer than " + 2 * depth);
                        x = u;
                    }
                    senders[PipelinedBroadcast.upstream(p, root)]++;
                }
                for (int p = 0; p < n; p++) {
                    // a PE sends to all of its neighbours but its own upstream one: at most 3
                    int degree = (p > 0 ? 1 : 0) + (2 * p + 1 < n ? 1 : 0) + (2 * p + 2 < n ? 1 : 0);
                    assertEquals(p == root || n == 1 ? degree : degree - 1, senders[p], "n=" + n + " root=" + root + " sends from " + p);
                }
            }
        }
    }

    @Test
    void chunksAreAtLeastTheChunkSizeAndAtMostSixteen() {
        assertEquals(1, PipelinedBroadcast.chunks(0));
        assertEquals(1, PipelinedBroadcast.chunks(PipelinedBroadcast.CHUNK_BYTES));
        assertEquals(2, PipelinedBroadcast.chunks(PipelinedBroadcast.CHUNK_BYTES + 1));
        assertEquals(4, PipelinedBroadcast.chunks(64 << 10));
        assertEquals(PipelinedBroadcast.MAX_CHUNKS, PipelinedBroadcast.chunks(1L << 30));
    }
}
