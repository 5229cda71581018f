/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Which algorithms a team uses, from one table per choice (issue 36). A row names an algorithm,
 * the values of its setting under which it may be picked ({@code JSHMEM_BARRIER_ALGORITHM},
 * {@code JSHMEM_COLL_ALGORITHM}; {@link #ANY}: whatever the setting) and the team shapes it
 * fits ({@link NodeShape}: members, nodes, whether every member's heap is mapped here, i.e.
 * shared memory rather than the network transport). The first row that matches wins; the last
 * row of each table matches everything. Every member computes the same shape, so all pick alike.
 *
 * <p>Every collective then picks per call, by size: broadcasts from {@link #BROADCAST},
 * (f)collects from {@link #FCOLLECT} and {@link #COLLECT}, alltoall(s), reductions and scans from
 * {@link #ALLTOALL}, {@link #REDUCE} and {@link #SCAN} (whose rows also name team conditions,
 * {@link Traits}, and call conditions: strides, members, element size). JSHMEM_BROADCAST_ALGORITHM,
 * JSHMEM_ALLTOALL_ALGORITHM and JSHMEM_FCOLLECT_ALGORITHM force a row ({@link #BROADCAST_FORCED},
 * {@link #ALLTOALL_FORCED}, {@link #FCOLLECT_FORCED}) ahead of the table, for the teams and calls it
 * can take.
 */
public final class Selector {
    /** Up to this many members (all on this node), a sync waits for each member's arrival word directly. */
    public static final int LINEAR_SYNC_MAX = 8;
    /** Teams across nodes of up to this many members sync through team PE 0 ({@link CentralSync}) in {@code auto}. */
    public static final int CENTRAL_SYNC_MAX = 8;

    /**
     * A choice setting as the tables name it: its value as users spell it ({@code auto}, {@code tree},
     * ...), so that a row and SHMEM_INFO read like the settings reference. Called at team creation only.
     */
    static String label(Enum<?> setting) {
        return io.jshmem.core.base.Setting.choiceName(setting);
    }

    /** A row matches whatever the setting. */
    static final List<String> ANY = List.of();

    /** One row of a table: {@code algorithm} under {@code settings} (or {@link #ANY}) for shapes that {@code fit}. */
    record Row<A>(A algorithm, List<String> settings, String shapes, Predicate<NodeShape> fit) {
        boolean matches(String setting, NodeShape shape) {
            return (settings.isEmpty() || settings.contains(setting)) && fit.test(shape);
        }

        @Override
        public String toString() {
            return algorithm + " (" + (settings.isEmpty() ? "any setting" : String.join("/", settings)) + "; " + shapes + ")";
        }
    }

    private static <A> Row<A> row(A algorithm, List<String> settings, String shapes, Predicate<NodeShape> fit) {
        return new Row<>(algorithm, settings, shapes, fit);
    }

    /** Barrier/sync, by JSHMEM_BARRIER_ALGORITHM. */
    static final List<Row<String>> SYNC = List.of(
            row("linear", List.of("linear"), "all mapped here", NodeShape::allLocal),
            row("linear", List.of("auto"), "all mapped here, up to " + LINEAR_SYNC_MAX + " PEs",
                    s -> s.allLocal() && s.size() <= LINEAR_SYNC_MAX),
            row("hierarchical", List.of("auto", "linear", "hierarchical"), "across nodes, some node with several PEs",
                    s -> !s.allLocal() && s.someNodeShared()),
            row("central", List.of("central"), "across nodes, 2 PEs or more", s -> !s.allLocal() && s.size() > 1),
            row("central", List.of("auto"), "across nodes, 3-" + CENTRAL_SYNC_MAX + " PEs",
                    s -> !s.allLocal() && s.size() > 2 && s.size() <= CENTRAL_SYNC_MAX),
            row("dissemination", ANY, "any", s -> true));

    /** How a team's collectives move data (the family; sizes pick within it per call). */
    public enum Family {
        /** Every member mapped here: push through the arrival words and push buffers, in place above them. */
        PUSH_ON_NODE,
        /** Across nodes: push into the buffers, and above them straight into dest once told the receiver entered. */
        PUSH_ACROSS,
        /** Across nodes, more members than a slot has entry words: push into the buffers, else pull. */
        PUSH_ACROSS_BUFFERS_ONLY,
        /** Read the members' sources after a sync. */
        PULL
    }

    /** Collectives, by JSHMEM_COLL_ALGORITHM. */
    static final List<Row<Family>> COLL = List.of(
            row(Family.PUSH_ON_NODE, List.of("auto", "push", "tree"), "all mapped here", NodeShape::allLocal),
            row(Family.PUSH_ACROSS, List.of("auto", "push", "tree"), "across nodes, up to " + TeamSlots.ENTRY_WORDS + " PEs",
                    s -> !s.allLocal() && s.size() <= TeamSlots.ENTRY_WORDS),
            row(Family.PUSH_ACROSS_BUFFERS_ONLY, List.of("auto", "push", "tree"), "across nodes", s -> !s.allLocal()),
            row(Family.PULL, ANY, "any", s -> true));

    /**
     * The tree of a broadcast across nodes within the push buffers, by JSHMEM_COLL_ALGORITHM: a
     * binomial tree takes log2 N steps, at most log2 N sends per PE; flat (from the root to every
     * member) is one step whose sends are all in flight at once.
     */
    static final List<Row<String>> BROADCAST_TREE = List.of(
            row("tree", List.of("tree"), "any", s -> true),
            row("tree", List.of("auto"), "more than " + Collectives.TREE_BROADCAST_ABOVE + " PEs",
                    s -> s.size() > Collectives.TREE_BROADCAST_ABOVE),
            row("flat", ANY, "any", s -> true));

    /**
     * The same for broadcasts across nodes above the push buffers: binomial from 3 PEs on in
     * {@code auto} (the root then sends fewer copies, and the others forward in parallel; 4 PEs
     * over UCX/TCP on 2 cores, 64 KiB: a median of 190-200 us against 228-250 from the root to
     * everyone).
     */
    static final List<Row<String>> LARGE_BROADCAST_TREE = List.of(
            row("tree", List.of("tree"), "any", s -> true),
            row("tree", List.of("auto"), "more than 2 PEs", s -> s.size() > 2),
            row("flat", ANY, "any", s -> true));

    /**
     * A row of a per-call table: {@code algorithm} for teams of {@code family} (null: any) of more
     * than {@code abovePes} members, and calls of {@code minBytes} to {@code maxBytes} bytes.
     */
    record SizeRow(String algorithm, Family family, int abovePes, long minBytes, long maxBytes) {
        SizeRow(String algorithm, Family family, long minBytes, long maxBytes) {
            this(algorithm, family, 0, minBytes, maxBytes);
        }

        @Override
        public String toString() {
            return algorithm + " (" + (family == null ? "any family" : family) + (abovePes > 0 ? ", more than " + abovePes + " PEs" : "")
                    + "; " + (maxBytes == Long.MAX_VALUE ? (minBytes == 0 ? "any size" : "over " + (minBytes - 1) + " B")
                            : "up to " + maxBytes + " B") + ")";
        }
    }

    /**
     * Broadcasts, by the team's {@link Family}, members and the call's bytes ({@link Broadcasts}
     * runs the first row that holds the call): {@code push-down} is {@code push-tree} or
     * {@code push-flat} and {@code push-into-dest} is {@code push-into-dest-tree} or {@code -flat},
     * by the broadcast tree tables. Above the push buffers, teams of more than
     * {@link Collectives#TREE_BROADCAST_ABOVE} members across nodes, and all teams of more than
     * {@link TeamSlots#ENTRY_WORDS} (which have no entry words, and would otherwise pull from the
     * root), pipeline the data down a binary tree ({@link PipelinedBroadcast}): at most 3 x the
     * data from any PE, where a binomial tree's root sends it ceil(log2 N) times (a model, not a
     * measurement: 2 cores cannot run such teams).
     */
    static final List<SizeRow> BROADCAST = List.of(
            new SizeRow("push", Family.PUSH_ON_NODE, 0, TeamSlots.BUF_BYTES),
            new SizeRow("in-place", Family.PUSH_ON_NODE, 0, Long.MAX_VALUE),
            new SizeRow("push-pipelined", Family.PUSH_ACROSS, Collectives.TREE_BROADCAST_ABOVE, TeamSlots.BUF_BYTES + 1, Long.MAX_VALUE),
            new SizeRow("push-into-dest", Family.PUSH_ACROSS, TeamSlots.BUF_BYTES + 1, Long.MAX_VALUE),
            new SizeRow("push-down", Family.PUSH_ACROSS, 0, TeamSlots.BUF_BYTES),
            new SizeRow("push-down", Family.PUSH_ACROSS_BUFFERS_ONLY, 0, TeamSlots.BUF_BYTES),
            new SizeRow("push-pipelined", Family.PUSH_ACROSS_BUFFERS_ONLY, TeamSlots.BUF_BYTES + 1, Long.MAX_VALUE),
            new SizeRow("pull", null, 0, Long.MAX_VALUE));

    /**
     * The broadcast rows JSHMEM_BROADCAST_ALGORITHM may force, each for every call it can take
     * (teams of other families use {@link #BROADCAST}).
     */
    static final List<SizeRow> BROADCAST_FORCED = List.of(
            new SizeRow("push-pipelined", Family.PUSH_ACROSS, 0, Long.MAX_VALUE),
            new SizeRow("push-pipelined", Family.PUSH_ACROSS_BUFFERS_ONLY, 0, Long.MAX_VALUE));

    /** Whether a call of {@code nbytes} (per member) on a team of {@code n} members fits a row. */
    @FunctionalInterface
    interface SizeFit {
        boolean fits(long nbytes, int n);
    }

    /**
     * A row of a per-call table whose limits depend on the team's size: {@code algorithm} for
     * teams of one of {@code families} (empty: any), for calls that {@code fit} ({@code sizes}
     * says how, for SHMEM_INFO).
     */
    record CallRow(String algorithm, List<Family> families, String sizes, SizeFit fit) {
        @Override
        public String toString() {
            return algorithm + " (" + (families.isEmpty() ? "any family" : families.stream().map(Enum::name)
                    .collect(Collectors.joining("/"))) + "; " + sizes + ")";
        }
    }

    private static final List<Family> ACROSS = List.of(Family.PUSH_ACROSS, Family.PUSH_ACROSS_BUFFERS_ONLY);
    private static final List<Family> INTO_DEST = List.of(Family.PUSH_ACROSS);

    /**
     * alltoall and fcollect across nodes go Bruck's way ({@link BruckAlltoall}, {@link BruckFcollect}:
     * ceil(log2 N) pushes per PE) in {@code auto} from this many members on, as MPICH's alltoall does;
     * below, one round of pushes to every member costs fewer steps.
     */
    static final int BRUCK_MIN_PES = 8;
    /** ... for blocks (alltoall: per member; fcollect: each PE's data) of up to this many bytes (MPICH's short alltoall). */
    static final long BRUCK_BLOCK_BYTES = 256;
    /** alltoall across nodes from {@link #BRUCK_MIN_PES} members on is paced in pairs ({@link PairwiseAlltoall}) from this block size on. */
    static final long PAIRWISE_BLOCK_BYTES = 4096;
    /** fcollect across nodes from {@link #BRUCK_MIN_PES} members on goes round a ring ({@link RingFcollect}) above this many bytes in all (MPICH's long allgather). */
    static final long RING_BYTES = 512 << 10;

    /** The teams {@code push-hierarchical} fcollects can take ({@link HierarchicalCollect#fits}, applied by {@link #fcollectRowsFor}). */
    static final String HIERARCHICAL_TEAMS = "some node with several PEs, each node's consecutive";

    /**
     * fcollect (the same bytes on every member), by family and the call's bytes per member. Teams
     * across nodes whose nodes hold several members, each node's consecutive, go through the node
     * leaders at any size ({@link HierarchicalCollect}: log2(nodes) network rounds, only leaders
     * send; 4 PEs on 2 hosts over UCX/TCP, quick interleaved runs: 8 B p50 84-104 us against
     * 215-233 gathered at team PE 0, 64 KiB 183-489 against 618-701 into dest). Else, within a push
     * buffer, gathered at team PE 0 and sent down a tree: one epoch, where Bruck takes one per
     * round and so, from 9 rounds (over 256 PEs) on, a sync per call for the buffers' reuse (the
     * collective simulator: 16 messages and 9 network steps at the busiest of 1,024 PEs against
     * Bruck's 28 and 20).
     */

    static final List<CallRow> FCOLLECT = List.of(
            new CallRow("push", List.of(Family.PUSH_ON_NODE), "up to " + (TeamSlots.BUF_BYTES - 8) + " B per PE",
                    (nbytes, n) -> nbytes + 8 <= TeamSlots.BUF_BYTES),
            new CallRow("push-hierarchical", ACROSS, HIERARCHICAL_TEAMS + ", any size", (nbytes, n) -> true),
            new CallRow("push-exchange", ACROSS, "2 PEs, all within " + TeamSlots.BUF_BYTES + " B",
                    (nbytes, n) -> n == 2 && nbytes * n <= TeamSlots.BUF_BYTES),
            new CallRow("push-gather-at-0", ACROSS, "other than 2 PEs, all within " + TeamSlots.BUF_BYTES + " B",
                    (nbytes, n) -> n != 2 && nbytes * n <= TeamSlots.BUF_BYTES),
            new CallRow("push-bruck", ACROSS, BRUCK_MIN_PES + " PEs or more, up to " + BRUCK_BLOCK_BYTES + " B per PE",
                    (nbytes, n) -> n >= BRUCK_MIN_PES && nbytes <= BRUCK_BLOCK_BYTES),
            new CallRow("push-ring", INTO_DEST, BRUCK_MIN_PES + " PEs or more, all over " + RING_BYTES / 1024 + " KiB",
                    (nbytes, n) -> n >= BRUCK_MIN_PES && nbytes * n > RING_BYTES),
            new CallRow("push-into-dest", List.of(Family.PUSH_ACROSS), "any size", (nbytes, n) -> true),
            new CallRow("pull", List.of(), "any size", (nbytes, n) -> true));

    /**
     * The fcollect rows JSHMEM_FCOLLECT_ALGORITHM may force, each for every call it can take (others,
     * and teams of other families, use {@link #FCOLLECT}).
     */
    static final List<CallRow> FCOLLECT_FORCED = List.of(
            new CallRow("push-hierarchical", ACROSS, HIERARCHICAL_TEAMS + ", any size", (nbytes, n) -> true),
            new CallRow("push-bruck", ACROSS, "any size", (nbytes, n) -> true),
            new CallRow("push-ring", INTO_DEST, "any size", (nbytes, n) -> true),
            new CallRow("push-exchange", ACROSS, "2 PEs, all within " + TeamSlots.BUF_BYTES + " B",
                    (nbytes, n) -> n == 2 && nbytes * n <= TeamSlots.BUF_BYTES),
            new CallRow("push-gather-at-0", ACROSS, "all within " + TeamSlots.BUF_BYTES + " B", (nbytes, n) -> nbytes * n <= TeamSlots.BUF_BYTES),
            new CallRow("push-into-dest", INTO_DEST, "any size", (nbytes, n) -> true),
            new CallRow("pull", List.of(), "any size", (nbytes, n) -> true));

    /** The teams {@code push-hierarchical} collects can take ({@link HierarchicalCollect#fitsCollect}, applied by {@link #collectRowsFor}). */
    static final String HIERARCHICAL_COLLECT_TEAMS = "each node's PEs consecutive, up to " + HierarchicalCollect.MAX_COLLECT_NODES + " nodes";

    /**
     * collect (sizes differ by member): on one node pushed, or pulled if some member's data does
     * not fit a push buffer (decided in the call, once all sizes are known). Across nodes, teams
     * whose nodes' members are consecutive go through the node leaders ({@link HierarchicalCollect}:
     * 2 log2(nodes) network rounds, only leaders send), where the pulled form syncs four times and
     * reads every member's size and data (2 N reads per PE); other teams of up to 8,192 members run
     * the same as if each member were on a node of its own (2 log2 N rounds); larger ones pull.
     */
    static final List<CallRow> COLLECT = List.of(
            new CallRow("push", List.of(Family.PUSH_ON_NODE), "any size (pull if some PE's exceeds "
                    + (TeamSlots.BUF_BYTES - 8) + " B)", (nbytes, n) -> true),
            new CallRow("push-hierarchical", ACROSS, HIERARCHICAL_COLLECT_TEAMS + ", any size", (nbytes, n) -> true),
            new CallRow("push-recursive-doubling", ACROSS, "other teams, up to " + HierarchicalCollect.MAX_COLLECT_NODES + " PEs, any size",
                    (nbytes, n) -> true),
            new CallRow("pull", List.of(), "any size", (nbytes, n) -> true));

    /** Reductions up to this many bytes, pulled, are done whole by every member (one sync fewer). */
    static final long SMALL_REDUCE_BYTES = 2048;

    /**
     * What a team's rows of {@link #ALLTOALL}, {@link #REDUCE} and {@link #SCAN} may depend on
     * besides its family, fixed at team creation: whether this node's PEs share cores, whether
     * the team's sync is {@link LinearSync} (a caller can then split it and work on each member as
     * soon as it has arrived), whether it spans nodes with several members on some node (then node
     * leaders can act for their nodes: {@link HierarchicalReduce}), and whether each node's members
     * are consecutive in the team (then a node's part of a scan is a run: {@link HierarchicalScan}),
     * whether the leaders' sums group as the flat ones do ({@link HierarchicalReduce#keepsGrouping}),
     * and whether every node holds as many members as every other ({@link HierarchicalAlltoall}).
     */
    record Traits(Family family, boolean coreShared, boolean linearSync, boolean nodesShared, boolean nodesConsecutive,
            boolean leadersKeepGrouping, boolean nodesUniform) {
        Traits(Family family, boolean coreShared, boolean linearSync, boolean nodesShared) {
            this(family, coreShared, linearSync, nodesShared, false, false, false);
        }

        Traits(Family family, boolean coreShared, boolean linearSync) {
            this(family, coreShared, linearSync, false);
        }
    }

    /** A team condition of a row, named for SHMEM_INFO. */
    record TeamIf(String text, Predicate<Traits> test) {
    }

    /**
     * Whether a call fits: its bytes ({@code nbytes}: per member for alltoall, in all for
     * reductions and scans), the team's members, log2 of the element size, whether both strides
     * are 1 (alltoall; else true).
     */
    @FunctionalInterface
    interface CallTest {
        boolean fits(long nbytes, int n, int shift, boolean contiguous);
    }

    /** A call condition of a row, named for SHMEM_INFO; {@link #and} joins two (nothing allocated per call). */
    record CallIf(String text, CallTest test) {
        CallIf and(CallIf o) {
            CallTest a = test;
            CallTest b = o.test;
            return new CallIf(text + ", " + o.text, (nbytes, n, shift, c) -> a.fits(nbytes, n, shift, c) && b.fits(nbytes, n, shift, c));
        }

        /** Either of two (nothing allocated per call). */
        CallIf or(CallIf o) {
            CallTest a = test;
            CallTest b = o.test;
            return new CallIf(text + " or " + o.text, (nbytes, n, shift, c) -> a.fits(nbytes, n, shift, c) || b.fits(nbytes, n, shift, c));
        }
    }

    static final TeamIf ANY_TEAM = new TeamIf("", t -> true);
    static final TeamIf CORES_SHARED = new TeamIf("PEs share cores", Traits::coreShared);
    static final TeamIf LINEAR_SYNC = new TeamIf("linear sync", Traits::linearSync);
    static final TeamIf NODES_SHARED = new TeamIf("some node with several PEs", Traits::nodesShared);
    static final TeamIf NODES_SHARED_CONSECUTIVE = new TeamIf("some node with several PEs, each node's consecutive",
            t -> t.nodesShared() && t.nodesConsecutive());
    static final TeamIf NODES_SHARED_IN_ORDER = new TeamIf("some node with several PEs, the nodes' sums grouped as the flat ones",
            t -> t.nodesShared() && t.nodesConsecutive() && t.leadersKeepGrouping());
    static final TeamIf NODES_UNIFORM = new TeamIf("up to " + HierarchicalAlltoall.MAX_NODES + " nodes of as many PEs each, several, consecutive",
            Traits::nodesUniform);
    static final CallIf ANY_CALL = new CallIf("any size", (nbytes, n, shift, c) -> true);
    /** Said here for SHMEM_INFO; {@link HierarchicalAlltoall#fits} checks it, knowing the team's node size. */
    static final CallIf LEADERS_RUNS_FIT = new CallIf("the leaders' runs within " + TeamSlots.BUF_BYTES + " B",
            (nbytes, n, shift, c) -> true);
    static final CallIf WITHIN_A_BUFFER = new CallIf("up to " + TeamSlots.BUF_BYTES + " B",
            (nbytes, n, shift, c) -> nbytes <= TeamSlots.BUF_BYTES);
    static final CallIf ALL_WITHIN_A_BUFFER = new CallIf("all PEs' within " + TeamSlots.BUF_BYTES + " B",
            (nbytes, n, shift, c) -> nbytes * n <= TeamSlots.BUF_BYTES);
    static final CallIf STRIDES_1 = new CallIf("strides 1", (nbytes, n, shift, c) -> c);
    static final CallIf TWO_PES = new CallIf("2 PEs", (nbytes, n, shift, c) -> n == 2);
    static final CallIf NOT_TWO_PES = new CallIf("other than 2 PEs", (nbytes, n, shift, c) -> n != 2);
    static final CallIf MORE_THAN_TWO_PES = new CallIf("more than 2 PEs", (nbytes, n, shift, c) -> n > 2);
    static final CallIf BRUCK_PES = new CallIf(BRUCK_MIN_PES + " PEs or more", (nbytes, n, shift, c) -> n >= BRUCK_MIN_PES);
    static final CallIf SMALL_BLOCKS = new CallIf("up to " + BRUCK_BLOCK_BYTES + " B per PE",
            (nbytes, n, shift, c) -> nbytes <= BRUCK_BLOCK_BYTES);
    static final CallIf LARGE_BLOCKS = new CallIf(PAIRWISE_BLOCK_BYTES + " B per PE or more",
            (nbytes, n, shift, c) -> nbytes >= PAIRWISE_BLOCK_BYTES);
    static final CallIf WITHIN_EXCHANGE_RUN = new CallIf("up to " + Collectives.EXCHANGE_BYTES + " B",
            (nbytes, n, shift, c) -> nbytes <= Collectives.EXCHANGE_BYTES);
    static final CallIf LANDING_SLICE_HOLDS_AN_ELEMENT = new CallIf("an element per PE within the "
            + TeamSlots.LANDING_BYTES + " B landing area", (nbytes, n, shift, c) -> (TeamSlots.LANDING_BYTES / n) >> shift > 0);
    static final CallIf SMALL_OR_ONE_PE = new CallIf("up to " + SMALL_REDUCE_BYTES + " B or 1 PE",
            (nbytes, n, shift, c) -> nbytes <= SMALL_REDUCE_BYTES || n == 1);
    /**
     * Across nodes, reductions over up to this many members take a fixed number of hops (gathered at
     * team PE 0, or slices pushed to every member: O(N) messages at some PE, few at this size);
     * larger teams recursive doubling or Rabenseifner (log2 N rounds, O(log N) messages per PE).
     */
    public static final int FLAT_REDUCE_MAX = 8;
    static final CallIf FLAT_REDUCE_PES = new CallIf("up to " + FLAT_REDUCE_MAX + " PEs", (nbytes, n, shift, c) -> n <= FLAT_REDUCE_MAX);
    static final CallIf MORE_THAN_FLAT_REDUCE_PES = new CallIf("more than " + FLAT_REDUCE_MAX + " PEs",
            (nbytes, n, shift, c) -> n > FLAT_REDUCE_MAX);
    /** The node leaders' scan: its rounds' inputs, the node's sum and the sum before it fit one push buffer ({@link HierarchicalScan}). */
    static final CallIf SCAN_ROUNDS_WITHIN_A_BUFFER = new CallIf("(ceil(log2 N) + 2) x the bytes within " + TeamSlots.BUF_BYTES + " B",
            (nbytes, n, shift, c) -> nbytes * (KnomialTree.ceilLog(n, 2) + 2) <= TeamSlots.BUF_BYTES);
    /** Recursive doubling's inputs (its rounds' and the fold's) all fit one push buffer ({@link RecursiveDoublingReduce}). */
    static final CallIf ROUNDS_WITHIN_A_BUFFER = new CallIf("(ceil(log2 N) + 1) x the bytes within " + TeamSlots.BUF_BYTES + " B",
            (nbytes, n, shift, c) -> nbytes * (KnomialTree.ceilLog(n, 2) + 1) <= TeamSlots.BUF_BYTES);

    /** Scans whose rounds' inputs do not fit a push buffer go through it in chunks, each an epoch, from this team size up ({@link RecursiveDoublingScan}). */
    static final CallIf SCAN_CHUNKED = MORE_THAN_FLAT_REDUCE_PES;

    /**
     * A row of {@link #ALLTOALL}, {@link #REDUCE}, {@link #SCAN}: {@code algorithm} for teams of one
     * of {@code families} (empty: any) for which {@code team} holds, for calls that fit {@code call}.
     */
    record KindRow(String algorithm, List<Family> families, TeamIf team, CallIf call) {
        /** Whether a team of these traits may use this row. */
        boolean admits(Traits t) {
            return (families.isEmpty() || families.contains(t.family())) && team.test().test(t);
        }

        @Override
        public String toString() {
            return algorithm + " (" + (families.isEmpty() ? "any family" : families.stream().map(Enum::name)
                    .collect(Collectors.joining("/"))) + "; " + (team.text().isEmpty() ? "" : team.text() + ", ") + call.text() + ")";
        }
    }

    private static KindRow row(String algorithm, List<Family> families, TeamIf team, CallIf call) {
        return new KindRow(algorithm, families, team, call);
    }

    private static final List<Family> ON_NODE = List.of(Family.PUSH_ON_NODE);
    private static final List<Family> ANY_FAMILY = List.of();

    /**
     * alltoall(s), by family, team and the call's bytes per member and strides: {@code
     * push-into-dest-as-arrived} (on one node, each block as soon as its receiver has arrived)
     * reports itself as {@code push-into-dest}, like the one across nodes.
     */
    static final List<KindRow> ALLTOALL = List.of(
            row("push", ON_NODE, ANY_TEAM, ALL_WITHIN_A_BUFFER),
            row("push-hierarchical", ACROSS, NODES_UNIFORM, SMALL_BLOCKS.and(STRIDES_1).and(LEADERS_RUNS_FIT)),
            row("push-bruck", ACROSS, ANY_TEAM, BRUCK_PES.and(SMALL_BLOCKS).and(STRIDES_1)),
            row("push-exchange", ACROSS, ANY_TEAM, STRIDES_1.and(ALL_WITHIN_A_BUFFER)),
            row("push-pairwise", INTO_DEST, ANY_TEAM, BRUCK_PES.and(LARGE_BLOCKS).and(STRIDES_1)),
            row("push-into-dest", List.of(Family.PUSH_ACROSS), ANY_TEAM, STRIDES_1),
            row("push-into-dest-as-arrived", ON_NODE, CORES_SHARED, STRIDES_1),
            row("pull-as-arrived", ANY_FAMILY, LINEAR_SYNC, ANY_CALL),
            row("pull", ANY_FAMILY, ANY_TEAM, ANY_CALL));

    /**
     * The alltoall rows JSHMEM_ALLTOALL_ALGORITHM may force, each for every call it can take
     * (strided calls only {@code pull}); other calls, and teams of other families, use {@link #ALLTOALL}.
     */
    static final List<KindRow> ALLTOALL_FORCED = List.of(
            row("push-bruck", ACROSS, ANY_TEAM, STRIDES_1),
            row("push-hierarchical", ACROSS, NODES_UNIFORM, STRIDES_1.and(LEADERS_RUNS_FIT)),
            row("push-pairwise", INTO_DEST, ANY_TEAM, STRIDES_1),
            row("push-exchange", ACROSS, ANY_TEAM, STRIDES_1.and(ALL_WITHIN_A_BUFFER)),
            row("push-into-dest", INTO_DEST, ANY_TEAM, STRIDES_1),
            row("pull", ANY_FAMILY, ANY_TEAM, ANY_CALL));

    /**
     * Reductions (array, complex, scalar), by family and the call's bytes, members and element size
     * (JSHMEM_REDUCE_ALGORITHM=auto). Across nodes, teams of more than {@link #FLAT_REDUCE_MAX}
     * members take recursive doubling while its rounds' inputs fit a push buffer, else Rabenseifner;
     * if some node holds several members, each node's consecutive, and the leaders' sums group as
     * the flat ones do (the promise for doubles: {@link HierarchicalReduce#keepsGrouping}; 2+2,
     * 3+2, 2+2+2 PEs do, 1+3 does not), the reductions within recursive doubling's size go
     * through the node leaders ({@link HierarchicalReduce}: log2(nodes) network rounds, only leaders
     * send), and so do larger ones on teams of up to {@link #FLAT_REDUCE_MAX} (4 PEs on 2 hosts over
     * UCX/TCP, quick interleaved runs: 8 B p50 57-74 us against 174-244 gathered at team PE 0,
     * 64 KiB 249-418 against 475-560 pushed slices, p99 lower too). Larger teams keep Rabenseifner
     * flat for large ones: with a node's members consecutive, its first rounds are already on the
     * node and the members share the combining, where the leaders' form has each leader combine its
     * whole node's inputs alone (not measured at that size: it can be forced).
     */
    static final List<KindRow> REDUCE = List.of(
            row("push", ON_NODE, ANY_TEAM, WITHIN_A_BUFFER),
            row("push-exchange", ACROSS, ANY_TEAM, TWO_PES.and(ALL_WITHIN_A_BUFFER)),
            row("push-hierarchical-recursive-doubling", ACROSS, NODES_SHARED_IN_ORDER, ROUNDS_WITHIN_A_BUFFER),
            row("push-gather-at-0", ACROSS, ANY_TEAM, NOT_TWO_PES.and(FLAT_REDUCE_PES).and(ALL_WITHIN_A_BUFFER)),
            row("push-recursive-doubling", ACROSS, ANY_TEAM, MORE_THAN_FLAT_REDUCE_PES.and(ROUNDS_WITHIN_A_BUFFER)),
            row("push-exchange-run", ACROSS, ANY_TEAM, TWO_PES.and(WITHIN_EXCHANGE_RUN)),
            row("push-hierarchical-rabenseifner", ACROSS, NODES_SHARED_IN_ORDER, FLAT_REDUCE_PES),
            row("push-rabenseifner", ACROSS, ANY_TEAM, MORE_THAN_FLAT_REDUCE_PES),
            row("push-reduce-scatter-allgather", ACROSS, ANY_TEAM, LANDING_SLICE_HOLDS_AN_ELEMENT),
            row("pull-whole", ANY_FAMILY, ANY_TEAM, SMALL_OR_ONE_PE),
            row("pull-reduce-scatter-into-dest", ON_NODE, ANY_TEAM, MORE_THAN_TWO_PES),
            row("pull-reduce-scatter-allgather", ANY_FAMILY, ANY_TEAM, ANY_CALL));

    /**
     * Where each reduction algorithm can run at all: JSHMEM_REDUCE_ALGORITHM set to a row's name
     * puts that row first ({@link #reduceRowsFor}), for the teams and calls it admits here; the
     * {@link #REDUCE} table takes the others. Every row of REDUCE lies within its row here.
     */
    static final List<KindRow> REDUCE_LIMITS = List.of(
            row("push", ON_NODE, ANY_TEAM, WITHIN_A_BUFFER),
            row("push-exchange", ACROSS, ANY_TEAM, TWO_PES.and(ALL_WITHIN_A_BUFFER)),
            row("push-gather-at-0", ACROSS, ANY_TEAM, ALL_WITHIN_A_BUFFER),
            row("push-recursive-doubling", ACROSS, ANY_TEAM, ROUNDS_WITHIN_A_BUFFER),
            row("push-hierarchical-recursive-doubling", ACROSS, NODES_SHARED, ROUNDS_WITHIN_A_BUFFER),
            row("push-exchange-run", ACROSS, ANY_TEAM, TWO_PES.and(WITHIN_EXCHANGE_RUN)),
            row("push-rabenseifner", ACROSS, ANY_TEAM, ANY_CALL),
            row("push-hierarchical-rabenseifner", ACROSS, NODES_SHARED, ANY_CALL),
            row("push-reduce-scatter-allgather", ACROSS, ANY_TEAM, LANDING_SLICE_HOLDS_AN_ELEMENT),
            row("pull-whole", ANY_FAMILY, ANY_TEAM, ANY_CALL),
            row("pull-reduce-scatter-into-dest", ON_NODE, ANY_TEAM, MORE_THAN_TWO_PES),
            row("pull-reduce-scatter-allgather", ANY_FAMILY, ANY_TEAM, ANY_CALL));

    /**
     * The reduction rows a team of {@code traits} uses, in order, under JSHMEM_REDUCE_ALGORITHM
     * {@code setting} ({@code auto} or a row's name): that row of {@link #REDUCE_LIMITS} first when
     * the team admits it, then {@link #REDUCE}'s: the alltoall settings' rule, with REDUCE_LIMITS as
     * the forced rows.
     */
    static List<KindRow> reduceRowsFor(Traits traits, String setting) {
        return kindRowsFor(REDUCE, REDUCE_LIMITS, setting, traits);
    }

    /**
     * Scans, by family and the call's bytes. Across nodes, up to 8 members whose inputs all fit a
     * push buffer push to their successors (one network step; 4 PEs on 2 hosts over UCX/TCP, 8 B,
     * quick interleaved runs: p50 19-123 us alone against 131-838 through the node leaders); else
     * teams whose nodes hold several members, each node's consecutive, go through the node leaders
     * ({@link HierarchicalScan}: ceil(log2 nodes) network rounds, only leaders send), others by
     * recursive doubling ({@link RecursiveDoublingScan}: ceil(log2 N) steps of a push each, where
     * team PE 0 would push N - 1 times); each while its rounds' inputs fit a push buffer, and on
     * teams of more than 8 PEs at any size, in chunks that do (where pulling costs the last member
     * N - 1 reads of the whole size). Larger scans of smaller teams are pulled.
     */
    static final List<KindRow> SCAN = List.of(
            row("push", ON_NODE, ANY_TEAM, WITHIN_A_BUFFER),
            row("push-to-successors", ACROSS, ANY_TEAM, FLAT_REDUCE_PES.and(ALL_WITHIN_A_BUFFER)),
            row("push-hierarchical-recursive-doubling", ACROSS, NODES_SHARED_CONSECUTIVE, SCAN_ROUNDS_WITHIN_A_BUFFER.or(SCAN_CHUNKED)),
            row("push-recursive-doubling", ACROSS, ANY_TEAM, ROUNDS_WITHIN_A_BUFFER.or(SCAN_CHUNKED)),
            row("pull", ANY_FAMILY, ANY_TEAM, ANY_CALL));

    /** The rows of {@code table} a team of {@code traits} may use, in order. */
    static List<KindRow> kindRowsFor(List<KindRow> table, Traits traits) {
        return table.stream().filter(r -> r.admits(traits)).toList();
    }

    /**
     * The rows a team of {@code traits} uses under {@code setting} ({@code auto}, or a row name of
     * {@code forced}): the forced rows of that name it may use, then {@code table}'s.
     */
    static List<KindRow> kindRowsFor(List<KindRow> table, List<KindRow> forced, String setting, Traits traits) {
        return java.util.stream.Stream.concat(forced.stream().filter(r -> r.algorithm().equals(setting)), table.stream())
                .filter(r -> r.admits(traits)).toList();
    }

    /** The rows of {@code table} a team of {@code family} may use, in order. */
    static List<CallRow> callRowsFor(List<CallRow> table, Family family) {
        return table.stream().filter(r -> r.families().isEmpty() || r.families().contains(family)).toList();
    }

    /** As {@link #kindRowsFor(List, List, String, Traits)}, for the (f)collect tables. */
    static List<CallRow> callRowsFor(List<CallRow> table, List<CallRow> forced, String setting, Family family) {
        return callRowsFor(java.util.stream.Stream.concat(forced.stream().filter(r -> r.algorithm().equals(setting)),
                table.stream()).toList(), family);
    }

    /**
     * The fcollect rows a team of {@code family} and {@code shape} uses under
     * JSHMEM_FCOLLECT_ALGORITHM {@code setting}: {@link #callRowsFor(List, List, String, Family)} of
     * {@link #FCOLLECT}, without {@code push-hierarchical} where the shape does not fit it
     * ({@link #HIERARCHICAL_TEAMS}).
     */
    static List<CallRow> fcollectRowsFor(String setting, Family family, NodeShape shape) {
        return callRowsFor(FCOLLECT, FCOLLECT_FORCED, setting, family).stream()
                .filter(r -> !r.algorithm().equals("push-hierarchical") || HierarchicalCollect.fits(shape)).toList();
    }

    /**
     * The collect rows a team of {@code family} and {@code shape} uses: {@link #COLLECT}'s for the
     * family, without {@code push-hierarchical} where the shape does not fit it ({@link #HIERARCHICAL_COLLECT_TEAMS})
     * and {@code push-recursive-doubling} (on the same round words) where it does, or where the
     * members are more than a landing area's node totals.
     */
    static List<CallRow> collectRowsFor(Family family, NodeShape shape) {
        boolean hierarchical = HierarchicalCollect.fitsCollect(shape);
        return callRowsFor(COLLECT, family).stream()
                .filter(r -> !r.algorithm().equals("push-hierarchical") || hierarchical)
                .filter(r -> !r.algorithm().equals("push-recursive-doubling") || !hierarchical && HierarchicalCollect.fitsCollect(shape.apart()))
                .toList();
    }

    /** The rows of {@code table} a team of {@code family} and {@code n} members may use, in order. */
    static List<SizeRow> rowsFor(List<SizeRow> table, Family family, int n) {
        return table.stream().filter(r -> (r.family() == null || r.family() == family) && n > r.abovePes()).toList();
    }

    /** As {@link #rowsFor(List, Family, int)}, after the rows of {@code forced} that JSHMEM_BROADCAST_ALGORITHM ({@code setting}) names. */
    static List<SizeRow> rowsFor(List<SizeRow> table, List<SizeRow> forced, String setting, Family family, int n) {
        return rowsFor(java.util.stream.Stream.concat(forced.stream().filter(r -> r.algorithm().equals(setting)), table.stream()).toList(),
                family, n);
    }

    private Selector() {
    }

    /** The algorithm of the first row of {@code table} that matches. */
    static <A> A pick(List<Row<A>> table, String setting, NodeShape shape) {
        for (Row<A> r : table) {
            if (r.matches(setting, shape)) {
                return r.algorithm();
            }
        }
        throw new IllegalStateException("no row matches " + setting + ", " + shape); // the last row matches all
    }

    /** The sync algorithm of the team of {@code p} (flags from heap offset {@code flags0}). */
    static SyncAlgorithm sync(SlotProtocol p, String setting, long flags0) {
        NodeShape shape = p.shape;
        return switch (pick(SYNC, setting, shape)) {
            case "linear" -> new LinearSync(p);
            case "hierarchical" -> new HierarchicalSync(p, shape, flags0);
            case "central" -> new CentralSync(p, flags0);
            default -> new DisseminationSync(p, java.util.stream.IntStream.range(0, shape.size()).toArray(), flags0);
        };
    }

    /** The tables, one line each, for SHMEM_INFO. */
    public static String describe() {
        return "sync: " + text(SYNC) + "\ncollectives: " + text(COLL) + "\nbroadcast tree across nodes: "
                + text(BROADCAST_TREE) + "\nlarge broadcast tree across nodes: " + text(LARGE_BROADCAST_TREE) + "\nbroadcast: " + text(BROADCAST)
                + "\nbroadcast forced by JSHMEM_BROADCAST_ALGORITHM: " + text(BROADCAST_FORCED)
                + "\nfcollect: " + text(FCOLLECT) + "\nfcollect forced by JSHMEM_FCOLLECT_ALGORITHM: " + text(FCOLLECT_FORCED)
                + "\ncollect: " + text(COLLECT) + "\nalltoall: " + text(ALLTOALL)
                + "\nalltoall forced by JSHMEM_ALLTOALL_ALGORITHM: " + text(ALLTOALL_FORCED)
                + "\nreduce: " + text(REDUCE) + "\nreduce by JSHMEM_REDUCE_ALGORITHM (that row first, where it can run): "
                + text(REDUCE_LIMITS) + "\nscan: " + text(SCAN);
    }

    private static String text(List<?> table) {
        return table.stream().map(Object::toString).collect(Collectors.joining(", "));
    }
}
