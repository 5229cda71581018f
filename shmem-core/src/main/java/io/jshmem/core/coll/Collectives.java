/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The collectives of one team, written once on top of team synchronization and reads of the
 * members' symmetric memory (direct on this node, through the transport elsewhere).
 *
 * <p><b>Push</b> (every member on this node, data that fits a {@link TeamSlots#BUF_BYTES} buffer):
 * one one-way step, no barrier. At epoch e each contributing member copies its input into its own
 * push buffer of epoch e ({@link TeamSlots#PUSH_BUFFERS}, in turn) and publishes e in its arrival
 * word; each member waits only for the arrival words of the members it needs (the root, for a
 * broadcast) and copies or reduces straight from their buffers into its {@code dest}. A broadcast
 * root returns as soon as its data is in its buffer (and a barrier right before a broadcast lets
 * the root leave first: {@link SlotProtocol#begin(int, long, int)}). Before writing its buffer a member waits until
 * every member has arrived at e-1, which means it has finished reading any earlier buffer. So
 * back-to-back collectives need no barrier, {@code dest} is only ever written by its own PE, and
 * {@code source} may be reused on return.
 *
 * <p><b>Pushed into dest</b> (members not all on this node, data above the push buffers): a
 * receiver's {@code dest} is free once it has entered the call, so it says so (to its parent for a
 * broadcast, to every member for fcollect and alltoall) and the senders put the data straight
 * there, counted; a reduction pushes slices into the members' landing areas and the reduced
 * slices into every dest ({@link PushedScatterReduce}). No sync, and no read that waits for a peer to
 * serve it: over a network a get completes only when its target progresses, and waiting targets
 * give up the core. A large alltoall on one node whose PEs share cores (contiguous blocks) is
 * pushed into dest too, each block as soon as its receiver has arrived, in whatever order they
 * arrive ({@link AsArrivedIntoDestAlltoall}; writing them only after a sync that all had entered was
 * measured slower than pulling, 1.1-1.2x).
 *
 * <p><b>Bruck, pairwise, ring</b> (alltoall and fcollect across nodes from 8 members on): small
 * blocks (fcollect: above the push buffers) go Bruck's way in ceil(log2 N) rounds of a push per
 * 8 KiB each through the push buffers
 * ({@link BruckAlltoall}, {@link BruckFcollect}); large alltoall blocks are pushed into dest in
 * pairs, round by round ({@link PairwiseAlltoall}), and large fcollects round a ring ({@link RingFcollect}).
 *
 * <p><b>Pull</b> (otherwise): after a sync that makes the inputs ready, each member reads what
 * it needs from the others' symmetric source arrays, then a final sync guarantees nobody still
 * reads before anyone reuses its arrays. Rounds are O(log N) (two or three dissemination syncs);
 * data moves once, in parallel, with no copy through an intermediate buffer on this node.
 * Large reductions are split so that each member reduces one slice and the others fetch it
 * (reduce-scatter then allgather), so the work and traffic per PE do not grow with N.
 *
 * <p><b>Large reductions, one node</b> (every member on this node, more than 2, not {@code pull}): the
 * reduce-scatter's slices go straight into every member's {@code dest} (written only after all
 * have entered the call), so the sync after that both delivers the slices and ends the reading of
 * the sources: two syncs instead of three.
 *
 * <p>Each call records the algorithm it took in {@link #algorithm()} (its class's constant name), which the
 * JFR {@code jshmem.Collective} event reports: {@code push}, {@code in-place},
 * {@code push-tree}/{@code push-flat} and {@code push-into-dest-tree}/{@code push-into-dest-flat}
 * (broadcasts across nodes, by tree), {@code push-pipelined} (large broadcasts across nodes down the
 * node tree), {@code push-exchange}, {@code push-exchange-run},
 * {@code push-gather-at-0}, {@code push-recursive-doubling}, {@code push-rabenseifner},
 * {@code push-into-dest}, {@code push-reduce-scatter-allgather},
 * {@code push-bruck}, {@code push-pairwise}, {@code push-ring},
 * {@code push-to-successors}, {@code pull}, {@code pull-as-arrived}, {@code pull-whole},
 * {@code pull-reduce-scatter-into-dest}, {@code pull-reduce-scatter-allgather}.
 */
public final class Collectives {
    /**
     * Broadcasts across nodes to teams larger than this go down a binomial tree (log2 N steps, at
     * most log2 N sends per PE); smaller ones are sent by the root to every member, which is one
     * step whose sends are all in flight at once ({@link Selector#BROADCAST_TREE}).
     */
    public static final int TREE_BROADCAST_ABOVE = 8;
    /**
     * Reductions between two members across nodes of up to this many push buffers (64 KiB) are an
     * exchange of the whole inputs ({@link ExchangeRunReduce}); at most half the buffers, so that
     * the run can be reused without a sync in a loop of them.
     */
    static final int EXCHANGE_BUFFERS = TeamSlots.PUSH_BUFFERS / 2;
    public static final long EXCHANGE_BYTES = EXCHANGE_BUFFERS * (long) TeamSlots.BUF_BYTES;
    /** The routines' names for messages ("sum_reduce"), by {@link ReduceOp#ordinal()}: built once, not per call. */
    public static final String[] REDUCE_ROUTINES = java.util.Arrays.stream(ReduceOp.values())
            .map(op -> op.name().toLowerCase(java.util.Locale.ROOT) + "_reduce").toArray(String[]::new);
    /** Pull reductions fetch this many members' inputs at once (staging memory: that many inputs). */
    private static final int FETCH_BATCH = 8;
    /** A page of zeros, read-only: the source of {@link #zero}. */
    private static final MemorySegment ZEROS = Arena.global().allocate(4096).asReadOnly();

    final SlotProtocol team;
    final PeState st;
    /** Whether small collectives push through the team's buffers (all members on this node). */
    final boolean push;
    /** Whether small collectives push into the members' buffers (members not all on this node). */
    final boolean pushAcross;
    /**
     * Whether larger ones push straight into the members' dest once told they entered (members
     * not all on this node, and no more of them than a slot has entry words).
     */
    final boolean pushIntoDest;
    /**
     * The tree of a broadcast across nodes within the push buffers, over ranks relative to the root:
     * binomial when {@code tree}, or in {@code auto} above {@link #TREE_BROADCAST_ABOVE} members;
     * else flat (from the root to every member).
     */
    private final KnomialTree broadcastTree;
    /**
     * The algorithm the last collective of this PE took (a constant, nothing allocated): the JFR
     * {@code jshmem.Collective} event's {@code algorithm} field.
     */
    String algorithm = "none";
    /** Whether a {@link #fetch} went through the transport since the last {@link #fetched}. */
    private boolean fetching;
    private MemorySegment acc = MemorySegment.NULL;
    private MemorySegment staging = MemorySegment.NULL;
    private final Broadcasts broadcasts;
    private final Collects collects;
    private final AllToAlls allToAlls;
    private final ReduceScans reduceScans;

    public Collectives(SlotProtocol team) {
        this.team = team;
        this.st = team.st;
        String setting = Selector.label(st.config.collAlgorithm());
        Selector.Family family = Selector.pick(Selector.COLL, setting, team.shape);
        this.push = family == Selector.Family.PUSH_ON_NODE;
        this.pushAcross = family == Selector.Family.PUSH_ACROSS || family == Selector.Family.PUSH_ACROSS_BUFFERS_ONLY;
        this.pushIntoDest = family == Selector.Family.PUSH_ACROSS;
        int n = team.members.length;
        boolean treeBroadcast = Selector.pick(Selector.BROADCAST_TREE, setting, team.shape).equals("tree");
        this.broadcastTree = treeBroadcast ? KnomialTree.binomial(n) : KnomialTree.flat(n);
        this.broadcasts = new Broadcasts(this, setting, treeBroadcast, family);
        this.collects = new Collects(this, family);
        // keepsGrouping builds O(N) small lists: only for the teams whose rows ask it (nodes shared).
        boolean nodesShared = !team.shape.allLocal() && team.shape.someNodeShared();
        Selector.Traits traits = new Selector.Traits(family, st.coreShared, team.linearSync(), nodesShared,
                team.shape.nodesConsecutive(), nodesShared && HierarchicalReduce.keepsGrouping(team.shape),
                HierarchicalAlltoall.fits(team.shape));
        this.allToAlls = new AllToAlls(this, traits);
        this.reduceScans = new ReduceScans(this, traits);
    }

    // ---------------------------------------------------------------- the routines, by kind

    public void broadcast(SymArray<?> dest, SymArray<?> source, long count, int root, boolean bytes) {
        broadcasts.broadcast(dest, source, count, root, bytes);
    }

    public void collect(SymArray<?> dest, SymArray<?> source, long count, boolean bytes, boolean fixed) {
        collects.collect(dest, source, count, bytes, fixed);
    }

    public void alltoall(SymArray<?> dest, SymArray<?> source, long dst, long sst, long count, boolean bytes) {
        allToAlls.alltoall(dest, source, dst, sst, count, bytes);
    }

    public void reduce(ReduceOp op, SymArray<?> dest, SymArray<?> source, long count) {
        reduceScans.reduce(op, dest, source, count);
    }

    /** {@link ReduceScans#complexReduce}. */
    public void complexReduce(ReduceOp op, SymArray<?> dest, SymArray<?> source, long count) {
        reduceScans.complexReduce(op, dest, source, count);
    }

    /** {@link ReduceScans#reduceScalar}: one value, through the team's scalar words. */
    public long reduceScalar(ReduceOp op, SymType.Kind kind, String label, int shift, long bits) {
        return reduceScans.reduceScalar(op, kind, label, shift, bits);
    }

    public void scan(SymArray<?> dest, SymArray<?> source, long count, boolean inclusive) {
        reduceScans.scan(dest, source, count, inclusive);
    }

    /** The algorithm the last collective of this PE took, for the JFR event: the {@code name()} of its class. */
    public String algorithm() {
        return algorithm;
    }

    // ---------------------------------------------------------------- steps shared by the kinds

    /**
     * The heap of team PE {@code pe} mapped on this node, as {@link Comm#direct} has it (the paths
     * that call this run only when every member is on this node): for the reductions that combine
     * straight from a member's push buffer and the slices stored straight into its dest.
     */
    MemorySegment mapped(int pe) {
        return st.comm.direct(team.members[pe]);
    }

    /** Whether the first {@code nbytes} of {@code d} and {@code s} (in this PE's heap) share a byte. */
    static boolean overlap(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes) {
        return d.offset < s.offset + nbytes && s.offset < d.offset + nbytes;
    }

    /**
     * The start of a large push collective in which every member sends to every other, members
     * not all on this node: tells every member that this PE has entered the call (so its dest is
     * free) and waits until all have; returns the epoch whose counters count the data.
     */
    long allEntered() {
        int n = team.members.length;
        long e = team.beginEntered();
        for (int k = 1; k < n; k++) {
            team.tellEntered((team.me + k) % n, e);
        }
        for (int k = 1; k < n; k++) {
            team.awaitEntered((team.me + n - k) % n, e); // the order in which they are likely to arrive
        }
        return e;
    }

    /**
     * Every member's {@code nbytes} at heap offset {@code from} into team PE 0's push buffer of
     * epoch {@code e}, in team order; returns that buffer (complete at PE 0 only).
     */
    long gatherAt0(long e, long from, long nbytes) {
        long buf = team.buffer(e);
        if (team.me != 0) {
            team.pushTo(0, e, team.me * nbytes, from, nbytes);
        } else {
            MemorySegment.copy(st.self, from, st.self, buf, nbytes);
            team.awaitPushes(e, team.members.length - 1, 1, team.members.length);
        }
        return buf;
    }

    /**
     * Pushes {@code nbytes} at heap offset {@code from} of team PE {@code root} down to every member
     * at epoch {@code e} (members not all on this node, data within the push buffers): from the
     * root to each member, or down a binomial tree over ranks relative to the root, as
     * {@link #broadcastTree} says (children in {@link KnomialTree#child}'s order). With
     * {@code tell}, each member first tells its sender that it has entered, and a sender waits for
     * that before pushing. Returns where this PE has the data: {@code from} at the root, its push
     * buffer elsewhere.
     */
    long pushDown(long e, int root, long from, long nbytes, boolean tell) {
        int n = team.members.length;
        int rel = (team.me - root + n) % n;
        if (rel != 0) {
            int parent = (broadcastTree.parent(rel) + root) % n;
            if (tell) {
                team.tellEntered(parent, e);
            }
            team.awaitPushes(e, 1, parent, parent + 1);
            from = team.buffer(e);
        }
        for (int k = 0, c; (c = broadcastTree.child(rel, k)) >= 0; k++) {
            int child = (c + root) % n;
            if (tell) {
                team.awaitEntered(child, e);
            }
            team.pushTo(child, e, 0, from, nbytes);
        }
        return from;
    }

    // ---------------------------------------------------------------- collect, fcollect

    /**
     * Starts a push collective in which every member contributes: copies {@code nbytes} at heap
     * offset {@code from} into this PE's push buffer (after an 8-byte count when {@code counted})
     * and publishes the epoch, which it returns.
     */
    long produce(long from, long nbytes, boolean counted) {
        return produce(from, nbytes, nbytes, counted);
    }

    /** Like {@link #produce(long, long, boolean)}, with a count ({@code announced}) other than the bytes copied. */
    long produce(long from, long nbytes, long announced, boolean counted) {
        long e = team.nextEpoch();
        long buf = team.buffer(e);
        team.awaitBufferFree(e);
        if (counted) {
            Comm.LONG.set(st.self, buf, announced);
            buf += 8;
        }
        MemorySegment.copy(st.self, from, st.self, buf, nbytes);
        team.arrive(e);
        return e;
    }

    // ---------------------------------------------------------------- reductions and scans

    /**
     * acc[0..count) = OP over all members of source[from..from+count), combined in team order.
     * Off-node members' inputs are fetched {@link #FETCH_BATCH} at a time, all in flight at once.
     */
    void reduceInto(ReduceOp op, Reductions.Elem elem, MemorySegment a, long from, long accOff, long count, int shift, int n) {
        long bytes = count << shift;
        for (int lo = 0; lo < n; lo += FETCH_BATCH) {
            int hi = Math.min(n, lo + FETCH_BATCH);
            MemorySegment tmp = team.allLocal ? null : staging(bytes * (hi - lo)); // only for off-node members
            for (int i = lo; i < hi; i++) {
                if (st.comm.direct(team.members[i]) == null) {
                    fetch(team.members[i], from, tmp, (i - lo) * bytes, bytes);
                }
            }
            fetched();
            for (int i = lo; i < hi; i++) {
                MemorySegment peer = st.comm.direct(team.members[i]);
                MemorySegment src = peer != null ? peer : tmp;
                long off = peer != null ? from : (i - lo) * bytes;
                if (i == 0) {
                    MemorySegment.copy(src, off, a, accOff, bytes);
                } else {
                    Reductions.combine(op, elem, a, accOff, src, off, count);
                }
            }
        }
    }

    // ---------------------------------------------------------------- helpers

    /**
     * All-to-all through the push buffers, members not all on this node ({@link #exchange} into
     * the push buffer of a new epoch); returns this PE's buffer, which then holds every member's
     * block in team order.
     */
    long exchangeAcross(long from, long nbytes, long blockStride) {
        long e = team.beginPush();
        long buf = team.buffer(e);
        exchange(e, buf, from, nbytes, blockStride);
        return buf;
    }

    /**
     * All-to-all at epoch {@code e}, members not all on this node: member i gets this PE's
     * {@code nbytes} at heap offset {@code from + i * blockStride} at {@code into + me * nbytes}
     * of its heap (its push buffer of e, or its dest once it has entered; with a stride of 0 the
     * same block for all: an allgather). Returns when this PE has every member's block.
     */
    void exchange(long e, long into, long from, long nbytes, long blockStride) {
        int n = team.members.length;
        int me = team.me;
        for (int k = 1; k < n; k++) {
            int i = (me + k) % n; // staggered, so that members do not all send to PE 0 first
            team.pushInto(i, e, into + me * nbytes, from + i * blockStride, nbytes);
        }
        MemorySegment.copy(st.self, from + me * blockStride, st.self, into + me * nbytes, nbytes);
        team.awaitPushes(e, n - 1, 0, n);
        team.receivedFromAll(e);
    }

    /**
     * Starts copying {@code n} bytes at heap offset {@code from} of a world PE into {@code dst}:
     * at once on this node, through the transport's non-blocking get elsewhere, complete after
     * {@link #fetched}. Pull collectives fetch from every member this way, so that the round trips
     * to off-node members overlap instead of following one another.
     */
    void fetch(int worldPe, long from, MemorySegment dst, long dstOff, long n) {
        if (n == 0) {
            return;
        }
        if (st.comm.direct(worldPe) == null) {
            fetching = true;
        }
        st.comm.get(worldPe, from, dst, dstOff, n, true);
    }

    /** Completes the {@link #fetch}es started since the last call. */
    void fetched() {
        if (fetching) {
            fetching = false;
            st.comm.quiet();
        }
    }

    /** Copies {@code n} bytes at heap offset {@code from} of a world PE into {@code dst}. */
    void copyFrom(int worldPe, long from, MemorySegment dst, long dstOff, long n) {
        if (n == 0) {
            return;
        }
        st.comm.get(worldPe, from, dst, dstOff, n, false);
    }

    long bytes(SymArrayImpl<?> d, SymArrayImpl<?> s, long count, boolean bytes, String routine) {
        if (count < 0) {
            throw st.error(routine + ": negative count " + count);
        }
        if (!bytes && d.type != s.type) {
            throw st.error(routine + ": dest holds " + d.type.name() + " but source holds " + s.type.name());
        }
        if (!bytes && count > Long.MAX_VALUE >> d.shift) {
            // Else the byte count wraps around and passes checkFits; thrown before the collective begins.
            throw st.error(routine + ": " + count + " " + d.type.name() + " elements are more bytes than a long holds");
        }
        return bytes ? count : count << d.shift;
    }

    /** {@code what} ("dest", "source") of {@code routine}: named apart, so that the message is built only when thrown. */
    void checkFits(SymArrayImpl<?> a, long nbytes, String routine, String what) {
        if (nbytes < 0 || nbytes > a.byteSize()) {
            throw st.error(routine + " " + what + " needs " + nbytes + " bytes but " + a + " has " + a.byteSize());
        }
    }

    /** Zeroes {@code n} bytes of {@code seg} from {@code off}: copies of {@link #ZEROS}, no slice object. */
    static void zero(MemorySegment seg, long off, long n) {
        for (long done = 0; done < n; done += ZEROS.byteSize()) {
            MemorySegment.copy(ZEROS, 0, seg, off + done, Math.min(ZEROS.byteSize(), n - done));
        }
    }

    MemorySegment accumulator(long bytes) {
        if (acc.byteSize() < bytes) {
            acc = Arena.ofAuto().allocate(Math.max(bytes, 4096), 64);
        }
        return acc;
    }

    MemorySegment staging(long bytes) {
        if (staging.byteSize() < bytes) {
            staging = Arena.ofAuto().allocate(Math.max(bytes, 4096), 64);
        }
        return staging;
    }
}
