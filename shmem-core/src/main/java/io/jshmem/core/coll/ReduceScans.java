/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * The algorithms of the reductions (array, complex, scalar) and the scans for one team (what they share: {@link CollKind}).
 */
final class ReduceScans extends CollKind {
    /** Reductions up to this many bytes are done whole by every member (one sync fewer). */
    private static final long SMALL_REDUCE_BYTES = 2048;
    /** Pull reductions fetch this many members' inputs at once (staging memory: that many inputs). */
    private static final int FETCH_BATCH = 8;

    ReduceScans(Collectives kit) {
        super(kit);
    }

    public void reduce(ReduceOp op, SymArray<?> dest, SymArray<?> source, long count) {
        team.checkLive();
        String routine = Collectives.REDUCE_ROUTINES[op.ordinal()];
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = kit.bytes(d, s, count, false, routine);
        boolean floating = switch (d.type.kind()) {
            case FLOAT, DOUBLE -> true;
            case LONG, INT, SHORT, BYTE, CHAR -> false;
        };
        if (op.bitwise() && floating) {
            throw st.error(routine + " is not defined for " + d.type.name() + " (bitwise reductions need an integral type)");
        }
        kit.checkFits(d, nbytes, routine, "dest");
        kit.checkFits(s, nbytes, routine, "source");
        reduce(op, routine, Reductions.Elem.of(d.type.kind()), d.type.name(), d.shift, d.offset, s.offset, count, nbytes);
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
        long nbytes = kit.bytes(d, s, count, false, routine) << 1;
        String label = switch (d.type.kind()) { // the element type as the mismatch checks name it
            case FLOAT -> "complexf";
            case DOUBLE -> "complexd";
            case LONG, INT, SHORT, BYTE, CHAR -> throw st.error(routine + " is defined for float (complexf) and double"
                    + " (complexd) arrays of (re, im) pairs, not for " + d.type.name());
        };
        kit.checkFits(d, nbytes, routine, "dest");
        kit.checkFits(s, nbytes, routine, "source");
        reduce(op, routine, Reductions.Elem.complexOf(d.type.kind()), label, d.shift + 1, d.offset, s.offset, count, nbytes);
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
     * @param kind the element type ({@code LONG}, {@code INT}, {@code DOUBLE})
     * @param label the type as recorded for mismatch messages and the arguments' hash
     * @param shift log2 of the element size
     * @param bits the value's bits (a double's raw bits, an int sign-extended)
     * @return the result's bits
     */
    public long reduceScalar(ReduceOp op, SymType.Kind kind, String label, int shift, long bits) {
        team.checkLive();
        String routine = Collectives.REDUCE_ROUTINES[op.ordinal()];
        long src = team.scalarOff;
        long dst = src + 8;
        if (shift == 3) {
            Comm.LONG.set(st.self, src, bits);
        } else {
            Comm.INT.set(st.self, src, (int) bits);
        }
        reduce(op, routine, Reductions.Elem.of(kind), label, shift, dst, src, 1, 1L << shift);
        return shift == 3 ? (long) Comm.LONG.get(st.self, dst) : (int) Comm.INT.get(st.self, dst);
    }

    /**
     * A reduction of {@code count} elements of {@code elem} ({@link Reductions}), each
     * {@code 1 << shift} bytes, {@code nbytes} in all, from this PE's heap offset {@code sOff}
     * (the source) into {@code dOff} (the dest), both the same on every member. {@code label}
     * names the type in the arguments that must match (the array's type name, or the scalar form's).
     */
    private void reduce(ReduceOp op, String routine, Reductions.Elem type, String label, int shift, long dOff, long sOff,
            long count, long nbytes) {
        team.checkSameArgs(routine, "nelems", count, "op (ordinal)", op.ordinal());
        team.begin(SlotProtocol.OP_REDUCE, (count * 131 + op.ordinal()) * 131 + label.hashCode(), -1, count, op.ordinal(), 0, label);
        int n = team.members.length;
        if (push && nbytes <= TeamSlots.BUF_BYTES) {
            kit.algorithm = "push";
            // Every member combines all buffers in team order, so all get the same (floating-point) result.
            long e = kit.produce(sOff, nbytes, false);
            long buf = team.buffer(e);
            team.awaitArrival(0, e);
            st.comm.get(team.members[0], buf, st.self, dOff, nbytes, false);
            for (int i = 1; i < n; i++) {
                team.awaitArrival(i, e);
                Reductions.combine(op, type, st.self, dOff, kit.mapped(i), buf, count);
            }
            return;
        }
        if (pushAcross && nbytes * n <= TeamSlots.BUF_BYTES) {
            kit.algorithm = n == 2 ? "push-exchange" : "push-gather-at-0";
            // Gathered at team PE 0, combined there in team order (the result every member gets,
            // bitwise), pushed back down. 2(n-1) messages in two hops; every member pushing to every
            // other (n(n-1) messages, one hop) cost 2-3x more with more PEs than cores over TCP.
            // With 2 members both ways are 2 messages, and the exchange is one hop.
            if (n == 2) {
                long buf = kit.exchangeAcross(sOff, nbytes, 0);
                MemorySegment.copy(st.self, buf, st.self, dOff, nbytes);
                Reductions.combine(op, type, st.self, dOff, st.self, buf + nbytes, count);
                return;
            }
            long e = team.beginPush();
            long buf = kit.gatherAt0(e, sOff, nbytes);
            if (team.me == 0) {
                MemorySegment.copy(st.self, buf, st.self, dOff, nbytes);
                for (int i = 1; i < n; i++) {
                    Reductions.combine(op, type, st.self, dOff, st.self, buf + i * nbytes, count);
                }
            }
            long from = kit.pushDown(e, 0, dOff, nbytes, false);
            if (team.me != 0) {
                MemorySegment.copy(st.self, from, st.self, dOff, nbytes);
            }
            // The result left PE 0 after every member had entered this call.
            team.receivedFromAll(e);
            return;
        }
        if (pushAcross && n == 2 && nbytes <= Collectives.EXCHANGE_BYTES) {
            kit.algorithm = "push-exchange-run";
            reduceExchanged(op, type, shift, dOff, sOff, count, nbytes);
            return;
        }
        if (pushAcross && (TeamSlots.LANDING_BYTES / n) >> shift > 0) {
            kit.algorithm = "push-reduce-scatter-allgather";
            reducePushed(op, type, dOff, sOff, count, shift);
            return;
        }
        if (nbytes <= SMALL_REDUCE_BYTES || n == 1) {
            kit.algorithm = "pull-whole";
            team.syncInternal();
            MemorySegment a = kit.accumulator(nbytes);
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
        MemorySegment a = kit.accumulator((hi - lo) << shift);
        reduceInto(op, type, a, sOff + (lo << shift), 0, hi - lo, shift, n);
        if (push && n > 2) {
            kit.algorithm = "pull-reduce-scatter-into-dest";
            // One node: the slice goes straight into every member's dest (all have entered the call,
            // so their dest is free), and one sync both delivers the slices and ends the reading of
            // the sources: two syncs instead of three. The slice was reduced into the private
            // accumulator first, since a member's dest may be its source, which others still read.
            // Not for 2 PEs: there it was bimodal (bound to cores, 64 KiB: a median of 7 us in some
            // runs, 94 in others, against 9-23 us pulling), cause not found.
            for (int k = 0; k < n; k++) {
                int i = (team.me + k) % n; // staggered, so that members do not all write to PE 0 first
                MemorySegment.copy(a, 0, kit.mapped(i), dOff + (lo << shift), (hi - lo) << shift);
            }
            team.syncInternal();
            return;
        }
        MemorySegment.copy(a, 0, st.self, dOff + (lo << shift), (hi - lo) << shift);
        team.syncInternal();
        kit.algorithm = "pull-reduce-scatter-allgather";
        for (int i = 0; i < n; i++) {
            if (i != team.me) {
                long ilo = count * i / n;
                long ihi = count * (i + 1) / n;
                kit.fetch(team.members[i], dOff + (ilo << shift), st.self, dOff + (ilo << shift), (ihi - ilo) << shift);
            }
        }
        kit.fetched();
        team.syncInternal();
    }

    /**
     * Two members across nodes, data up to {@link Collectives#EXCHANGE_BUFFERS} push buffers: each pushes its
     * whole input into the other's push buffers of a run of epochs ({@link SlotProtocol#beginPushRun})
     * and combines both, in team order, into its dest. One hop and no sync, where reduce-scatter
     * then allgather ({@link #reducePushed}) takes two; each PE combines all the data instead of
     * half, which costs far less than a hop.
     */
    private void reduceExchanged(ReduceOp op, Reductions.Elem type, int shift, long dOff, long sOff, long count, long nbytes) {
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
            MemorySegment to = overlap ? kit.accumulator(nbytes) : st.self;
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
    private void reducePushed(ReduceOp op, Reductions.Elem type, long dOff, long sOff, long count, int shift) {
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
            MemorySegment a = kit.accumulator(len << shift);
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
        long nbytes = kit.bytes(d, s, count, false, routine);
        kit.checkFits(d, nbytes, routine, "dest");
        kit.checkFits(s, nbytes, routine, "source");
        team.checkSameArgs(routine, "nelems", count);
        team.begin(SlotProtocol.OP_SCAN, (count * 131 + (inclusive ? 1 : 0)) * 131 + d.type.name().hashCode(), -1, count,
                inclusive ? 1 : 0, 0, d.type.name());
        Reductions.Elem elem = Reductions.Elem.of(d.type.kind());
        if (push && nbytes <= TeamSlots.BUF_BYTES) {
            kit.algorithm = "push";
            long e = kit.produce(s.offset, nbytes, false);
            long buf = team.buffer(e);
            Collectives.zero(st.self, d.offset, nbytes);
            int upto = inclusive ? team.me + 1 : team.me;
            for (int i = 0; i < upto; i++) {
                team.awaitArrival(i, e);
                Reductions.combine(ReduceOp.SUM, elem, st.self, d.offset, kit.mapped(i), buf, count);
            }
            return;
        }
        int n = team.members.length;
        if (pushAcross && nbytes * n <= TeamSlots.BUF_BYTES) {
            kit.algorithm = "push-to-successors";
            // Member j sends its input to the members after it; each sums its predecessors' (and its own).
            long e = team.beginPush();
            long buf = team.buffer(e);
            for (int i = team.me + 1; i < n; i++) {
                team.pushTo(i, e, team.me * nbytes, s.offset, nbytes);
            }
            MemorySegment.copy(st.self, s.offset, st.self, buf + team.me * nbytes, nbytes);
            team.awaitPushes(e, team.me, 0, team.me);
            Collectives.zero(st.self, d.offset, nbytes);
            int upto = inclusive ? team.me + 1 : team.me;
            for (int i = 0; i < upto; i++) {
                Reductions.combine(ReduceOp.SUM, elem, st.self, d.offset, st.self, buf + i * nbytes, count);
            }
            return;
        }
        team.syncInternal();
        MemorySegment a = kit.accumulator(nbytes);
            kit.algorithm = "pull";
        Collectives.zero(a, 0, nbytes);
        int upto = inclusive ? team.me + 1 : team.me;
        if (upto > 0) {
            reduceInto(ReduceOp.SUM, elem, a, s.offset, 0, count, d.shift, upto);
        }
        team.syncInternal();
        MemorySegment.copy(a, 0, st.self, d.offset, nbytes);
    }

    /**
     * acc[0..count) = OP over all members of source[from..from+count), combined in team order.
     * Off-node members' inputs are fetched {@link #FETCH_BATCH} at a time, all in flight at once.
     */
    private void reduceInto(ReduceOp op, Reductions.Elem type, MemorySegment a, long from, long accOff, long count, int shift, int n) {
        long bytes = count << shift;
        for (int lo = 0; lo < n; lo += FETCH_BATCH) {
            int hi = Math.min(n, lo + FETCH_BATCH);
            MemorySegment tmp = team.allLocal ? null : kit.staging(bytes * (hi - lo)); // only for off-node members
            for (int i = lo; i < hi; i++) {
                if (st.comm.direct(team.members[i]) == null) {
                    kit.fetch(team.members[i], from, tmp, (i - lo) * bytes, bytes);
                }
            }
            kit.fetched();
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
}
