/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-hierarchical}: an fcollect of a team across nodes with several members on some node,
 * each node's members consecutive in the team, through the node leaders. Each leader copies its
 * node's blocks (its followers' sources, read from their mapped heaps once they have arrived) into
 * its dest; the leaders then gather the rest by recursive doubling ({@link RecursiveDoubling}, with
 * the fold): in round k a leader puts the run of blocks it holds, which is consecutive since the
 * nodes are, straight into its partner's dest at their place, and gets the partner's; last, each
 * leader releases its node, whose followers copy the whole result from the leader's dest in
 * parallel and say so in their exit words, which the leader waits for before it returns (its dest
 * is the caller's again then). log2(nodes) network rounds, only leaders send.
 *
 * <p>A leader puts into a partner's dest only once the partner has said it entered the call (its
 * dest is then free): every leader tells all its partners at the start, a word per round
 * ({@link RoundPushes}), so those notices are not on the rounds' path. Each place of a leader's
 * dest is written once (by the leader or the one partner that brings that run), so the rounds
 * need no other order. One epoch, no push buffer: never a sync.
 */
final class HierarchicalFcollect extends CollKind implements CollectAlgorithm {
    /** Round words: the entry notices, then the data (two ranges of {@link #WORDS}). */
    static final int FIRST_WORD = 300;
    static final int WORDS = 20;

    private final NodeStage node;
    /** The node leaders (team PEs, ascending), this PE's place among them (negative: a follower). */
    private final int[] leaders;
    private final int place;
    private final RecursiveDoubling rd;
    /** Word 0: the fold; word k + 1: round k. */
    private final RoundPushes entered;
    private final RoundPushes data;

    HierarchicalFcollect(Collectives kit) {
        super(kit);
        this.node = new NodeStage(team);
        this.leaders = team.shape.leaders();
        this.place = java.util.Arrays.binarySearch(leaders, team.me);
        this.rd = RecursiveDoubling.within(leaders.length, WORDS);
        this.entered = new RoundPushes(team, FIRST_WORD, WORDS);
        this.data = new RoundPushes(team, FIRST_WORD + WORDS, WORDS);
    }

    /** Whether a team of this shape can take it: across nodes, several members on some node, each node's consecutive. */
    static boolean fits(NodeShape shape) {
        return !shape.allLocal() && shape.someNodeShared() && shape.nodesConsecutive();
    }

    @Override
    public String name() {
        return "push-hierarchical";
    }

    /** The first team PE of the node of leader place {@code i}. */
    private int lo(int i) {
        return leaders[i];
    }

    /** One past the last team PE of the node of leader place {@code i}. */
    private int hi(int i) {
        return i + 1 < leaders.length ? leaders[i + 1] : team.members.length;
    }

    /** The first leader place of the run virtual rank {@code v} stands for (its extra's, when folded). */
    private int firstPlace(int v) {
        return v < rd.rem ? 2 * v : v + rd.rem;
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        long e = team.beginEntered();
        long all = nbytes * team.members.length;
        if (!node.leads()) {
            node.arriveAndAwaitRelease(e);
            MemorySegment.copy(team.mapped(node.leader), d.offset, st.self, d.offset, all);
            team.words.publishExitReleaseAndWake(e);
            team.receivedFromAll(e);
            return;
        }
        boolean extra = rd.extra(place);
        int v = extra ? -1 : rd.virtual(place);
        // Tell every partner this PE's dest is free, before anything else.
        if (extra || rd.survivor(place)) {
            entered.push(leaders[extra ? place + 1 : place - 1], e, 0, 0, 0, 0);
        }
        for (int k = 0; !extra && k < rd.rounds; k++) {
            entered.push(leaders[rd.partner(v, k)], e, k + 1, 0, 0, 0);
        }
        node.gather(e, d.offset, s.offset, nbytes);
        if (extra) {
            int survivor = leaders[place + 1];
            awaitEntered(survivor, 0, e);
            putRun(survivor, e, 0, d.offset, lo(place) * nbytes, (hi(place) - lo(place)) * nbytes);
            data.await(e, 0, survivor); // the whole result
        } else {
            if (rd.survivor(place)) {
                data.await(e, 0, leaders[place - 1]);
            }
            for (int k = 0; k < rd.rounds; k++) {
                int g = v >> k << k; // the virtual ranks whose blocks this PE holds: [g, g + 2^k)
                long from = lo(firstPlace(g)) * nbytes;
                long to = hi(rd.pe(g + (1 << k) - 1)) * nbytes;
                int partner = leaders[rd.partner(v, k)];
                awaitEntered(partner, k + 1, e);
                putRun(partner, e, k + 1, d.offset, from, to - from);
                data.await(e, k + 1, partner);
            }
            if (rd.survivor(place)) {
                int x = leaders[place - 1];
                awaitEntered(x, 0, e);
                putRun(x, e, 0, d.offset, 0, all);
            }
        }
        node.releaseAndAwaitCopies(e);
        team.receivedFromAll(e); // every leader entered e after its followers had
    }

    /** Puts the {@code n} bytes at {@code at} of this PE's dest into team PE {@code pe}'s dest there, raising data word {@code w}. */
    private void putRun(int pe, long e, int w, long dest, long at, long n) {
        data.push(pe, e, w, dest + at, dest + at, n);
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
