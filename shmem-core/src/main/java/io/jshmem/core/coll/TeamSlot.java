/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.Waiter;
import java.lang.foreign.MemorySegment;

/**
 * A flyweight over one team's slot of the internal region ({@link TeamSlots} has the layout): the
 * words through which the members of a team synchronize and the push buffers, with the memory
 * ordering of each access in its method name. A {@code ...Release} store makes every earlier
 * store of this PE visible before the word; an {@code ...Acquire} load makes every later load see
 * what the writer stored before its release; {@code ...AndWake} also wakes a member sleeping on
 * the word's line ({@link Waiter#signal}). Other PEs are reached only through {@link Comm}: their
 * mapped heaps ({@link Comm#direct}) on this node, the transport elsewhere.
 *
 * <p>What the words mean (epochs, operation identities, counts) is the protocol of
 * {@link SlotProtocol}; this class only owns where they are and how they are read and written. It
 * allocates nothing after construction.
 */
public final class TeamSlot {
    private final Comm comm;
    private final Waiter waiter;

    /**
     * Test hook (the collective simulator, CollectiveSimulationTest): told of every store to and
     * load of a slot's synchronization word made here (told before a store, after a load), so that
     * it can follow which writes a PE's waits observed. Null in a real job (a null check per store
     * or load).
     */
    public static volatile WordProbe probe;

    /** See {@link #probe}: {@code heap} is the segment stored to or loaded from (a PE's own or a mapped peer's). */
    public interface WordProbe {
        void stored(MemorySegment heap, long off);

        void loaded(MemorySegment heap, long off);
    }

    private static void stored(MemorySegment heap, long off) {
        WordProbe p = probe;
        if (p != null) {
            p.stored(heap, off);
        }
    }

    private static void loaded(MemorySegment heap, long off) {
        WordProbe p = probe;
        if (p != null) {
            p.loaded(heap, off);
        }
    }
    /** This PE's heap. */
    private final MemorySegment self;
    /** World PE numbers by team PE number. */
    private final int[] members;
    private final long arriveOff;
    private final long exitOff;
    /** The word in which a node leader publishes that its node may leave a hierarchical sync. */
    private final long nodeReleaseOff;
    private final long scratchOff;
    private final long entriesOff;
    private final long entryOutOff;
    private final long roundWordsOff;
    private final long bufferOff;
    private final long[] pushCounterOff = new long[TeamSlots.PUSH_BUFFERS];
    private final long landingOff;
    private final long scalarOff;

    public TeamSlot(PeState st, TeamSlots slots, int slot, int[] members) {
        this.comm = st.comm;
        this.waiter = st.waiter;
        this.self = st.self;
        this.members = members;
        this.arriveOff = slots.arrive(slot);
        this.exitOff = slots.exit(slot);
        this.scratchOff = slots.scratch(slot, 0);
        this.entryOutOff = slots.scratch(slot, 1);
        this.nodeReleaseOff = slots.scratch(slot, 3);
        this.entriesOff = slots.entries(slot);
        this.roundWordsOff = slots.roundWords(slot);
        this.bufferOff = slots.buffer(slot);
        for (int i = 0; i < TeamSlots.PUSH_BUFFERS; i++) {
            pushCounterOff[i] = slots.pushCounter(slot, i);
        }
        this.landingOff = slots.landing(slot);
        this.scalarOff = slots.scalar(slot);
    }

    /** The heap of team PE {@code pe} mapped on this node, or null when only the transport reaches it. */
    public MemorySegment mapped(int pe) {
        return comm.direct(members[pe]);
    }

    // ---------------------------------------------------------------- arrival words

    /** Stores this PE's arrival word with release semantics; wakes nobody (members across nodes poll it). */
    public void publishArrivalRelease(long word) {
        stored(self, arriveOff);
        Comm.LONG.setRelease(self, arriveOff, word);
    }

    /** Stores this PE's arrival word with release semantics and wakes members sleeping on it. */
    public void publishArrivalReleaseAndWake(long word) {
        stored(self, arriveOff);
        Comm.LONG.setRelease(self, arriveOff, word);
        Waiter.signal(self);
    }

    /** Team PE {@code pe}'s arrival word, loaded with acquire semantics (a member mapped on this node). */
    public long arrivalWordAcquire(int pe) {
        MemorySegment seg = mapped(pe);
        long v = (long) Comm.LONG.getAcquire(seg, arriveOff);
        loaded(seg, arriveOff);
        return v;
    }

    /** Team PE {@code pe}'s arrival word with acquire semantics, through the transport when it is not mapped here. */
    public long arrivalWordAnywhereAcquire(int pe) {
        return comm.getValue(members[pe], arriveOff, 8);
    }

    /** One step of a wait for team PE {@code pe}'s arrival word to change from {@code v} ({@link Waiter#idle}). */
    public long idleOnArrival(int pe, long v, long w) {
        return waiter.idle(w, mapped(pe), arriveOff, 8, v);
    }

    // ---------------------------------------------------------------- exit words (linear barriers)

    /** Stores this PE's exit word (the epoch of the barrier it leaves) with release semantics and wakes sleepers. */
    public void publishExitReleaseAndWake(long e) {
        stored(self, exitOff);
        Comm.LONG.setRelease(self, exitOff, e);
        Waiter.signal(self);
    }

    /** Team PE {@code pe}'s exit word, loaded with acquire semantics. */
    public long exitWordAcquire(int pe) {
        MemorySegment seg = mapped(pe);
        long v = (long) Comm.LONG.getAcquire(seg, exitOff);
        loaded(seg, exitOff);
        return v;
    }

    /** Waits until team PE {@code pe}'s exit word reaches {@code e} (acquire). */
    public void awaitExitAcquire(int pe, long e) {
        MemorySegment seg = mapped(pe);
        long v;
        for (long w = 0; (v = (long) Comm.LONG.getAcquire(seg, exitOff)) < e; ) {
            w = waiter.idle(w, seg, exitOff, 8, v);
        }
        loaded(seg, exitOff);
    }

    // ---------------------------------------------------------------- node release (hierarchical syncs)

    /** Stores this (leader) PE's node-release word with release semantics and wakes its followers. */
    public void publishNodeReleaseAndWake(long word) {
        stored(self, nodeReleaseOff);
        Comm.LONG.setRelease(self, nodeReleaseOff, word);
        Waiter.signal(self);
    }

    /** Team PE {@code pe}'s (a leader's) node-release word, loaded with acquire semantics. */
    public long nodeReleaseWordAcquire(int pe) {
        MemorySegment seg = mapped(pe);
        long v = (long) Comm.LONG.getAcquire(seg, nodeReleaseOff);
        loaded(seg, nodeReleaseOff);
        return v;
    }

    /** One step of a wait for team PE {@code pe}'s node-release word to change from {@code v}. */
    public long idleOnNodeRelease(int pe, long v, long w) {
        return waiter.idle(w, mapped(pe), nodeReleaseOff, 8, v);
    }

    // ---------------------------------------------------------------- flags and counters in this PE's slot

    /** A word of this PE's slot (a round flag, a counter, an entry word) loaded with acquire semantics. */
    public long ownWordAcquire(long off) {
        long v = (long) Comm.LONG.getAcquire(self, off);
        loaded(self, off);
        return v;
    }

    /** One step of a wait for the word at {@code off} of this PE's slot to change from {@code v}. */
    public long idleOnOwnWord(long off, long v, long w) {
        return waiter.idle(w, self, off, 8, v);
    }

    /**
     * Raises the flag at {@code off} of world PE {@code pe} mapped on this node ({@code to}, from
     * {@link Comm#direct}): stores {@code word} with release semantics and wakes its sleepers.
     */
    public static void raiseFlagReleaseAndWake(MemorySegment to, long off, long word) {
        stored(to, off);
        Comm.LONG.setRelease(to, off, word);
        Waiter.signal(to);
    }

    // ---------------------------------------------------------------- scratch word (exchanges)

    /** Stores this PE's scratch word with release semantics (read by the others after a sync). */
    public void publishScratchRelease(long value) {
        Comm.LONG.setRelease(self, scratchOff, value);
    }

    /** Team PE {@code pe}'s scratch word, with acquire semantics, wherever it is. */
    public long scratchWordAcquire(int pe) {
        return comm.getValue(members[pe], scratchOff, 8);
    }

    // ---------------------------------------------------------------- entry words

    /**
     * Tells team PE {@code pe} this PE's {@code word} in its entry word {@code me} in one counted
     * push (an add of 0 to that word: the fence and the wake-up). The word is staged in this PE's
     * slot with a plain store, ordered by the push.
     */
    public void tellEntryWord(int pe, int me, long word) {
        Comm.LONG.set(self, entryOutOff, word);
        long at = entriesOff + 8L * me;
        comm.pushCounted(members[pe], at, entryOutOff, 8, at, 0);
    }

    /** Heap offset of this PE's entry word for team PE {@code pe} ({@link #ownWordAcquire} reads it). */
    public long entryWord(int pe) {
        return entriesOff + 8L * pe;
    }

    /** Heap offset of round word {@code i} of the slot's own region ({@link TeamSlots#ROUND_WORDS}). */
    public long roundWord(int i) {
        return roundWordsOff + 8L * i;
    }

    // ---------------------------------------------------------------- push buffers and their counters

    /** Heap offset of the push buffer used at epoch {@code e} (they are used in turn). */
    public long buffer(long e) {
        return bufferOff + (e & (TeamSlots.PUSH_BUFFERS - 1)) * TeamSlots.BUF_BYTES;
    }

    /** Heap offset of the counter of the push buffer of epoch {@code e}. */
    public long pushCounter(long e) {
        return pushCounterOff[(int) (e & (TeamSlots.PUSH_BUFFERS - 1))];
    }

    /**
     * Puts {@code n} bytes at this PE's heap offset {@code from} into team PE {@code pe}'s heap at
     * {@code off}, then adds {@code increment} to its counter of epoch {@code e}: the counter's
     * add is ordered after the data ({@link Comm#pushCounted}).
     */
    public void pushCounted(int pe, long e, long off, long from, long n, long increment) {
        comm.pushCounted(members[pe], off, from, n, pushCounter(e), increment);
    }

    /** Heap offset of the landing area ({@link TeamSlots#LANDING_BYTES}). */
    public long landing() {
        return landingOff;
    }

    /** Heap offset of the scalar words: a scalar reduction's source and, 8 bytes on, dest. */
    public long scalar() {
        return scalarOff;
    }
}
