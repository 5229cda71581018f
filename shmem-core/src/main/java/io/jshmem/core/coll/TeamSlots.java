/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ShmemException;
import io.jshmem.core.comm.PeState;

/**
 * The per-team areas of the internal symmetric region. Slot s holds, on every PE, the barrier
 * flags of the team using slot s (one cache line per round), a few scratch words, the member's
 * arrival word (the epoch of the last collective it entered or finished, see {@link SlotProtocol}),
 * its exit word, one counter line per push buffer, {@link #ENTRY_WORDS} entry words,
 * {@link #ROUND_WORDS} round words, {@link #PUSH_BUFFERS} buffers through which small collectives
 * push their data (used in turn by epoch) and a landing area of {@link #LANDING_BYTES} into which
 * large reductions across nodes push the members' slices. A PE may be in several teams, each with
 * its own slot; disjoint teams may share a slot number. Members of a parent team agree on a slot
 * that is free on all of them (an AND of free-slot masks).
 */
public final class TeamSlots {
    static final int MAX_TEAMS = 64;
    /** Slot 0: the world team; slot 1: the shared team. */
    public static final int FIRST_FREE_SLOT = 2;
    private static final int ROUNDS = 32;
    public static final int LINE = 64;
    private static final int FLAGS_BYTES = ROUNDS * LINE;
    private static final int SCRATCH_WORDS = 4;
    /** Bytes of each push buffer of a slot: collectives moving more go the pull way. */
    public static final int BUF_BYTES = 8192;
    /**
     * Push buffers per slot (a power of two), used in turn: across nodes a sender may write the
     * buffer of epoch e once every member is known to have finished epoch e - PUSH_BUFFERS, so
     * back-to-back broadcasts need a handshake (or other collectives a sync) only every
     * PUSH_BUFFERS - 1 calls. (With 4, a 4-PE loop of 8 B broadcasts over UCX/TCP averaged 3x its
     * median.) Their pages are touched only as far as collectives write.
     */
    public static final int PUSH_BUFFERS = 16;
    /**
     * Bytes of a slot's landing area: a reduction across nodes moves at most this much per round
     * (its pages are touched only by such reductions and a collect's node totals). Reductions push
     * into a member's landing area without waiting for it to enter: an operation that uses it must
     * be done with it on every member before any member leaves (a collect's leaders are).
     */
    public static final int LANDING_BYTES = 64 << 10;
    /**
     * Entry words per slot, one per member (team PE k writes word k of the PEs it tells): "entered
     * operation e" for large collectives across nodes. Larger teams move such data the pull way.
     */
    static final int ENTRY_WORDS = 1024;
    /**
     * Round words per slot beyond the spare words of the counter lines ({@link RoundPushes}): the
     * Bruck rounds too large for a push buffer take four per round ({@link BufferedRounds}), the
     * node leaders' reductions ({@link HierarchicalReduce}) three per round, their (f)collect
     * ({@link HierarchicalCollect}) three, a scan ({@link RecursiveDoublingScan}) one, their
     * alltoall ({@link HierarchicalAlltoall}) one (of 8).
     */
    static final int ROUND_WORDS = 296;
    private static final long ARRIVE_AT = FLAGS_BYTES + SCRATCH_WORDS * LINE;
    private static final long EXIT_AT = ARRIVE_AT + LINE;
    private static final long COUNTERS_AT = EXIT_AT + LINE;
    private static final long ENTRIES_AT = COUNTERS_AT + PUSH_BUFFERS * LINE;
    private static final long ROUND_WORDS_AT = ENTRIES_AT + ENTRY_WORDS * 8L;
    private static final long BUF_AT = ROUND_WORDS_AT + ROUND_WORDS * 8L;
    private static final long LANDING_AT = BUF_AT + (long) PUSH_BUFFERS * BUF_BYTES;
    static final long SLOT_BYTES = LANDING_AT + LANDING_BYTES;
    public static final long TOTAL_BYTES = MAX_TEAMS * SLOT_BYTES;

    private final long base;
    private final PeState st;
    /** Bit s set: slot s is free on this PE. */
    private long freeMask = -1L << FIRST_FREE_SLOT;

    public TeamSlots(PeState st, long internalBase) {
        this.st = st;
        this.base = internalBase;
    }

    public long flag(int slot, int round) {
        return base + slot * SLOT_BYTES + (long) round * LINE;
    }

    long scratch(int slot, int word) {
        return base + slot * SLOT_BYTES + FLAGS_BYTES + (long) word * LINE;
    }

    /**
     * Offset of the scalar words of a slot (scratch line 2): a scalar reduction's source word and,
     * 8 bytes on, its dest word ({@link Collectives#reduceScalar}).
     */
    long scalar(int slot) {
        return scratch(slot, 2);
    }

    long arrive(int slot) {
        return base + slot * SLOT_BYTES + ARRIVE_AT;
    }

    /** Offset of a member's exit word: the epoch of the last barrier it left (see {@link LinearSync}). */
    long exit(int slot) {
        return base + slot * SLOT_BYTES + EXIT_AT;
    }

    /** Offset of the counter of push buffer {@code i} of a slot (a line each; {@link RoundPushes} uses the line's other seven words). */
    long pushCounter(int slot, int i) {
        return base + slot * SLOT_BYTES + COUNTERS_AT + (long) i * LINE;
    }

    /** Offset of entry word 0 of a slot (8 bytes each). */
    long entries(int slot) {
        return base + slot * SLOT_BYTES + ENTRIES_AT;
    }

    /** Offset of round word 0 of a slot (8 bytes each; {@link RoundPushes}). */
    long roundWords(int slot) {
        return base + slot * SLOT_BYTES + ROUND_WORDS_AT;
    }

    /** Offset of push buffer 0 of a slot; the others follow it. */
    long buffer(int slot) {
        return base + slot * SLOT_BYTES + BUF_AT;
    }

    /** Offset of the landing area of a slot. */
    long landing(int slot) {
        return base + slot * SLOT_BYTES + LANDING_AT;
    }

    /**
     * Collective over {@code parent}: picks {@code count} slots free on every parent member (the
     * same ones on all of them).
     */
    public int[] agree(SlotProtocol parent, int count) {
        long mask;
        synchronized (this) {
            mask = freeMask;
        }
        long common = -1L;
        for (long m : parent.exchange(mask)) {
            common &= m;
        }
        int[] picked = new int[count];
        for (int i = 0; i < count; i++) {
            if (common == 0) {
                throw new ShmemException("PE " + st.me + ": too many teams: at most " + (MAX_TEAMS - FIRST_FREE_SLOT)
                        + " teams may exist at once besides the predefined ones (destroy unused teams)");
            }
            picked[i] = Long.numberOfTrailingZeros(common);
            common &= common - 1;
        }
        return picked;
    }

    /**
     * Marks a predefined team's slot used, at init. Its flags are not cleared: the segment is new
     * (zero), and a faster peer may already have raised one of them.
     */
    public synchronized void reserve(int slot) {
        freeMask &= ~(1L << slot);
    }

    /**
     * Takes a slot for a new team of which this PE is a member and clears its flags. Safe because
     * no member signals the new team before the parent's sync that ends the split.
     */
    public synchronized void take(int slot) {
        freeMask &= ~(1L << slot);
        st.self.asSlice(flag(slot, 0), LANDING_AT).fill((byte) 0); // (the landing area need not be zero)
    }

    public synchronized void release(int slot) {
        freeMask |= 1L << slot;
    }
}
