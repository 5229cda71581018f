/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The fixed tree of {@link PipelinedBroadcast} ({@link NodeTree}), for teams of one PE per node,
 * several per node (even, uneven, and nodes whose members are not consecutive): from every root,
 * each other PE's upstream neighbour sends to it, following upstream ends at the root within the
 * tree's depth bound, the data enters a node once, no PE sends across nodes more than 3 times, and
 * the notice words pair up (the word a PE raises at a neighbour is the one that neighbour waits
 * on, and no word has two writers at a receiver nor two receivers from one sender). Then the
 * chunking. (The broadcast itself runs in CommInProcessTest and the conformance suite.)
 */
class PipelinedBroadcastTest {
    private static int[] leaderOf(int n, IntUnaryOperator nodeOf) {
        int[] leaderOf = new int[n];
        java.util.Map<Integer, Integer> first = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) {
            int index = i;
            leaderOf[i] = first.computeIfAbsent(nodeOf.applyAsInt(i), x -> index);
        }
        return leaderOf;
    }

    private static int floorLog2(int x) {
        return 31 - Integer.numberOfLeadingZeros(Math.max(1, x));
    }

    @Test
    void upstreamAndDownstreamMakeOneTreeFromEveryRoot() {
        int shapes = 0;
        for (int n = 1; n <= 40; n++) {
            for (int per : new int[] {1, 2, 4, 7}) {
                int m = per;
                int nodes = Math.max(1, (n + m - 1) / m);
                check(leaderOf(n, i -> i / m), n);
                check(leaderOf(n, i -> i % nodes), n); // round-robin placement
                shapes += 2;
            }
        }
        check(leaderOf(9, i -> new int[] {0, 0, 1, 1, 1, 2, 2, 3, 3}[i]), 9);
        assertTrue(shapes > 300);
    }

    private static void check(int[] leaderOf, int n) {
        int nodes = (int) java.util.Arrays.stream(leaderOf).distinct().count();
        NodeShape shape = new NodeShape(n, false, leaderOf, nodes);
        NodeTree[] t = new NodeTree[n];
        for (int p = 0; p < n; p++) {
            t[p] = new NodeTree(shape, p);
        }
        int perNode = 0;
        for (int p = 0; p < n; p++) {
            int l = leaderOf[p];
            perNode = Math.max(perNode, (int) java.util.Arrays.stream(leaderOf).filter(x -> x == l).count());
        }
        int bound = 2 * floorLog2(nodes) + 2 * floorLog2(perNode);
        int[] out = new int[5];
        for (int root = 0; root < n; root++) {
            String what = "n=" + n + " leaders " + java.util.Arrays.toString(leaderOf) + " root " + root;
            int[] received = new int[n];
            int[] into = new int[n]; // per node leader: sends into that node from other nodes
            for (int p = 0; p < n; p++) {
                int k = t[p].downstream(t[p].upstream(root), out);
                int across = 0;
                Set<Integer> raised = new HashSet<>();
                for (int i = 0; i < k; i++) {
                    int q = out[i];
                    assertEquals(p, t[q].upstream(root), what + ": " + p + " sends to " + q);
                    received[q]++;
                    if (leaderOf[q] != leaderOf[p]) {
                        across++;
                        into[leaderOf[q]]++;
                    }
                    assertEquals(t[q].wordFrom(p), t[p].wordAt(q), what + ": the word " + p + " raises at " + q);
                    assertTrue(raised.add(t[p].wordAt(q)), what + ": " + p + " raises one word at two neighbours");
                }
                assertTrue(across <= 3, what + ": " + p + " sends across nodes " + across + " times");
                if (p != root) {
                    int hops = 0;
                    for (int x = p; x != root; hops++) {
                        assertTrue(hops < Math.max(1, bound), what + ": the path from " + p + " is longer than " + bound);
                        x = t[x].upstream(root);
                    }
                    Set<Integer> words = new HashSet<>();
                    int up = t[p].upstream(root);
                    words.add(t[p].wordFrom(up));
                    for (int i = 0; i < k; i++) {
                        assertTrue(words.add(t[p].wordFrom(out[i])), what + ": two neighbours of " + p + " raise one word");
                    }
                }
            }
            for (int p = 0; p < n; p++) {
                assertEquals(p == root ? 0 : 1, received[p], what + ": " + p + " receives");
                assertTrue(into[p] <= (leaderOf[p] == leaderOf[root] ? 0 : 1), what + ": data enters node of " + p + " " + into[p] + " times");
            }
        }
    }

    @Test
    void chunksAreAtLeast16KiBAndSixteenUpToAMiBEach() {
        assertEquals(1, PipelinedBroadcast.chunks(0));
        assertEquals(1, PipelinedBroadcast.chunks(PipelinedBroadcast.CHUNK_BYTES));
        assertEquals(2, PipelinedBroadcast.chunks(PipelinedBroadcast.CHUNK_BYTES + 1));
        assertEquals(4, PipelinedBroadcast.chunks(64 << 10));
        assertEquals(PipelinedBroadcast.MAX_CHUNKS, PipelinedBroadcast.chunks(1 << 20));
        assertEquals(PipelinedBroadcast.MAX_CHUNKS, PipelinedBroadcast.chunks(16 << 20));
        assertEquals(PipelinedBroadcast.MAX_CHUNKS + 1, PipelinedBroadcast.chunks((16 << 20) + 1));
        assertEquals(1024, PipelinedBroadcast.chunks(1L << 30));
        // every chunk of the call's size holds data, and none is over a MiB
        for (long n : new long[] {1, 16_385, 65_536, 262_145, (16 << 20) + 1, 3L << 30}) {
            int c = PipelinedBroadcast.chunks(n);
            long chunk = (n + c - 1) / c;
            assertTrue(chunk <= PipelinedBroadcast.MAX_CHUNK_BYTES && (c - 1) * chunk < n, n + " B: " + c + " chunks of " + chunk);
        }
    }
}
