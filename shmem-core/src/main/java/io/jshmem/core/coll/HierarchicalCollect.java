/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-hierarchical}: an fcollect or collect of a team across nodes, each node's members
 * consecutive in the team (an fcollect also needs several members on some node: else Bruck's way
 * is as short), through the node leaders. Each leader copies its node's blocks (its followers'
 * sources, read from their mapped heaps once they have arrived) into its dest; the leaders then
 * gather the rest by recursive doubling ({@link RecursiveDoubling}, with the fold): in round k a
 * leader puts the run of blocks it holds, which is consecutive since the nodes are, straight into
 * its partner's dest at their place, and gets the partner's; last, each leader releases its node,
 * whose followers copy the whole result from the leader's dest in parallel and say so in their
 * exit words, which the leader waits for before it returns (its dest is the caller's again then).
 * log2(nodes) network rounds, only leaders send. As {@code push-recursive-doubling} it runs as if
 * each member were on a node of its own ({@link NodeShape#apart}): a collect of a team whose
 * nodes' members are not consecutive, every member a leader.
 *
 * <p>A collect's blocks differ in size, so the places are not known in advance: a follower leaves
 * its byte count in its scratch word when it arrives, each leader adds up its node's, and the
 * leaders first gather every node's total the same recursive-doubling way into their landing
 * areas (a long per node: 8 bytes a node, in log2(nodes) more rounds), from which each knows every
 * run's place and the size in all; it leaves that in its scratch word for its followers. Where
 * dest cannot hold it all, every member syncs and throws the same error before any data moves.
 *
 * <p>A leader puts into a partner's dest (or landing area) only once the partner has said it
 * entered the call (both are then free): every leader tells all its partners at the start, a word
 * per round ({@link RoundPushes}), so those notices are not on the rounds' path. Each place of a
 * leader's dest is written once (by the leader or the one partner that brings that run), so the
 * rounds need no other order. One epoch, no push buffer: never a sync.
 */
final class HierarchicalCollect extends CollKind implements CollectAlgorithm {
    /** Round words: the entry notices, the data, the node totals (three ranges of {@link #WORDS}). */
    static final int FIRST_WORD = 300;
    static final int WORDS = 20;
    /** The most nodes a collect can take: one node total each in the landing area. */
    static final int MAX_COLLECT_NODES = TeamSlots.LANDING_BYTES / 8;

    private final NodeStage node;
    /** The node leaders (team PEs, ascending), this PE's place among them (negative: a follower). */
    private final int[] leaders;
    private final int place;
    private final RecursiveDoubling rd;
    /** Word 0: the fold; word k + 1: round k. */
    private final RoundPushes entered;
    private final RoundPushes data;
    private final RoundPushes totals;
    /** A leader's collect: where each leader place's node block starts in dest; the size in all last. */
    private final long[] nodeAt;
    /** The call's bytes per member (fcollect), or -1 (collect: {@link #nodeAt}). */
    private long block;

    /** The name the JFR event reports: {@code push-hierarchical}, or {@code push-recursive-doubling} over every member apart. */
    private final String name;

    HierarchicalCollect(Collectives kit) {
        this(kit, kit.team.shape, "push-hierarchical");
    }

    /**
     * As if the team's members sat on nodes as {@code shape} says: {@code NodeShape.apart()} runs
     * it as recursive doubling over all members (a collect of a team whose nodes' members are not
     * consecutive), on the same round words.
     */
    HierarchicalCollect(Collectives kit, NodeShape shape, String name) {
        super(kit);
        this.name = name;
        this.node = new NodeStage(team, shape);
        this.leaders = shape.leaders();
        this.place = java.util.Arrays.binarySearch(leaders, team.me);
        this.rd = RecursiveDoubling.within(leaders.length, WORDS);
        this.entered = new RoundPushes(team, FIRST_WORD, WORDS);
        this.data = new RoundPushes(team, FIRST_WORD + WORDS, WORDS);
        this.totals = new RoundPushes(team, FIRST_WORD + 2 * WORDS, WORDS);
        this.nodeAt = new long[place >= 0 ? leaders.length + 1 : 0];
    }

    /** Whether a team of this shape can take its fcollects: across nodes, several members on some node, each node's consecutive. */
    static boolean fits(NodeShape shape) {
        return !shape.allLocal() && shape.someNodeShared() && shape.nodesConsecutive();
    }

    /** Whether a team of this shape can take its collects: across nodes, each node's members consecutive, its node totals within a landing area. */
    static boolean fitsCollect(NodeShape shape) {
        return !shape.allLocal() && shape.nodesConsecutive() && shape.nodes() <= MAX_COLLECT_NODES;
    }

    @Override
    public String name() {
        return name;
    }

    /** The first team PE of the node of leader place {@code i} ({@code i} may be one past the last). */
    private int lo(int i) {
        return i < leaders.length ? leaders[i] : team.members.length;
    }

    /** Where in dest the blocks of leader place {@code i}'s node start ({@code i} one past the last: the size in all). */
    private long at(int i) {
        return block >= 0 ? lo(i) * block : nodeAt[i];
    }

    /** The first leader place of the run virtual rank {@code v} stands for (its extra's, when folded). */
    private int firstPlace(int v) {
        return v < rd.rem ? 2 * v : v + rd.rem;
    }

    /** One past the last leader place of the run of the 2^k virtual ranks from {@code g}. */
    private int endPlace(int g, int k) {
        return rd.pe(g + (1 << k) - 1) + 1;
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        if (!fixed && !node.leads()) {
            // Read by the leader once this PE has arrived, which beginning the epoch says already.
            team.words.publishScratchRelease(nbytes);
        }
        long e = team.beginEntered();
        if (!node.leads()) {
            node.arriveAndAwaitRelease(e);
            long all = fixed ? nbytes * team.members.length : team.words.scratchWordAcquire(node.leader);
            if (all > d.byteSize()) { // a collect's: the leaders, with the same size, throw too
                team.words.publishExitReleaseAndWake(e); // done with the leader's scratch word
                team.syncInternal(); // as every member does on this path
                kit.checkFits(d, all, routine, "dest");
            }
            MemorySegment.copy(team.mapped(node.leader), d.offset, st.self, d.offset, all);
            team.words.publishExitReleaseAndWake(e);
            team.receivedFromAll(e);
            return;
        }
        boolean extra = rd.extra(place);
        int v = extra ? -1 : rd.virtual(place);
        // Tell every partner this PE's dest (and landing area) is free, before anything else.
        if (extra || rd.survivor(place)) {
            entered.push(leaders[extra ? place + 1 : place - 1], e, 0, 0, 0, 0);
        }
        for (int k = 0; !extra && k < rd.rounds; k++) {
            entered.push(leaders[rd.partner(v, k)], e, k + 1, 0, 0, 0);
        }
        block = fixed ? nbytes : -1;
        if (!fixed) {
            gatherTotals(e, node.nodeBytes(e, nbytes), extra, v);
            team.words.publishScratchRelease(at(leaders.length));
            if (at(leaders.length) > d.byteSize()) {
                // The followers read the size, say they have and throw as this PE does, all before any
                // data moved; a sync first, so that no leader's next operation (a reduction pushing into
                // the landing areas) finds another still reading its node totals there.
                node.releaseAndAwaitCopies(e);
                team.syncInternal();
                kit.checkFits(d, at(leaders.length), routine, "dest");
            }
        }
        node.gather(e, d.offset + at(place), s.offset, nbytes, fixed);
        exchangeRuns(e, data, d.offset, false, extra, v);
        node.releaseAndAwaitCopies(e);
        team.receivedFromAll(e); // every leader entered e after its followers had
    }

    /**
     * A collect's first stage among the leaders: gathers every node's byte count ({@code mine}:
     * this PE's node's) into the landing area, a long per leader place, by the rounds the data
     * takes next ({@link #exchangeRuns}); then fills {@link #nodeAt}.
     */
    private void gatherTotals(long e, long mine, boolean extra, int v) {
        long land = team.words.landing();
        MemorySegment self = st.self;
        self.set(java.lang.foreign.ValueLayout.JAVA_LONG, land + 8L * place, mine);
        exchangeRuns(e, totals, land, true, extra, v);
        for (int i = 0; i < leaders.length; i++) {
            nodeAt[i + 1] = nodeAt[i] + self.get(java.lang.foreign.ValueLayout.JAVA_LONG, land + 8L * i);
        }
    }

    /**
     * The leaders' recursive doubling over runs of leader places, written once for both stages:
     * the fold's run in, the rounds, the whole back out to the extra. Leader place i's run starts
     * at heap offset {@code base + offset(i)} on every leader (a node total each, in the landing
     * area, for {@code totalsStage}; else its node's blocks in dest) and is put to the same place
     * at the partner, raising {@code words}' word of the round.
     */
    private void exchangeRuns(long e, RoundPushes words, long base, boolean totalsStage, boolean extra, int v) {
        if (extra) {
            int survivor = leaders[place + 1];
            awaitEntered(survivor, 0, e);
            long from = offset(place, totalsStage);
            words.push(survivor, e, 0, base + from, base + from, offset(place + 1, totalsStage) - from);
            words.await(e, 0, survivor); // all of it
            return;
        }
        if (rd.survivor(place)) {
            words.await(e, 0, leaders[place - 1]);
        }
        for (int k = 0; k < rd.rounds; k++) {
            int g = v >> k << k; // the virtual ranks whose runs this PE holds: [g, g + 2^k)
            long from = offset(firstPlace(g), totalsStage);
            int partner = leaders[rd.partner(v, k)];
            awaitEntered(partner, k + 1, e);
            words.push(partner, e, k + 1, base + from, base + from, offset(endPlace(g, k), totalsStage) - from);
            words.await(e, k + 1, partner);
        }
        if (rd.survivor(place)) {
            int x = leaders[place - 1];
            awaitEntered(x, 0, e);
            words.push(x, e, 0, base, base, offset(leaders.length, totalsStage));
        }
    }

    /** Where leader place {@code i}'s run starts: its node total's place, or its node's blocks' in dest ({@link #at}). */
    private long offset(int i, boolean totalsStage) {
        return totalsStage ? 8L * i : at(i);
    }

    /**
     * Waits until team PE {@code pe} has said, in entry word {@code w}, that it entered operation
     * {@code e}. Its word past e would mean it went through e without this PE's data: a mismatch.
     */
    private void awaitEntered(int pe, int w, long e) {
        // Nothing pushes into this PE's counter of e in this operation: a push there is a member in
        // another (a broadcast's root, which went on without waiting for anyone).
        long v = entered.reach(e, w, pe, true);
        if (v >>> SlotProtocol.IDENT_BITS != e || (int) (v & SlotProtocol.IDENT_MASK) != team.ident) {
            team.mismatch(pe, e, (int) (v & SlotProtocol.IDENT_MASK));
        }
    }
}
