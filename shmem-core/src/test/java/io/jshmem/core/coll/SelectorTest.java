/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link Selector}'s tables pick what the if-chains they replaced picked (issue 36: no change of
 * behaviour), for every setting and for team shapes around each threshold; the chains are
 * written out here as they were in TeamImpl and Collectives (broadcast and collect by size too;
 * alltoall, reductions and scans as they were in AllToAlls and ReduceScans), plus the rows added
 * since, each written into the chain where its row stands (Bruck and pairwise alltoall, Bruck and
 * ring fcollect across nodes; the pipelined broadcast), and the rows JSHMEM_BROADCAST_ALGORITHM,
 * JSHMEM_ALLTOALL_ALGORITHM and JSHMEM_FCOLLECT_ALGORITHM force.
 */
class SelectorTest {
    private static final List<String> BARRIER = List.of("auto", "linear", "dissemination", "hierarchical", "central");
    private static final List<String> COLL = List.of("auto", "push", "tree", "pull");
    private static final long[] SIZES = {0, 1, Selector.BRUCK_BLOCK_BYTES, Selector.BRUCK_BLOCK_BYTES + 1, TeamSlots.BUF_BYTES - 1,
        TeamSlots.BUF_BYTES, TeamSlots.BUF_BYTES + 1, 1 << 20};

    /** Shapes: sizes around the thresholds, all mapped here (one node) or not, one PE per node or several. */
    private static List<NodeShape> shapes() {
        List<NodeShape> all = new ArrayList<>();
        for (int n : new int[] {1, 2, 3, 4, 7, 8, 9, 16, 1024, 1025}) {
            all.add(shape(n, true, n)); // one node, PE 0 its leader
            all.add(shape(n, false, n)); // across nodes, one PE per node
            if (n >= 2) {
                all.add(shape(n, false, 2)); // across nodes, 2 PEs per node
            }
        }
        return all;
    }

    /** {@code n} PEs, {@code perNode} to a node (the last node may have fewer); all on one node when {@code local}. */
    private static NodeShape shape(int n, boolean local, int perNode) {
        int[] leaderOf = new int[n];
        int per = local ? n : perNode == n ? 1 : perNode;
        for (int i = 0; i < n; i++) {
            leaderOf[i] = i - i % per;
        }
        return new NodeShape(n, local, leaderOf, (n + per - 1) / per);
    }

    @Test
    void syncTablePicksAsTheOldChain() {
        int checked = 0;
        for (NodeShape s : shapes()) {
            for (String b : BARRIER) {
                int n = s.size();
                boolean local = s.allLocal();
                boolean linear = local && (b.equals("linear") || b.equals("auto") && n <= 8);
                boolean hierarchical = !local && s.nodes() < n && !b.equals("dissemination") && !b.equals("central");
                boolean central = !local && !hierarchical && n > 1 && (b.equals("central") || b.equals("auto") && n > 2 && n <= 8);
                String old = linear ? "linear" : hierarchical ? "hierarchical" : central ? "central" : "dissemination";
                assertEquals(old, Selector.pick(Selector.SYNC, b, s), b + ", " + s);
                checked++;
            }
        }
        assertTrue(checked > 100);
    }

    /** The layouts whose node leaders' sums group as recursive doubling over all PEs (or left to right) does. */
    /** Across nodes, each PE on node {@code nodes[i]} (consecutive layouts: a node's leader is its first PE). */
    private static NodeShape shape(int[] nodes) {
        int[] leaderOf = new int[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            leaderOf[i] = i > 0 && nodes[i] == nodes[i - 1] ? leaderOf[i - 1] : i;
        }
        return new NodeShape(nodes.length, false, leaderOf, nodes[nodes.length - 1] + 1);
    }

    @Test
    void leadersKeepTheGroupingOnlyWhereTheTreesAgree() {
        int[][] keep = {{0, 0, 1, 1}, {0, 0, 0, 1, 1}, {0, 0, 1, 1, 2, 2}, {0, 0, 0, 1}, {0, 0, 1, 1, 2, 2, 3, 3}, {0, 1, 2, 3},
            {0, 0, 0, 0, 1, 1, 1, 1}, {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}, {0, 0, 0, 0, 1, 1},
            {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2}};
        int[][] not = {{0, 1, 1, 1}, {0, 0, 1, 1, 1, 2}, {0, 0, 0, 1, 1, 1}, {0, 0, 0, 1, 1, 1, 2, 2, 2}};
        for (int[] nodes : keep) {
            assertTrue(HierarchicalReduce.keepsGrouping(shape(nodes)), java.util.Arrays.toString(nodes));
        }
        for (int[] nodes : not) {
            assertFalse(HierarchicalReduce.keepsGrouping(shape(nodes)), java.util.Arrays.toString(nodes));
        }
    }

    @Test
    void collectiveTablesPickAsTheOldChains() {
        for (NodeShape s : shapes()) {
            for (String c : COLL) {
                int n = s.size();
                boolean push = s.allLocal() && !c.equals("pull");
                boolean pushAcross = !s.allLocal() && !c.equals("pull");
                boolean pushIntoDest = pushAcross && n <= TeamSlots.ENTRY_WORDS;
                Selector.Family f = Selector.pick(Selector.COLL, c, s);
                String what = c + ", " + s;
                assertEquals(push, f == Selector.Family.PUSH_ON_NODE, what);
                assertEquals(pushAcross, f == Selector.Family.PUSH_ACROSS || f == Selector.Family.PUSH_ACROSS_BUFFERS_ONLY, what);
                assertEquals(pushIntoDest, f == Selector.Family.PUSH_ACROSS, what);
                boolean tree = c.equals("tree") || c.equals("auto") && n > Collectives.TREE_BROADCAST_ABOVE;
                boolean largeTree = tree || c.equals("auto") && n > 2;
                assertEquals(tree ? "tree" : "flat", Selector.pick(Selector.BROADCAST_TREE, c, s), what);
                assertEquals(largeTree ? "tree" : "flat", Selector.pick(Selector.LARGE_BROADCAST_TREE, c, s), what);
                List<Selector.SizeRow> rows = Selector.rowsFor(Selector.BROADCAST, f, n);
                for (long nbytes : SIZES) {
                    String old = push && nbytes <= TeamSlots.BUF_BYTES ? "push"
                            : push ? "in-place"
                            : pushAcross && nbytes > TeamSlots.BUF_BYTES && (n > Collectives.TREE_BROADCAST_ABOVE || !pushIntoDest)
                                    ? "push-pipelined"
                            : pushIntoDest && nbytes > TeamSlots.BUF_BYTES ? "push-into-dest"
                            : pushAcross && nbytes <= TeamSlots.BUF_BYTES ? "push-down"
                            : "pull";
                    String picked = rows.stream().filter(r -> nbytes >= r.minBytes() && nbytes <= r.maxBytes())
                            .findFirst().orElseThrow().algorithm();
                    assertEquals(old, picked, what + ", " + nbytes + " B");
                    boolean bruck = n >= 8 && nbytes <= 256; // rows added after the chains: Bruck, ring
                    String oldFixed = push && nbytes + 8 <= TeamSlots.BUF_BYTES ? "push"
                            : pushAcross && n == 2 && nbytes * n <= TeamSlots.BUF_BYTES ? "push-exchange"
                            : pushAcross && nbytes * n <= TeamSlots.BUF_BYTES ? "push-gather-at-0"
                            : pushAcross && bruck ? "push-bruck"
                            : pushIntoDest && n >= 8 && nbytes * n > 512 << 10 ? "push-ring"
                            : pushIntoDest ? "push-into-dest"
                            : "pull";
                    // Since then, through the node leaders where nodes hold several PEs, each node's consecutive.
                    String fixed = pushAcross && !s.allLocal() && s.someNodeShared() && s.nodesConsecutive() ? "push-hierarchical" : oldFixed;
                    assertEquals(fixed, firstFit(Selector.fcollectRowsFor("auto", f, s), nbytes, n), what + ", fcollect " + nbytes + " B");
                    // collect: since then, through the node leaders where each node's PEs are consecutive
                    // (else as if each PE were on a node of its own)
                    String collect = push ? "push" : pushAcross && !s.allLocal() && s.nodesConsecutive() ? "push-hierarchical"
                            : pushAcross && !s.allLocal() ? "push-recursive-doubling" : "pull";
                    assertEquals(collect, firstFit(Selector.collectRowsFor(f, s), nbytes, n), what + ", collect " + nbytes + " B");
                }
            }
        }
    }

    /** Bytes (per PE for alltoall, in all for reductions and scans) around every threshold of the tables below. */
    private static final long[] CALL_SIZES = {0, 1, 8, 256, 257, 4095, TeamSlots.BUF_BYTES / 4, TeamSlots.BUF_BYTES / 2, TeamSlots.BUF_BYTES - 1,
        TeamSlots.BUF_BYTES, TeamSlots.BUF_BYTES + 1, Selector.SMALL_REDUCE_BYTES - 1, Selector.SMALL_REDUCE_BYTES,
        Selector.SMALL_REDUCE_BYTES + 1, Collectives.EXCHANGE_BYTES - 1, Collectives.EXCHANGE_BYTES,
        Collectives.EXCHANGE_BYTES + 1, TeamSlots.LANDING_BYTES, 1 << 20};

    /**
     * alltoall(s), reductions and scans: the chains of AllToAlls.alltoall, ReduceScans.reduce and
     * ReduceScans.scan before their tables, for every collective and barrier setting (the linear
     * sync), with and without shared cores, sizes, element sizes and strides.
     */
    @Test
    void alltoallReduceAndScanTablesPickAsTheOldChains() {
        int checked = 0;
        for (NodeShape s : shapes()) {
            int n = s.size();
            for (String c : COLL) {
                Selector.Family f = Selector.pick(Selector.COLL, c, s);
                boolean push = f == Selector.Family.PUSH_ON_NODE;
                boolean pushAcross = f == Selector.Family.PUSH_ACROSS || f == Selector.Family.PUSH_ACROSS_BUFFERS_ONLY;
                boolean pushIntoDest = f == Selector.Family.PUSH_ACROSS;
                for (String b : BARRIER) {
                    boolean linearSync = Selector.pick(Selector.SYNC, b, s).equals("linear");
                    for (boolean coreShared : new boolean[] {false, true}) {
                        boolean nodesShared = !s.allLocal() && s.someNodeShared();
                        boolean inOrder = s.nodesConsecutive() && HierarchicalReduce.keepsGrouping(s);
                        boolean uniform = HierarchicalAlltoall.fits(s);
                        Selector.Traits t = new Selector.Traits(f, coreShared, linearSync, nodesShared, s.nodesConsecutive(), inOrder, uniform);
                        List<Selector.KindRow> alltoall = Selector.kindRowsFor(Selector.ALLTOALL, t);
                        List<Selector.KindRow> reduce = Selector.reduceRowsFor(t, "auto");
                        List<Selector.KindRow> scan = Selector.kindRowsFor(Selector.SCAN, t);
                        for (long nbytes : CALL_SIZES) {
                            for (int shift = 0; shift <= 4; shift++) {
                                String what = c + ", " + b + ", cores shared " + coreShared + ", " + s + ", " + nbytes + " B, shift " + shift;
                                for (boolean contiguous : new boolean[] {false, true}) {
                                    String old = push && nbytes * n <= TeamSlots.BUF_BYTES ? "push"
                                            : pushAcross && contiguous && n >= 8 && nbytes <= 256 ? "push-bruck" // added after the chain
                                            : pushAcross && contiguous && nbytes * n <= TeamSlots.BUF_BYTES ? "push-exchange"
                                            : pushIntoDest && contiguous && n >= 8 && nbytes >= 4096 ? "push-pairwise" // likewise
                                            : pushIntoDest && contiguous ? "push-into-dest"
                                            : push && coreShared && contiguous ? "push-into-dest-as-arrived"
                                            : linearSync ? "pull-as-arrived" : "pull";
                                    // Since: small blocks through the node leaders on nodes of as many PEs each (the
                                    // leaders' runs within half a landing area: the algorithm's own check, not the table's).
                                    old = pushAcross && contiguous && uniform && nbytes <= 256 ? "push-hierarchical" : old;
                                    assertEquals(old, firstFit(alltoall, nbytes, n, shift, contiguous), what + ", alltoall, strides 1 " + contiguous);
                                }
                                String oldReduce = push && nbytes <= TeamSlots.BUF_BYTES ? "push"
                                        : pushAcross && nbytes * n <= TeamSlots.BUF_BYTES ? (n == 2 ? "push-exchange" : "push-gather-at-0")
                                        : pushAcross && n == 2 && nbytes <= Collectives.EXCHANGE_BYTES ? "push-exchange-run"
                                        : pushAcross && (TeamSlots.LANDING_BYTES / n) >> shift > 0 ? "push-reduce-scatter-allgather"
                                        : nbytes <= 2048 || n == 1 ? "pull-whole"
                                        : push && n > 2 ? "pull-reduce-scatter-into-dest"
                                        : "pull-reduce-scatter-allgather";
                                // Issue 36: across nodes, teams over 8 PEs reduce in log2 N rounds instead.
                                // Then through the node leaders when some node has several PEs: the small
                                // ones, and the larger ones of teams up to 8 PEs.
                                boolean rdFits = nbytes * (ceilLog2(n) + 1) <= TeamSlots.BUF_BYTES;
                                // (since: only where the leaders' sums group as the flat ones do)
                                String newReduce = pushAcross && nodesShared && inOrder && rdFits ? "push-hierarchical-recursive-doubling"
                                        : pushAcross && nodesShared && inOrder && n <= 8 ? "push-hierarchical-rabenseifner"
                                        : pushAcross && n > 8 ? rdFits ? "push-recursive-doubling" : "push-rabenseifner"
                                        : oldReduce;
                                assertEquals(newReduce, firstFit(reduce, nbytes, n, shift, true), what + ", reduce");
                                String oldScan = push && nbytes <= TeamSlots.BUF_BYTES ? "push"
                                        : pushAcross && nbytes * n <= TeamSlots.BUF_BYTES ? "push-to-successors"
                                        : "pull";
                                // Since then, across nodes, by recursive doubling where pushing to every successor
                                // does not fit or the team has more than 8 PEs.
                                // Then (but where the successors' push takes it) through the node leaders where
                                // nodes hold several PEs, each node's consecutive.
                                boolean leadersFit = nbytes * (ceilLog2(n) + 2) <= TeamSlots.BUF_BYTES;
                                boolean successors = n <= 8 && oldScan.equals("push-to-successors");
                                String newScan = successors ? oldScan // over 8 PEs at any size, in chunks
                                        : pushAcross && nodesShared && s.nodesConsecutive() && (leadersFit || n > 8)
                                                ? "push-hierarchical-recursive-doubling"
                                        : pushAcross && (rdFits || n > 8) ? "push-recursive-doubling" : oldScan;
                                assertEquals(newScan, firstFit(scan, nbytes, n, shift, true), what + ", scan");
                                checked++;
                            }
                        }
                    }
                }
            }
        }
        assertTrue(checked > 10_000, "checked " + checked);
    }

    static int ceilLog2(int n) {
        return 32 - Integer.numberOfLeadingZeros(n - 1);
    }

    /**
     * JSHMEM_REDUCE_ALGORITHM: each value but auto names a row of REDUCE_LIMITS and the other way
     * round; a value puts its algorithm first wherever that can run (written out here for the new
     * rows) and leaves every other call to the auto table; and the auto table never picks an
     * algorithm outside its limits.
     */
    @Test
    void reduceSettingPutsItsRowFirstWhereItCanRun() {
        List<String> values = java.util.Arrays.stream(io.jshmem.core.base.Config.ReduceAlgorithm.values()).map(Selector::label).toList();
        assertEquals("auto", values.getFirst());
        assertEquals(values.subList(1, values.size()).stream().sorted().toList(),
                Selector.REDUCE_LIMITS.stream().map(Selector.KindRow::algorithm).sorted().toList());
        assertEquals(Selector.REDUCE.stream().map(Selector.KindRow::algorithm).sorted().toList(),
                Selector.REDUCE_LIMITS.stream().map(Selector.KindRow::algorithm).sorted().toList());
        int forced = 0;
        for (NodeShape s : shapes()) {
            int n = s.size();
            for (String c : COLL) {
                Selector.Family f = Selector.pick(Selector.COLL, c, s);
                boolean across = f == Selector.Family.PUSH_ACROSS || f == Selector.Family.PUSH_ACROSS_BUFFERS_ONLY;
                boolean nodesShared = !s.allLocal() && s.someNodeShared();
                Selector.Traits t = new Selector.Traits(f, false, false, nodesShared);
                List<Selector.KindRow> auto = Selector.reduceRowsFor(t, "auto");
                for (long nbytes : CALL_SIZES) {
                    for (int sh = 0; sh <= 4; sh++) {
                        int shift = sh;
                        String picked = firstFit(auto, nbytes, n, shift, true);
                        Selector.KindRow limit = Selector.REDUCE_LIMITS.stream().filter(r -> r.algorithm().equals(picked)).findFirst().orElseThrow();
                        String what = c + ", " + s + ", " + nbytes + " B, shift " + shift;
                        assertTrue(limit.admits(t) && limit.call().test().fits(nbytes, n, shift, true), what + ": auto picks " + picked
                                + " outside its limits");
                        for (String v : values) {
                            boolean can = switch (v) {
                                case "auto" -> false;
                                case "push-recursive-doubling" -> across && nbytes * (ceilLog2(n) + 1) <= TeamSlots.BUF_BYTES;
                                case "push-rabenseifner" -> across;
                                case "push-hierarchical-recursive-doubling" -> across && nodesShared
                                        && nbytes * (ceilLog2(n) + 1) <= TeamSlots.BUF_BYTES;
                                case "push-hierarchical-rabenseifner" -> across && nodesShared;
                                default -> Selector.REDUCE_LIMITS.stream().anyMatch(r -> r.algorithm().equals(v) && r.admits(t)
                                        && r.call().test().fits(nbytes, n, shift, true));
                            };
                            assertEquals(can ? v : picked, firstFit(Selector.reduceRowsFor(t, v), nbytes, n, shift, true),
                                    what + ", JSHMEM_REDUCE_ALGORITHM=" + v);
                            forced += can ? 1 : 0;
                        }
                    }
                }
            }
        }
        assertTrue(forced > 1000, "forced " + forced);
    }

    /**
     * A forced alltoall or fcollect row takes every call it can (its team's family, strides, sizes);
     * every other call goes as in {@code auto}. The settings' values are the forced rows' names.
     */
    @Test
    void forcedRowsTakeTheCallsTheyCanAndLeaveTheRestToAuto() {
        List<String> alltoall = java.util.Arrays.stream(io.jshmem.core.base.Config.AlltoallAlgorithm.values()).map(Selector::label).toList();
        List<String> fcollect = java.util.Arrays.stream(io.jshmem.core.base.Config.FcollectAlgorithm.values()).map(Selector::label).toList();
        assertEquals(alltoall.subList(1, alltoall.size()).stream().sorted().toList(),
                Selector.ALLTOALL_FORCED.stream().map(Selector.KindRow::algorithm).sorted().toList());
        assertEquals(fcollect.subList(1, fcollect.size()).stream().sorted().toList(),
                Selector.FCOLLECT_FORCED.stream().map(Selector.CallRow::algorithm).sorted().toList());
        int forced = 0;
        for (NodeShape s : shapes()) {
            int n = s.size();
            for (String c : COLL) {
                Selector.Family f = Selector.pick(Selector.COLL, c, s);
                boolean pushAcross = f == Selector.Family.PUSH_ACROSS || f == Selector.Family.PUSH_ACROSS_BUFFERS_ONLY;
                boolean pushIntoDest = f == Selector.Family.PUSH_ACROSS;
                boolean uniform = HierarchicalAlltoall.fits(s);
                Selector.Traits t = new Selector.Traits(f, false, false, false, false, false, uniform);
                for (long nbytes : CALL_SIZES) {
                    boolean within = nbytes * n <= TeamSlots.BUF_BYTES;
                    for (boolean contiguous : new boolean[] {false, true}) {
                        String auto = firstFit(Selector.kindRowsFor(Selector.ALLTOALL, t), nbytes, n, 3, contiguous);
                        for (String a : alltoall) {
                            boolean can = switch (a) {
                                case "auto" -> false;
                                case "push-bruck" -> pushAcross && contiguous;
                                case "push-hierarchical" -> pushAcross && contiguous && uniform; // and its own fits(nbytes)
                                case "push-exchange" -> pushAcross && contiguous && within;
                                case "push-pairwise", "push-into-dest" -> pushIntoDest && contiguous;
                                default -> true; // pull
                            };
                            String what = a + ", " + c + ", " + s + ", " + nbytes + " B, strides 1 " + contiguous;
                            assertEquals(can ? a : auto, firstFit(Selector.kindRowsFor(Selector.ALLTOALL, Selector.ALLTOALL_FORCED, a, t),
                                    nbytes, n, 3, contiguous), what);
                            forced += can ? 1 : 0;
                        }
                    }
                    String autoBroadcast = broadcastFit(Selector.rowsFor(Selector.BROADCAST, f, n), nbytes);
                    assertEquals(pushAcross ? "push-pipelined" : autoBroadcast,
                            broadcastFit(Selector.rowsFor(Selector.BROADCAST, Selector.BROADCAST_FORCED, "push-pipelined", f, n), nbytes),
                            c + ", " + s + ", broadcast " + nbytes + " B");
                    assertEquals(autoBroadcast, broadcastFit(Selector.rowsFor(Selector.BROADCAST, Selector.BROADCAST_FORCED, "auto", f, n), nbytes));
                    String auto = firstFit(Selector.fcollectRowsFor("auto", f, s), nbytes, n);
                    for (String a : fcollect) {
                        boolean can = switch (a) {
                            case "auto" -> false;
                            case "push-hierarchical" -> pushAcross && !s.allLocal() && s.someNodeShared() && s.nodesConsecutive();
                            case "push-bruck" -> pushAcross;
                            case "push-exchange" -> pushAcross && n == 2 && within;
                            case "push-gather-at-0" -> pushAcross && within;
                            case "push-ring", "push-into-dest" -> pushIntoDest;
                            default -> true; // pull
                        };
                        assertEquals(can ? a : auto, firstFit(Selector.fcollectRowsFor(a, f, s), nbytes, n),
                                a + ", " + c + ", " + s + ", fcollect " + nbytes + " B");
                    }
                }
            }
        }
        assertTrue(forced > 1000, "forced " + forced);
    }

    private static String firstFit(List<Selector.KindRow> rows, long nbytes, int n, int shift, boolean contiguous) {
        return rows.stream().filter(r -> r.call().test().fits(nbytes, n, shift, contiguous)).findFirst().orElseThrow().algorithm();
    }

    private static String broadcastFit(List<Selector.SizeRow> rows, long nbytes) {
        return rows.stream().filter(r -> nbytes >= r.minBytes() && nbytes <= r.maxBytes()).findFirst().orElseThrow().algorithm();
    }

    private static String firstFit(List<Selector.CallRow> rows, long nbytes, int n) {
        return rows.stream().filter(r -> r.fit().fits(nbytes, n)).findFirst().orElseThrow().algorithm();
    }

    @Test
    void everyTableEndsWithARowThatMatchesEverything() {
        NodeShape odd = shape(5, false, 2);
        for (String b : BARRIER) {
            assertEquals("dissemination", Selector.SYNC.getLast().algorithm());
            assertTrue(Selector.SYNC.getLast().matches(b, odd));
        }
        assertEquals(Selector.Family.PULL, Selector.COLL.getLast().algorithm());
        Selector.SizeRow last = Selector.BROADCAST.getLast();
        assertEquals(null, last.family());
        assertEquals(0, last.minBytes());
        assertEquals(Long.MAX_VALUE, last.maxBytes());
        for (List<Selector.CallRow> table : List.of(Selector.FCOLLECT, Selector.COLLECT, Selector.FCOLLECT_FORCED)) {
            assertTrue(table.getLast().families().isEmpty() && table.getLast().fit().fits(Long.MAX_VALUE / 2, 1));
        }
        for (List<Selector.KindRow> table : List.of(Selector.ALLTOALL, Selector.REDUCE, Selector.REDUCE_LIMITS, Selector.SCAN, Selector.ALLTOALL_FORCED)) {
            Selector.KindRow r = table.getLast();
            assertTrue(r.families().isEmpty() && r.team() == Selector.ANY_TEAM && r.call() == Selector.ANY_CALL, r.toString());
        }
        assertTrue(Selector.describe().lines().count() >= 11, Selector.describe());
    }
}
