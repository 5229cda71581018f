/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.SymArray;
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
 * slices into every dest ({@link #reducePushed}). No sync, and no read that waits for a peer to
 * serve it: over a network a get completes only when its target progresses, and waiting targets
 * give up the core. A large alltoall on one node whose PEs share cores (contiguous blocks) is
 * pushed into dest too, each block as soon as its receiver has arrived, in whatever order they
 * arrive ({@link #pushAlltoallIntoDest}; writing them only after a sync that all had entered was
 * measured slower than pulling, 1.1-1.2x).
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
 * <p>Each call records the branch it took in {@link #algorithm()} (a string constant), which the
 * JFR {@code jshmem.Collective} event reports: {@code push}, {@code in-place},
 * {@code push-tree}/{@code push-flat} and {@code push-into-dest-tree}/{@code push-into-dest-flat}
 * (broadcasts across nodes, by tree), {@code push-exchange}, {@code push-exchange-run},
 * {@code push-gather-at-0}, {@code push-into-dest}, {@code push-reduce-scatter-allgather},
 * {@code push-to-successors}, {@code pull}, {@code pull-as-arrived}, {@code pull-whole},
 * {@code pull-reduce-scatter-into-dest}, {@code pull-reduce-scatter-allgather}.
 */
public final class Collectives {
    /** Reductions up to this many bytes are done whole by every member (one sync fewer). */
    private static final long SMALL_REDUCE_BYTES = 2048;
    /**
     * Broadcasts across nodes to teams larger than this go down a binomial tree (log2 N steps, at
     * most log2 N sends per PE); smaller ones are sent by the root to every member, which is one
     * step whose sends are all in flight at once.
     */
    public static final int TREE_BROADCAST_ABOVE = 8;
    /**
     * Reductions between two members across nodes of up to this many push buffers (64 KiB) are an
     * exchange of the whole inputs ({@link #reduceExchanged}); at most half the buffers, so that
     * the run can be reused without a sync in a loop of them.
     */
    private static final int EXCHANGE_BUFFERS = TeamSlots.PUSH_BUFFERS / 2;
    public static final long EXCHANGE_BYTES = EXCHANGE_BUFFERS * (long) TeamSlots.BUF_BYTES;
    /** The routines' names for messages ("sum_reduce"), by {@link ReduceOp#ordinal()}: built once, not per call. */
    public static final String[] REDUCE_ROUTINES = java.util.Arrays.stream(ReduceOp.values())
            .map(op -> op.name().toLowerCase(java.util.Locale.ROOT) + "_reduce").toArray(String[]::new);
    /** A page of zeros, read-only: the source of {@link #zero}. */
    private static final MemorySegment ZEROS = Arena.global().allocate(4096).asReadOnly();
    /** Pull reductions fetch this many members' inputs at once (staging memory: that many inputs). */
    private static final int FETCH_BATCH = 8;

    private final SlotProtocol team;
    private final PeState st;
    /** Whether small collectives push through the team's buffers (all members on this node). */
    private final boolean push;
    /** Whether small collectives push into the members' buffers (members not all on this node). */
    private final boolean pushAcross;
    /**
     * Whether larger ones push straight into the members' dest once told they entered (members
     * not all on this node, and no more of them than a slot has entry words).
     */
    private final boolean pushIntoDest;
    /**
     * The tree of a broadcast across nodes within the push buffers, over ranks relative to the root:
     * binomial when {@code tree}, or in {@code auto} above {@link #TREE_BROADCAST_ABOVE} members;
     * else flat (from the root to every member).
     */
    private final KnomialTree broadcastTree;
    /**
     * The same for broadcasts above the push buffers: binomial from 3 PEs on in {@code auto}
     * (the root then sends fewer copies, and the others forward in parallel; 4 PEs over UCX/TCP on
     * 2 cores, 64 KiB: a median of 190-200 us against 228-250 from the root to everyone).
     */
    private final KnomialTree largeBroadcastTree;
    /** The names of the two broadcasts across nodes, by their trees, for {@link #algorithm}. */
    private final String broadcastName;
    private final String largeBroadcastName;
    /**
     * The algorithm the last collective of this PE took (a constant, nothing allocated): the JFR
     * {@code jshmem.Collective} event's {@code algorithm} field.
     */
    private String algorithm = "none";
    /**
     * Per root: the last operation at which every sender of a small broadcast from that root
     * learned that its receivers had entered it (so had finished everything before); the same on
     * every member. Null until needed.
     */
    private long[] entryKnown;
    /** Whether a {@link #fetch} went through the transport since the last {@link #fetched}. */
    private boolean fetching;
    private MemorySegment acc = MemorySegment.NULL;
    private MemorySegment staging = MemorySegment.NULL;
    /** Every member's byte count in a pulled collect, reused by each call. */
    private final long[] memberSizes;
    /** Per member, the epoch of the last push alltoall in which this PE sent it its block. */
    private final long[] sentAt;

    public Collectives(SlotProtocol team) {
        this.team = team;
        this.st = team.st;
        this.memberSizes = new long[team.members.length];
        this.sentAt = new long[team.members.length];
        String setting = Selector.label(st.config.collAlgorithm());
        Selector.Family family = Selector.pick(Selector.COLL, setting, team.shape);
        this.push = family == Selector.Family.PUSH_ON_NODE;
        this.pushAcross = family == Selector.Family.PUSH_ACROSS || family == Selector.Family.PUSH_ACROSS_BUFFERS_ONLY;
        this.pushIntoDest = family == Selector.Family.PUSH_ACROSS;
        int n = team.members.length;
        boolean treeBroadcast = Selector.pick(Selector.BROADCAST_TREE, setting, team.shape).equals("tree");
        boolean treeLargeBroadcast = Selector.pick(Selector.LARGE_BROADCAST_TREE, setting, team.shape).equals("tree");
        this.broadcastTree = treeBroadcast ? KnomialTree.binomial(n) : KnomialTree.flat(n);
        this.largeBroadcastTree = treeLargeBroadcast ? KnomialTree.binomial(n) : KnomialTree.flat(n);
        this.broadcastName = treeBroadcast ? "push-tree" : "push-flat";
        this.largeBroadcastName = treeLargeBroadcast ? "push-into-dest-tree" : "push-into-dest-flat";
    }

    /** The algorithm the last collective of this PE took, for the JFR event: one of the names assigned in this class. */
    public String algorithm() {
        return algorithm;
    }

    // ---------------------------------------------------------------- broadcast

    public void broadcast(SymArray<?> dest, SymArray<?> source, long count, int root, boolean bytes) {
        team.checkLive();
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = bytes(d, s, count, bytes, "broadcast");
        checkFits(d, nbytes, "broadcast", "dest");
        checkFits(s, nbytes, "broadcast", "source");
        int rootWorld = team.world(root);
        team.checkSameArgs("broadcast", "bytes", nbytes, "root", root);
        team.begin(SlotProtocol.OP_BROADCAST, nbytes * 131 + root, root, nbytes, root, 0, null);
        if (push && nbytes <= TeamSlots.BUF_BYTES) {
            algorithm = "push";
            long e = team.nextEpoch();
            long buf = team.buffer(e);
            if (team.me == root) {
                team.awaitBufferFree(e);
                MemorySegment.copy(st.self, s.offset, st.self, buf, nbytes);
                team.arrive(e);
                MemorySegment.copy(st.self, buf, st.self, d.offset, nbytes);
            } else {
                team.awaitArrival(root, e);
                st.comm.get(team.members[root], buf, st.self, d.offset, nbytes, false);
                team.arrive(e);
            }
            return;
        }
        if (push) { // larger than the buffers, members all on this node
            algorithm = "in-place";
            broadcastInPlace(d, s, nbytes, root);
            return;
        }
        if (pushIntoDest && nbytes > TeamSlots.BUF_BYTES) {
            algorithm = largeBroadcastName;
            broadcastPushed(d, s, nbytes, root);
            return;
        }
        if (pushAcross && nbytes <= TeamSlots.BUF_BYTES) {
            algorithm = broadcastName;
            long e;
            boolean tell = false;
            if (!pushIntoDest) {
                e = team.beginPush();
            } else {
                // Instead of a sync when the buffers may still be in use (every few calls), each
                // member tells its sender that it has entered: only senders need to know. Every
                // member decides alike, from what all know of the earlier calls.
                e = team.beginEntered();
                if (entryKnown == null) {
                    entryKnown = new long[team.members.length];
                }
                tell = !team.pushBuffersFree(e) && entryKnown[root] < e - (TeamSlots.PUSH_BUFFERS - 1);
                if (tell) {
                    entryKnown[root] = e;
                }
            }
            long from = pushDown(e, root, s.offset, nbytes, tell);
            MemorySegment.copy(st.self, from, st.self, d.offset, nbytes);
            return;
        }
        algorithm = "pull";
        team.syncInternal();
        copyFrom(rootWorld, s.offset, st.self, d.offset, nbytes);
        team.syncInternal();
    }

    /**
     * The heap of team PE {@code pe} mapped on this node, as {@link Comm#direct} has it (the paths
     * that call this run only when every member is on this node): for the reductions that combine
     * straight from a member's push buffer and the slices stored straight into its dest.
     */
    private MemorySegment mapped(int pe) {
        return st.comm.direct(team.members[pe]);
    }

    /** Whether the first {@code nbytes} of {@code d} and {@code s} (in this PE's heap) share a byte. */
    private static boolean overlap(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes) {
        return d.offset < s.offset + nbytes && s.offset < d.offset + nbytes;
    }

    /**
     * A broadcast too large for the push buffers, members all on this node: each member copies the
     * root's source in place once the root has arrived, then arrives; the root returns (its source
     * may change after that) once every member has. One hop each way, where a sync before and after
     * the copy took four (4 PEs on 2 cores, 64 KiB: median 23.6 us against OSHMEM's 9.6).
     */
    private void broadcastInPlace(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
        long e = team.nextEpoch();
        if (team.me != root) {
            team.awaitArrival(root, e);
            st.comm.get(team.members[root], s.offset, st.self, d.offset, nbytes, false);
            team.arrive(e);
            return;
        }
        team.arrive(e);
        // The root's own copy: at once, unless dest overlaps the source the others are reading.
        boolean overlap = d.offset != s.offset && overlap(d, s, nbytes);
        if (!overlap) {
            MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        }
        team.awaitAll(e);
        if (overlap) {
            MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        }
    }

    /**
     * A broadcast too large for the push buffers, members not all on this node: each member tells
     * its parent (the root, or its parent in the binomial tree) that it has entered the call, so
     * its dest is free; a sender that has the data pushes it straight into each child's dest as
     * soon as that child has entered. Two one-way hops, no sync, nothing waits for a peer to serve
     * a read. (Pulling, where each member got the data from its parent after a notice and told it
     * when done, had four, and the gets waited for parents yielding the core: 4-PE broadcasts of
     * 64 KiB over UCX/TCP on 2 cores were 4x OSHMEM's time.)
     */
    private void broadcastPushed(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root) {
        long e = team.beginEntered();
        int n = team.members.length;
        int rel = (team.me - root + n) % n;
        if (rel != 0) {
            team.tellEntered((largeBroadcastTree.parent(rel) + root) % n, e);
            team.awaitPushes(e, 1, 0, n);
        }
        long from = rel == 0 ? s.offset : d.offset;
        for (int k = 0, c; (c = largeBroadcastTree.child(rel, k)) >= 0; k++) {
            int child = (c + root) % n;
            team.awaitEntered(child, e);
            team.pushInto(child, e, d.offset, from, nbytes);
        }
        if (rel == 0) {
            MemorySegment.copy(st.self, s.offset, st.self, d.offset, nbytes);
        }
    }

    /**
     * The start of a large push collective in which every member sends to every other, members
     * not all on this node: tells every member that this PE has entered the call (so its dest is
     * free) and waits until all have; returns the epoch whose counters count the data.
     */
    private long allEntered() {
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
    private long gatherAt0(long e, long from, long nbytes) {
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
    private long pushDown(long e, int root, long from, long nbytes, boolean tell) {
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

    public void collect(SymArray<?> dest, SymArray<?> source, long count, boolean bytes, boolean fixed) {
        team.checkLive();
        String routine = fixed ? "fcollect" : "collect";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = bytes(d, s, count, bytes, routine);
        checkFits(s, nbytes, routine, "source");
        int n = team.members.length;
        long[] sizes;
        algorithm = "pull";
        team.begin(fixed ? SlotProtocol.OP_FCOLLECT : SlotProtocol.OP_COLLECT, fixed ? nbytes : 0, -1, nbytes, 0, 0, null);
        if (push && fixed && nbytes + 8 <= TeamSlots.BUF_BYTES) {
            algorithm = "push";
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            checkFits(d, nbytes * n, routine, "dest");
            pushCollect(d, s, nbytes, true, routine);
            return;
        }
        if (pushAcross && fixed && nbytes * n <= TeamSlots.BUF_BYTES) {
            algorithm = n == 2 ? "push-exchange" : "push-gather-at-0";
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            checkFits(d, nbytes * n, routine, "dest");
            if (n == 2) {
                MemorySegment.copy(st.self, exchangeAcross(s.offset, nbytes, 0), st.self, d.offset, nbytes * n);
                return;
            }
            // Gathered at team PE 0 and pushed back down, as small reductions are.
            long e = team.beginPush();
            long from = pushDown(e, 0, gatherAt0(e, s.offset, nbytes), nbytes * n, false);
            MemorySegment.copy(st.self, from, st.self, d.offset, nbytes * n);
            team.receivedFromAll(e); // the data left PE 0 after every member had entered this call
            return;
        }
        if (pushIntoDest && fixed) {
            algorithm = "push-into-dest";
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            checkFits(d, nbytes * n, routine, "dest");
            exchange(allEntered(), d.offset, s.offset, nbytes, 0);
            return;
        }
        if (push && !fixed) {
            algorithm = "push";
            // Sizes differ by PE, so whether the data fits the buffers is decided once all sizes are known.
            if (pushCollect(d, s, nbytes, false, routine)) {
                return;
            }
            team.syncInternal();
            long at = 0;
            algorithm = "pull";
            for (int i = 0; i < n; i++) {
                long size = st.comm.getValue(team.members[i], team.buffer(team.epoch() - 1), 8);
                fetch(team.members[i], s.offset, st.self, d.offset + at, size);
                at += size;
            }
            fetched();
            team.syncInternal();
            return;
        }
        if (fixed) {
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            checkFits(d, nbytes * n, routine, "dest");
            team.syncInternal();
            sizes = null;
        } else {
            sizes = team.exchange(nbytes, memberSizes);
            long total = 0;
            for (long z : sizes) {
                total += z;
            }
            checkFits(d, total, routine, "dest");
            team.syncInternal();
        }
        long at = 0;
        for (int i = 0; i < n; i++) {
            long size = fixed ? nbytes : sizes[i];
            fetch(team.members[i], s.offset, st.self, d.offset + at, size);
            at += size;
        }
        fetched();
        team.syncInternal();
    }

    /**
     * (f)collect through the push buffers: each buffer holds [byte count][data], the data only when
     * it fits. Returns false, having moved nothing, when some member's data did not fit (collect
     * only; every member sees the same counts, so all return false together).
     */
    private boolean pushCollect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        int n = team.members.length;
        long limit = TeamSlots.BUF_BYTES - 8;
        long e = produce(s.offset, nbytes <= limit ? nbytes : 0, nbytes, true);
        long buf = team.buffer(e);
        if (!fixed) {
            long total = 0;
            boolean fits = true;
            for (int i = 0; i < n; i++) {
                team.awaitArrival(i, e);
                long size = st.comm.getValue(team.members[i], buf, 8);
                total += size;
                fits &= size <= limit;
            }
            if (total > d.byteSize()) {
                throw st.error(routine + " dest needs " + total + " bytes but " + d + " has " + d.byteSize());
            }
            if (!fits) {
                return false;
            }
        }
        long at = d.offset;
        for (int i = 0; i < n; i++) {
            team.awaitArrival(i, e);
            int pe = team.members[i];
            long size = fixed ? nbytes : st.comm.getValue(pe, buf, 8);
            st.comm.get(pe, buf + 8, st.self, at, size, false);
            at += size;
        }
        return true;
    }

    /**
     * Starts a push collective in which every member contributes: copies {@code nbytes} at heap
     * offset {@code from} into this PE's push buffer (after an 8-byte count when {@code counted})
     * and publishes the epoch, which it returns.
     */
    private long produce(long from, long nbytes, boolean counted) {
        return produce(from, nbytes, nbytes, counted);
    }

    /** Like {@link #produce(long, long, boolean)}, with a count ({@code announced}) other than the bytes copied. */
    private long produce(long from, long nbytes, long announced, boolean counted) {
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

    // ---------------------------------------------------------------- alltoall(s)

    public void alltoall(SymArray<?> dest, SymArray<?> source, long dst, long sst, long count, boolean bytes) {
        team.checkLive();
        String routine = dst == 1 && sst == 1 ? "alltoall" : "alltoalls";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long unit = bytes ? 1 : 1L << d.shift;
        long nbytes = bytes(d, s, count, bytes, routine);
        if (dst < 1 || sst < 1) {
            throw st.error(routine + ": strides must be at least 1 (dst=" + dst + ", sst=" + sst + ")");
        }
        int n = team.members.length;
        long elems = nbytes / unit * n; // elements per array
        if (elems > 0) {
            checkFits(d, ((elems - 1) * dst + 1) * unit, routine, "dest");
            checkFits(s, ((elems - 1) * sst + 1) * unit, routine, "source");
        }
        team.checkSameArgs(routine, "bytes per PE", nbytes, "dest stride", dst, "source stride", sst);
        team.begin(SlotProtocol.OP_ALLTOALL, (nbytes * 131 + dst) * 131 + sst, -1, nbytes, dst, sst, null);
        long per = nbytes / unit; // elements per block
        if (push && nbytes * n <= TeamSlots.BUF_BYTES) {
            algorithm = "push";
            pushAlltoall(d, s, dst, sst, nbytes, unit, per);
            return;
        }
        if (pushAcross && dst == 1 && sst == 1 && nbytes * n <= TeamSlots.BUF_BYTES) {
            algorithm = "push-exchange";
            long buf = exchangeAcross(s.offset, nbytes, nbytes);
            MemorySegment.copy(st.self, buf, st.self, d.offset, nbytes * n);
            return;
        }
        if (pushIntoDest && dst == 1 && sst == 1) {
            algorithm = "push-into-dest";
            // Every member's dest is free once all have entered: each block goes straight there.
            exchange(allEntered(), d.offset, s.offset, nbytes, nbytes);
            return;
        }
        if (push && st.coreShared && dst == 1 && sst == 1) {
            algorithm = "push-into-dest";
            pushAlltoallIntoDest(d, s, nbytes);
            return;
        }
        // One node, linear sync: each member's blocks are read as soon as that member has arrived
        // (its own first), instead of after all have.
        boolean split = team.linearSync();
        algorithm = split ? "pull-as-arrived" : "pull";
        long e = split ? team.enterSync() : 0;
        if (!split) {
            team.syncInternal();
        }
        for (int j = 0; j < n; j++) {
            int i = (team.me + j) % n;
            if (split && i != team.me) {
                team.awaitArrival(i, e);
            }
            int from = team.members[i];
            if (dst == 1 && sst == 1) {
                fetch(from, s.offset + team.me * nbytes, st.self, d.offset + i * nbytes, nbytes);
            } else {
                for (long k = 0; k < per; k++) {
                    fetch(from, s.offset + sst * (team.me * per + k) * unit, st.self, d.offset + dst * (i * per + k) * unit, unit);
                }
            }
        }
        if (split) {
            team.synced(e);
        }
        fetched();
        team.syncInternal();
    }

    /**
     * alltoall above the push buffers, every member on this node: this PE copies its block for
     * each member straight into that member's dest, counted there, as soon as the member has
     * arrived (entered the call, so its dest is free), taking the members in whatever order they
     * arrive; then it waits for its own n-1 blocks. No member reads another's source, so each may
     * reuse its own on return, and no sync is needed: pulling takes one for the sources to be
     * ready and another so that nobody still reads them. Where PEs share cores those syncs cost
     * context switches (4 PEs on 2 cores, 64 KiB: 26 us against 30 pulled; taking the members in
     * a fixed order, waiting for each, was no faster than pulling); where each has its own core
     * they cost little and pulling, which writes only this PE's own dest, was faster (2 PEs on 2
     * cores: 2.3 us against 2.5).
     */
    private void pushAlltoallIntoDest(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes) {
        int n = team.members.length;
        int me = team.me;
        long e = team.enterSync();
        MemorySegment.copy(st.self, s.offset + me * nbytes, st.self, d.offset + me * nbytes, nbytes);
        for (long w = 0, left = n - 1; left > 0; ) {
            int pending = -1;
            long seen = 0;
            for (int k = 1; k < n; k++) {
                int i = (me + k) % n; // staggered, so that members do not all write to PE 0 first
                if (sentAt[i] == e) {
                    continue;
                }
                long v = team.arrivalWord(i);
                if (team.arrivedAt(i, v, e)) {
                    team.pushInto(i, e, d.offset + me * nbytes, s.offset + i * nbytes, nbytes);
                    sentAt[i] = e;
                    left--;
                    w = 0; // a new wait, for the next member
                } else if (pending < 0) {
                    pending = i;
                    seen = v;
                }
            }
            if (pending >= 0) {
                w = team.idleForArrival(pending, seen, w);
            }
        }
        team.awaitPushes(e, n - 1, 0, n);
        team.receivedFromAll(e);
    }

    /** alltoall(s) through the push buffers: each member's buffer holds its blocks for PE 0, 1, ... contiguously. */
    private void pushAlltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        int n = team.members.length;
        long e;
        if (sst == 1) {
            e = produce(s.offset, nbytes * n, false);
        } else {
            e = team.nextEpoch();
            long buf = team.buffer(e);
            team.awaitBufferFree(e);
            for (long k = 0; k < per * n; k++) {
                MemorySegment.copy(st.self, s.offset + sst * k * unit, st.self, buf + k * unit, unit);
            }
            team.arrive(e);
        }
        long buf = team.buffer(e) + team.me * nbytes;
        for (int i = 0; i < n; i++) {
            team.awaitArrival(i, e);
            int pe = team.members[i];
            if (dst == 1) {
                st.comm.get(pe, buf, st.self, d.offset + i * nbytes, nbytes, false);
            } else {
                for (long k = 0; k < per; k++) {
                    st.comm.get(pe, buf + k * unit, st.self, d.offset + dst * (i * per + k) * unit, unit, false);
                }
            }
        }
    }

    // ---------------------------------------------------------------- reductions and scans

    public void reduce(ReduceOp op, SymArray<?> dest, SymArray<?> source, long count) {
        team.checkLive();
        String routine = REDUCE_ROUTINES[op.ordinal()];
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = bytes(d, s, count, false, routine);
        if (op.bitwise() && (d.type.name().equals("float") || d.type.name().equals("double"))) {
            throw st.error(routine + " is not defined for " + d.type.name() + " (bitwise reductions need an integral type)");
        }
        checkFits(d, nbytes, routine, "dest");
        checkFits(s, nbytes, routine, "source");
        String type = d.type.name();
        reduce(op, routine, type, type, d.shift, d.offset, s.offset, count, nbytes);
    }

    /**
     * complexf/complexd sum and prod reductions: {@code count} complex numbers, each a (re, im)
     * pair of the float or double arrays' elements. Every reduction algorithm below takes them as
     * elements of twice the size ({@code shift + 1}), so that no slice splits a pair.
     */
    public void complexReduce(ReduceOp op, SymArray<?> dest, SymArray<?> source, long count) {
        team.checkLive();
        String routine = op == ReduceOp.PROD ? "complex_prod_reduce" : "complex_sum_reduce";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = bytes(d, s, count, false, routine) << 1;
        String type = switch (d.type.name()) {
            case "float" -> "complexf";
            case "double" -> "complexd";
            default -> throw st.error(routine + " is defined for float (complexf) and double (complexd) arrays of (re, im)"
                    + " pairs, not for " + d.type.name());
        };
        checkFits(d, nbytes, routine, "dest");
        checkFits(s, nbytes, routine, "source");
        reduce(op, routine, type, type, d.shift + 1, d.offset, s.offset, count, nbytes);
    }

    /**
     * A reduction of one value to all members (the scalar {@code ShmemTeam} forms: an
     * {@code nreduce} of 1), through this team's scalar word of its slot
     * ({@link TeamSlots#scalar}): the value is stored there, reduced as one element by the same
     * algorithms as an array reduction (from the source word into the dest word of every member,
     * both at the same place on every member, so the team's slot serves as symmetric scratch), and
     * the result is read back. No symmetric allocation and no Java allocation; like any
     * collective, every member calls it with the same operator and type (a scalar call meeting an
     * array reduction is reported as calls that do not match).
     *
     * @param type the element type ("long", "int", "double")
     * @param label the type as recorded for mismatch messages and the arguments' hash
     * @param shift log2 of the element size
     * @param bits the value's bits (a double's raw bits, an int sign-extended)
     * @return the result's bits
     */
    public long reduceScalar(ReduceOp op, String type, String label, int shift, long bits) {
        team.checkLive();
        String routine = REDUCE_ROUTINES[op.ordinal()];
        long src = team.scalarOff;
        long dst = src + 8;
        if (shift == 3) {
            Comm.LONG.set(st.self, src, bits);
        } else {
            Comm.INT.set(st.self, src, (int) bits);
        }
        reduce(op, routine, type, label, shift, dst, src, 1, 1L << shift);
        return shift == 3 ? (long) Comm.LONG.get(st.self, dst) : (int) Comm.INT.get(st.self, dst);
    }

    /**
     * A reduction of {@code count} elements of {@code type} ({@link Reductions}), each
     * {@code 1 << shift} bytes, {@code nbytes} in all, from this PE's heap offset {@code sOff}
     * (the source) into {@code dOff} (the dest), both the same on every member. {@code label}
     * names the type in the arguments that must match ({@code type}, or the scalar form's).
     */
    private void reduce(ReduceOp op, String routine, String type, String label, int shift, long dOff, long sOff,
            long count, long nbytes) {
        team.checkSameArgs(routine, "nelems", count, "op (ordinal)", op.ordinal());
        team.begin(SlotProtocol.OP_REDUCE, (count * 131 + op.ordinal()) * 131 + label.hashCode(), -1, count, op.ordinal(), 0, label);
        int n = team.members.length;
        if (push && nbytes <= TeamSlots.BUF_BYTES) {
            algorithm = "push";
            // Every member combines all buffers in team order, so all get the same (floating-point) result.
            long e = produce(sOff, nbytes, false);
            long buf = team.buffer(e);
            team.awaitArrival(0, e);
            st.comm.get(team.members[0], buf, st.self, dOff, nbytes, false);
            for (int i = 1; i < n; i++) {
                team.awaitArrival(i, e);
                Reductions.combine(op, type, st.self, dOff, mapped(i), buf, count);
            }
            return;
        }
        if (pushAcross && nbytes * n <= TeamSlots.BUF_BYTES) {
            algorithm = n == 2 ? "push-exchange" : "push-gather-at-0";
            // Gathered at team PE 0, combined there in team order (the result every member gets,
            // bitwise), pushed back down. 2(n-1) messages in two hops; every member pushing to every
            // other (n(n-1) messages, one hop) cost 2-3x more with more PEs than cores over TCP.
            // With 2 members both ways are 2 messages, and the exchange is one hop.
            if (n == 2) {
                long buf = exchangeAcross(sOff, nbytes, 0);
                MemorySegment.copy(st.self, buf, st.self, dOff, nbytes);
                Reductions.combine(op, type, st.self, dOff, st.self, buf + nbytes, count);
                return;
            }
            long e = team.beginPush();
            long buf = gatherAt0(e, sOff, nbytes);
            if (team.me == 0) {
                MemorySegment.copy(st.self, buf, st.self, dOff, nbytes);
                for (int i = 1; i < n; i++) {
                    Reductions.combine(op, type, st.self, dOff, st.self, buf + i * nbytes, count);
                }
            }
            long from = pushDown(e, 0, dOff, nbytes, false);
            if (team.me != 0) {
                MemorySegment.copy(st.self, from, st.self, dOff, nbytes);
            }
            // The result left PE 0 after every member had entered this call.
            team.receivedFromAll(e);
            return;
        }
        if (pushAcross && n == 2 && nbytes <= EXCHANGE_BYTES) {
            algorithm = "push-exchange-run";
            reduceExchanged(op, type, shift, dOff, sOff, count, nbytes);
            return;
        }
        if (pushAcross && (TeamSlots.LANDING_BYTES / n) >> shift > 0) {
            algorithm = "push-reduce-scatter-allgather";
            reducePushed(op, type, dOff, sOff, count, shift);
            return;
        }
        if (nbytes <= SMALL_REDUCE_BYTES || n == 1) {
            algorithm = "pull-whole";
            team.syncInternal();
            MemorySegment a = accumulator(nbytes);
            reduceInto(op, type, a, sOff, 0, count, shift, n);
            team.syncInternal(); // nobody reads the sources any more: dest may be source
            MemorySegment.copy(a, 0, st.self, dOff, nbytes);
            return;
        }
        // Reduce-scatter: member i reduces elements [lo(i), lo(i+1)), then everyone gathers the slices
        // (one node, or across nodes with `pull`).
        team.syncInternal();
        long lo = count * team.me / n;
        long hi = count * (team.me + 1) / n;
        MemorySegment a = accumulator((hi - lo) << shift);
        reduceInto(op, type, a, sOff + (lo << shift), 0, hi - lo, shift, n);
        if (push && n > 2) {
            algorithm = "pull-reduce-scatter-into-dest";
            // One node: the slice goes straight into every member's dest (all have entered the call,
            // so their dest is free), and one sync both delivers the slices and ends the reading of
            // the sources: two syncs instead of three. The slice was reduced into the private
            // accumulator first, since a member's dest may be its source, which others still read.
            // Not for 2 PEs: there it was bimodal (bound to cores, 64 KiB: a median of 7 us in some
            // runs, 94 in others, against 9-23 us pulling), cause not found.
            for (int k = 0; k < n; k++) {
                int i = (team.me + k) % n; // staggered, so that members do not all write to PE 0 first
                MemorySegment.copy(a, 0, mapped(i), dOff + (lo << shift), (hi - lo) << shift);
            }
            team.syncInternal();
            return;
        }
        MemorySegment.copy(a, 0, st.self, dOff + (lo << shift), (hi - lo) << shift);
        team.syncInternal();
        algorithm = "pull-reduce-scatter-allgather";
        for (int i = 0; i < n; i++) {
            if (i != team.me) {
                long ilo = count * i / n;
                long ihi = count * (i + 1) / n;
                fetch(team.members[i], dOff + (ilo << shift), st.self, dOff + (ilo << shift), (ihi - ilo) << shift);
            }
        }
        fetched();
        team.syncInternal();
    }

    /**
     * Two members across nodes, data up to {@link #EXCHANGE_BUFFERS} push buffers: each pushes its
     * whole input into the other's push buffers of a run of epochs ({@link SlotProtocol#beginPushRun})
     * and combines both, in team order, into its dest. One hop and no sync, where reduce-scatter
     * then allgather ({@link #reducePushed}) takes two; each PE combines all the data instead of
     * half, which costs far less than a hop.
     */
    private void reduceExchanged(ReduceOp op, String type, int shift, long dOff, long sOff, long count, long nbytes) {
        long e = team.beginPushRun((int) ((nbytes + TeamSlots.BUF_BYTES - 1) / TeamSlots.BUF_BYTES));
        // The run wraps around the slot's buffers: `head` bytes from buffer(e), the rest from the first buffer.
        long head = Math.min(nbytes, (TeamSlots.PUSH_BUFFERS - (e & (TeamSlots.PUSH_BUFFERS - 1))) * (long) TeamSlots.BUF_BYTES);
        long buf = team.buffer(e);
        long tail = team.buffer(e + head / TeamSlots.BUF_BYTES);
        int other = 1 - team.me;
        team.pushInto(other, e, buf, sOff, head);
        if (head < nbytes) {
            team.pushInto(other, e, tail, sOff + head, nbytes - head);
        }
        team.awaitPushes(e, head < nbytes ? 2 : 1, other, other + 1);
        long headCount = head >> shift;
        if (team.me == 0) { // dest = mine op theirs
            MemorySegment.copy(st.self, sOff, st.self, dOff, nbytes);
            Reductions.combine(op, type, st.self, dOff, st.self, buf, headCount);
            Reductions.combine(op, type, st.self, dOff + head, st.self, tail, count - headCount);
        } else { // dest = theirs op mine; through private memory if dest overlaps the source it still reads
            boolean overlap = dOff < sOff + nbytes && sOff < dOff + nbytes;
            MemorySegment to = overlap ? accumulator(nbytes) : st.self;
            long at = overlap ? 0 : dOff;
            MemorySegment.copy(st.self, buf, to, at, head);
            MemorySegment.copy(st.self, tail, to, at + head, nbytes - head);
            Reductions.combine(op, type, to, at, st.self, sOff, count);
            if (overlap) {
                MemorySegment.copy(to, 0, st.self, dOff, nbytes);
            }
        }
        team.receivedFromAll(e);
    }

    /**
     * A reduction too large for the push buffers, members not all on this node: reduce-scatter
     * then allgather, both pushed, in rounds of at most {@link TeamSlots#LANDING_BYTES}. In a
     * round each member pushes slice i of its source into member i's landing area (at its own
     * place there); member i reduces the slices in team order (so every member gets bitwise the
     * same result) and pushes the reduced slice into every member's dest. Two one-way hops a round
     * and no sync: having a member's slice proves it entered the call (its dest is free), and a
     * member starts round r + 1 only with every member's result of round r, sent after that member
     * had read its landing area. (Pulled, with three syncs, 64 KiB over UCX/TCP at 4 PEs on 2 cores
     * took 10-30x OSHMEM's time: the gets waited for peers that yielded the core in their waits.)
     */
    private void reducePushed(ReduceOp op, String type, long dOff, long sOff, long count, int shift) {
        int n = team.members.length;
        int me = team.me;
        long perSlice = (TeamSlots.LANDING_BYTES / n) >> shift; // elements of a slice, at most
        long perRound = perSlice * n;
        long place = perSlice << shift; // member k's slice at k * place in the landing area
        long e1 = team.beginPush(); // counts the slices
        long e2 = team.beginPush(); // counts the results
        for (long base = 0; base < count; base += perRound) {
            long c = Math.min(perRound, count - base);
            for (int k = 1; k < n; k++) {
                int i = (me + k) % n; // staggered, so that members do not all send to PE 0 first
                long lo = base + c * i / n;
                long hi = base + c * (i + 1) / n;
                team.pushInto(i, e1, team.landingOff + me * place, sOff + (lo << shift), (hi - lo) << shift);
            }
            long lo = base + c * me / n;
            long len = base + c * (me + 1) / n - lo;
            team.awaitPushes(e1, n - 1, 0, n);
            MemorySegment a = accumulator(len << shift);
            for (int k = 0; k < n; k++) {
                long at = k == me ? sOff + (lo << shift) : team.landingOff + k * place;
                if (k == 0) {
                    MemorySegment.copy(st.self, at, a, 0, len << shift);
                } else {
                    Reductions.combine(op, type, a, 0, st.self, at, len);
                }
            }
            // Into this PE's dest first (its source there, if the same, is read by nobody else).
            long mine = dOff + (lo << shift);
            MemorySegment.copy(a, 0, st.self, mine, len << shift);
            for (int k = 1; k < n; k++) {
                team.pushInto((me + k) % n, e2, mine, mine, len << shift);
            }
            team.awaitPushes(e2, n - 1, 0, n);
        }
        team.receivedFromAll(e2);
    }

    public void scan(SymArray<?> dest, SymArray<?> source, long count, boolean inclusive) {
        team.checkLive();
        String routine = inclusive ? "sum_inscan" : "sum_exscan";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = bytes(d, s, count, false, routine);
        checkFits(d, nbytes, routine, "dest");
        checkFits(s, nbytes, routine, "source");
        team.checkSameArgs(routine, "nelems", count);
        team.begin(SlotProtocol.OP_SCAN, (count * 131 + (inclusive ? 1 : 0)) * 131 + d.type.name().hashCode(), -1, count,
                inclusive ? 1 : 0, 0, d.type.name());
        if (push && nbytes <= TeamSlots.BUF_BYTES) {
            algorithm = "push";
            long e = produce(s.offset, nbytes, false);
            long buf = team.buffer(e);
            zero(st.self, d.offset, nbytes);
            int upto = inclusive ? team.me + 1 : team.me;
            for (int i = 0; i < upto; i++) {
                team.awaitArrival(i, e);
                Reductions.combine(ReduceOp.SUM, d.type.name(), st.self, d.offset, mapped(i), buf, count);
            }
            return;
        }
        int n = team.members.length;
        if (pushAcross && nbytes * n <= TeamSlots.BUF_BYTES) {
            algorithm = "push-to-successors";
            // Member j sends its input to the members after it; each sums its predecessors' (and its own).
            long e = team.beginPush();
            long buf = team.buffer(e);
            for (int i = team.me + 1; i < n; i++) {
                team.pushTo(i, e, team.me * nbytes, s.offset, nbytes);
            }
            MemorySegment.copy(st.self, s.offset, st.self, buf + team.me * nbytes, nbytes);
            team.awaitPushes(e, team.me, 0, team.me);
            zero(st.self, d.offset, nbytes);
            int upto = inclusive ? team.me + 1 : team.me;
            for (int i = 0; i < upto; i++) {
                Reductions.combine(ReduceOp.SUM, d.type.name(), st.self, d.offset, st.self, buf + i * nbytes, count);
            }
            return;
        }
        team.syncInternal();
        MemorySegment a = accumulator(nbytes);
            algorithm = "pull";
        zero(a, 0, nbytes);
        int upto = inclusive ? team.me + 1 : team.me;
        if (upto > 0) {
            reduceInto(ReduceOp.SUM, d.type.name(), a, s.offset, 0, count, d.shift, upto);
        }
        team.syncInternal();
        MemorySegment.copy(a, 0, st.self, d.offset, nbytes);
    }

    /**
     * acc[0..count) = OP over all members of source[from..from+count), combined in team order.
     * Off-node members' inputs are fetched {@link #FETCH_BATCH} at a time, all in flight at once.
     */
    private void reduceInto(ReduceOp op, String type, MemorySegment a, long from, long accOff, long count, int shift, int n) {
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
                    Reductions.combine(op, type, a, accOff, src, off, count);
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
    private long exchangeAcross(long from, long nbytes, long blockStride) {
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
    private void exchange(long e, long into, long from, long nbytes, long blockStride) {
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
    private void fetch(int worldPe, long from, MemorySegment dst, long dstOff, long n) {
        if (n == 0) {
            return;
        }
        if (st.comm.direct(worldPe) == null) {
            fetching = true;
        }
        st.comm.get(worldPe, from, dst, dstOff, n, true);
    }

    /** Completes the {@link #fetch}es started since the last call. */
    private void fetched() {
        if (fetching) {
            fetching = false;
            st.comm.quiet();
        }
    }

    /** Copies {@code n} bytes at heap offset {@code from} of a world PE into {@code dst}. */
    private void copyFrom(int worldPe, long from, MemorySegment dst, long dstOff, long n) {
        if (n == 0) {
            return;
        }
        st.comm.get(worldPe, from, dst, dstOff, n, false);
    }

    private long bytes(SymArrayImpl<?> d, SymArrayImpl<?> s, long count, boolean bytes, String routine) {
        if (count < 0) {
            throw st.error(routine + ": negative count " + count);
        }
        if (!bytes && d.type != s.type) {
            throw st.error(routine + ": dest holds " + d.type.name() + " but source holds " + s.type.name());
        }
        return bytes ? count : count << d.shift;
    }

    /** {@code what} ("dest", "source") of {@code routine}: named apart, so that the message is built only when thrown. */
    private void checkFits(SymArrayImpl<?> a, long nbytes, String routine, String what) {
        if (nbytes > a.byteSize()) {
            throw st.error(routine + " " + what + " needs " + nbytes + " bytes but " + a + " has " + a.byteSize());
        }
    }

    /** Zeroes {@code n} bytes of {@code seg} from {@code off}: copies of {@link #ZEROS}, no slice object. */
    private static void zero(MemorySegment seg, long off, long n) {
        for (long done = 0; done < n; done += ZEROS.byteSize()) {
            MemorySegment.copy(ZEROS, 0, seg, off + done, Math.min(ZEROS.byteSize(), n - done));
        }
    }

    private MemorySegment accumulator(long bytes) {
        if (acc.byteSize() < bytes) {
            acc = Arena.ofAuto().allocate(Math.max(bytes, 4096), 64);
        }
        return acc;
    }

    private MemorySegment staging(long bytes) {
        if (staging.byteSize() < bytes) {
            staging = Arena.ofAuto().allocate(Math.max(bytes, 4096), 64);
        }
        return staging;
    }
}
