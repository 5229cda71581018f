/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Log;
import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.Waiter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Collectors;

/**
 * The slot protocol of one team (issue 36): a flyweight over the team's {@link TeamSlot} that owns
 * its epochs, the operation identities published with them, the arrival, entry and exit words,
 * the push buffers and their counters, and the detection of collective calls that do not match.
 * The syncs are {@link SyncAlgorithm}s on top of it, the collectives ({@link Collectives}) use it;
 * other PEs are reached only through {@link Comm} (in {@link TeamSlot}).
 *
 * <p>Every team operation (a sync or a collective) has an epoch, the same sequence on every
 * member, and an identity: the operation (low byte), a hash of the arguments that must agree
 * (next byte) and a digest of every earlier operation's (third byte, so that a mismatch nobody
 * could see at once, e.g. broadcasts whose roots differ, is caught at the next operation in which
 * members wait for each other). Both are published together in the arrival word, so that members
 * that meet in different operations find out (see {@link #awaitArrival}).
 */
public final class SlotProtocol {
    /** Team operations, as published in arrival words. */
    public static final int OP_SYNC = 1;
    public static final int OP_BROADCAST = 2;
    public static final int OP_REDUCE = 3;
    public static final int OP_COLLECT = 4;
    public static final int OP_FCOLLECT = 5;
    public static final int OP_ALLTOALL = 6;
    public static final int OP_SCAN = 7;
    public static final int OP_MEMORY = 8;
    public static final int OP_FINALIZE = 9;
    public static final int OP_SPLIT = 10;
    private static final String[] OP_NAMES = {"an unknown operation", "barrier/sync", "broadcast", "a reduction",
        "collect", "fcollect", "alltoall(s)", "a scan", "malloc/calloc/align/realloc/free", "finalize",
        "a team split (split_strided/split_2d)"};

    final CollTeam team;
    public final PeState st;
    /** World PE number of each team PE (the team's array). */
    public final int[] members;
    /** This PE's number in the team. */
    public final int me;
    /** The team's name, for messages. */
    final String name;
    /** The words of this team's slot and its push buffers, reached through {@link Comm}. */
    final TeamSlot words;
    /** How the members sit on nodes. */
    public final NodeShape shape;
    /** Whether every member's heap is mapped here: then syncs and small collectives use the arrival words. */
    public final boolean allLocal;
    /** The team's sync, as the {@link Selector} picked it. */
    private final SyncAlgorithm sync;
    /** Heap offset of this team's landing area ({@link TeamSlots#LANDING_BYTES}). */
    public final long landingOff;
    /** Heap offset of this team's scalar words: a scalar reduction's source and, 8 bytes on, dest. */
    public final long scalarOff;
    /**
     * Network push collectives (members not all on this node): what each counter (one per push
     * buffer, by epoch; {@link TeamSlot#pushCounter}), to which senders add {@code 1 + (ident << 32)}
     * after putting their data into this PE's push buffer of that epoch, should hold by now if
     * every call matched.
     */
    private final long[] pushCounterExpected = new long[TeamSlots.PUSH_BUFFERS];
    /**
     * Every member has finished every team operation before this epoch (known from a sync, or
     * from having received data from every member at this epoch): a push buffer last used at
     * {@code allFinishedBefore - 1} or earlier may be written.
     */
    long allFinishedBefore;
    /**
     * The team PE whose exit from a linear barrier this PE waits for before leaving it, or -1: the
     * root of a broadcast that came straight after the previous barrier ({@link LinearSync}).
     */
    int exitGate = -1;
    /** Whether the last team operation of this PE was a barrier (linear); cleared by the next {@link #begin}. */
    boolean barrierJustEnded;
    /**
     * The number of team operations (syncs and collectives) this PE has entered: the same sequence
     * on every member, so it names an operation across the team.
     */
    private long epoch;
    /** What this PE is doing in the current team operation (see the class comment). */
    int ident = OP_SYNC;
    /** This PE's arguments of its current operation, for mismatch messages ({@link #ownArguments}). */
    private long argSize;
    private long argA;
    private long argB;
    private String argType;
    private int history;
    private long debugSequence;

    /**
     * @param slots the internal region's slots
     * @param slot the team's slot number
     */
    public SlotProtocol(CollTeam team, TeamSlots slots, int slot) {
        this.team = team;
        this.st = team.state();
        this.members = team.members();
        this.me = team.myIndex();
        this.name = team.name();
        this.words = new TeamSlot(st, slots, slot, members);
        this.shape = NodeShape.of(st, members);
        this.allLocal = shape.allLocal();
        this.landingOff = words.landing();
        this.scalarOff = words.scalar();
        this.sync = Selector.sync(this, Selector.label(st.config.barrierAlgorithm()), slots.flag(slot, 0));
    }

    /** Throws if the team was destroyed or shmem finalized. */
    public void checkLive() {
        team.checkLive();
    }

    /** World PE number of team PE {@code pe}, checked. */
    public int world(int pe) {
        return team.world(pe);
    }

    /** The name of this team's sync algorithm, for the JFR event and SHMEM_INFO. */
    public String syncAlgorithm() {
        return sync.name();
    }

    /** The heap of team PE {@code pe} mapped on this node, or null when only the transport reaches it. */
    public java.lang.foreign.MemorySegment mapped(int pe) {
        return words.mapped(pe);
    }

    /**
     * Team synchronization, by the team's {@link SyncAlgorithm}. Flags and arrival words hold
     * epochs, which only grow, so they never need resetting while the team lives.
     */
    public void syncInternal() {
        sync.sync(++epoch);
    }

    // ---------------------------------------------------------------- push buffers across nodes

    /**
     * Starts a push collective on a team whose members are not all on this node; returns its
     * epoch. Senders put into the receivers' push buffer of the epoch, last used
     * {@link TeamSlots#PUSH_BUFFERS} epochs before: unless every member is known to have finished
     * with it, a sync comes first (all members decide alike, since they know the same). So a run
     * of broadcasts syncs once every {@code PUSH_BUFFERS - 1} calls.
     */
    public long beginPush() {
        if (!pushBuffersFree(epoch + 1)) {
            syncInternal();
        }
        return beginEntered();
    }

    /**
     * Starts a push collective across nodes whose data fills the push buffers of {@code buffers}
     * consecutive epochs (at most {@code PUSH_BUFFERS / 2}, wrapping around the slot's buffers);
     * returns the first, e. Every member starts it at e as any operation (calls that do not match
     * meet at the same epoch and are caught) and then moves past all of them, so the next
     * operation starts at e + buffers: no buffer of this one is written again before every member
     * is known to have finished it (having finished e, where the last of them was e + buffers - 1).
     */
    public long beginPushRun(int buffers) {
        if (!pushBuffersFree(epoch + buffers)) {
            syncInternal();
        }
        long e = beginEntered();
        epoch += buffers - 1;
        return e;
    }

    /**
     * Whether every member is known, on every member, to have finished operation e -
     * {@link TeamSlots#PUSH_BUFFERS}, the last to use the push buffer and counter of epoch e.
     */
    public boolean pushBuffersFree(long e) {
        return allFinishedBefore > e - TeamSlots.PUSH_BUFFERS;
    }

    /** Puts {@code n} bytes at this PE's heap offset {@code from} into team PE {@code pe}'s push buffer of epoch {@code e}, at {@code at}, then counts it there. */
    public void pushTo(int pe, long e, long at, long from, long n) {
        pushInto(pe, e, buffer(e) + at, from, n);
    }

    /**
     * Puts {@code n} bytes at this PE's heap offset {@code from} into team PE {@code pe}'s heap at
     * {@code off} (its dest, or the landing area, which the caller knows to be free), then counts
     * it there at epoch {@code e}.
     */
    public void pushInto(int pe, long e, long off, long from, long n) {
        words.pushCounted(pe, e, off, from, n, 1 + ((long) ident << 32));
    }

    /**
     * Waits until {@code count} members have pushed to this PE at epoch {@code e}. The counter
     * must then hold exactly what matching calls add; anything else means some member called
     * another collective, or with other arguments, and the job is aborted.
     */
    public void awaitPushes(long e, int count, int fromLo, int fromHi) {
        int p = (int) (e & (TeamSlots.PUSH_BUFFERS - 1));
        long want = pushCounterExpected[p] += count * (1 + ((long) ident << 32));
        if (count == 0) {
            return;
        }
        startWait();
        long v = awaitCount(words.pushCounter(e), want, e, fromLo, fromHi);
        if (v != want) {
            throw pushesDoNotMatch(e);
        }
    }

    private RuntimeException pushesDoNotMatch(long e) {
        String message = "collective calls do not match on " + name + " (operation #" + e + "): PE " + st.me
                + " called " + opName(ident & 0xFF) + ", but a member that sent it data called another"
                + " collective, or passed other arguments (size, count, root or type)" + argumentsHint();
        return abortJob(message);
    }

    /**
     * For algorithms that push nothing into the push counters ({@link RoundPushes}): ends the job if
     * the counter of epoch {@code e} holds a push, which only a member in another operation there
     * (e.g. a broadcast's root) can have made. One read of a local word.
     */
    void checkNoPushes(long e) {
        long extra = words.ownWordAcquire(words.pushCounter(e)) - pushCounterExpected[(int) (e & (TeamSlots.PUSH_BUFFERS - 1))];
        if (extra != 0) {
            // Senders add 1 + (ident << 32) each: the identity shows if they all did the same.
            long n = (int) extra;
            long idents = extra - n >> 32;
            mismatch("a member that pushed data to it", e, n > 0 && idents % n == 0 ? (int) (idents / n) : 0);
        }
    }

    /**
     * Waits until at least {@code count} more pushes than {@link #awaitPushes} has awaited so far
     * have come to this PE at epoch {@code e}, from team PE {@code from}, which may run ahead (a
     * ring): their number is checked by the awaitPushes that ends the operation.
     */
    public void awaitPushesSoFar(long e, int count, int from) {
        startWait();
        long expected = pushCounterExpected[(int) (e & (TeamSlots.PUSH_BUFFERS - 1))];
        long v = awaitCount(words.pushCounter(e), expected + count, e, from, from + 1);
        // Every push so far must be of this operation: one from a member in another (which may have
        // gone on, unseen by the arrival checks) would pass for data of this one.
        long came = v - expected;
        if (came != (int) came * (1 + ((long) ident << 32))) {
            throw pushesDoNotMatch(e);
        }
    }

    /**
     * Publishes this PE's current operation in its arrival word (members not all on this node:
     * nobody waits on it, so no wake-up), for {@link #checkWhileWaiting}.
     */
    void publish(long e) {
        words.publishArrivalRelease(e << IDENT_BITS | ident);
    }

    /** When a wait that started at {@link #startWait} next looks at the members' arrival words, and the interval after that. */
    private long checkAt;
    private long checkEvery;

    /** The {@link LongWait} clock of the wait that {@link #startWait} started. */
    private long waitClock;

    void startWait() {
        waitClock = 0;
        checkEvery = 1_000_000;
        checkAt = System.nanoTime() + checkEvery;
    }

    /**
     * In a wait at epoch {@code e} for team PEs {@code [lo, hi)} (dissemination flags, pushes):
     * after 1 ms, then 2, 4, ... up to 1 s, reads their arrival words (through the transport when
     * they are off-node), so that a member in another operation at this epoch (calls that do not
     * match, e.g. a barrier against a reduction) ends the job instead of both waiting forever.
     * Returns whether it checked (the caller may check more at the same pace).
     */
    boolean checkWhileWaiting(long w, long e, int lo, int hi) {
        if (Waiter.pastSpin(w) && waitClock != LongWait.REPORTED && (waitClock = LongWait.tick(waitClock)) == LongWait.REPORTED) {
            // (In finalize a member through it may be gone with its memory: its word is not read.)
            reportLongWait("a word in this PE's slot from", "arrival word", lo, e,
                    (ident & 0xFF) == OP_FINALIZE ? 0 : words.arrivalWordAnywhereAcquire(lo));
        }
        // In finalize, members that are through it may be gone with their memory: only they can
        // be checked, and they matched (a member in another operation cannot be through it).
        if ((w & 15) != 0 || System.nanoTime() - checkAt < 0 || (ident & 0xFF) == OP_FINALIZE) {
            return false;
        }
        checkArrivals(e, lo, hi);
        checkEvery = Math.min(checkEvery * 2, 1_000_000_000L);
        checkAt = System.nanoTime() + checkEvery;
        return true;
    }

    /**
     * Waits until the count in the low 32 bits of the word at {@code off} of this PE's heap reaches
     * {@code count} (modulo 2^32: counters wrap), checking team PEs {@code [lo, hi)} as
     * {@link #checkWhileWaiting} does (after {@link #startWait}); returns the word.
     */
    long awaitCount(long off, long count, long e, int lo, int hi) {
        long v;
        for (long w = 0; (int) (v = words.ownWordAcquire(off)) - (int) count < 0; ) {
            w = words.idleOnOwnWord(off, v, w);
            checkWhileWaiting(w, e, lo, hi);
        }
        return v;
    }

    /**
     * Ends the job if one of team PEs {@code [lo, hi)} says, in its arrival word, that it is in
     * another operation at epoch {@code e}, or that it finalized at an earlier one (which this PE
     * spent on another collective that let it through, e.g. a broadcast's root): it will never come.
     */
    void checkArrivals(long e, int lo, int hi) {
        for (int i = lo; i < hi; i++) {
            if (i != me) {
                long v = words.arrivalWordAnywhereAcquire(i);
                long at = v >>> IDENT_BITS;
                if (at == e && (int) (v & IDENT_MASK) != ident || at < e && (v & 0xFF) == OP_FINALIZE) {
                    mismatch(i, at, (int) (v & IDENT_MASK));
                }
            }
        }
    }

    /**
     * Starts a team operation across nodes whose senders wait for their receivers'
     * {@linkplain #tellEntered entry} before pushing, and whose receivers wait for exactly those
     * pushes: it needs no sync for the push buffers' sake (a push to a PE at epoch e lands on the
     * counter of buffer e mod {@link TeamSlots#PUSH_BUFFERS} only once that PE has entered e).
     */
    public long beginEntered() {
        long e = ++epoch;
        publish(e);
        return e;
    }

    /**
     * Tells team PE {@code pe} that this PE has entered operation {@code e} (so its dest is free):
     * writes e and what this PE is doing (as in an arrival word) into this PE's entry word there,
     * in one push (the add of 0 to that word is the fence and wake-up). Every such word is awaited
     * in the same operation, so none arrives late.
     */
    public void tellEntered(int pe, long e) {
        words.tellEntryWord(pe, me, e << IDENT_BITS | ident);
    }

    /**
     * Waits until team PE {@code pe} has told this PE that it entered operation {@code e}; if it
     * is doing something else there (another collective, or other arguments), ends the job before
     * any data is sent to it.
     */
    public void awaitEntered(int pe, long e) {
        long off = words.entryWord(pe);
        long v;
        startWait();
        for (long w = 0; (v = words.ownWordAcquire(off)) >>> IDENT_BITS < e; ) {
            w = words.idleOnOwnWord(off, v, w);
            checkWhileWaiting(w, e, pe, pe + 1);
        }
        if ((int) (v & IDENT_MASK) != ident) {
            mismatch(pe, e, (int) (v & IDENT_MASK));
        }
    }

    /**
     * A node leader (of a hierarchical sync or collective): tells its node's other members that
     * operation {@code e} is done here (their data, if any, is in place), with release semantics.
     */
    void releaseNode(long e) {
        words.publishNodeReleaseAndWake(e << IDENT_BITS | ident);
    }

    /**
     * A follower: waits until its node's leader, team PE {@code leader}, releases epoch {@code e}
     * ({@link #releaseNode}). A leader that is in another operation at this epoch (calls that do
     * not match) never will: its arrival word says so, and the job is aborted.
     */
    void awaitNodeRelease(int leader, long e) {
        long v;
        for (long w = 0, t = 0; (v = words.nodeReleaseWordAcquire(leader)) >>> IDENT_BITS < e; ) {
            w = words.idleOnNodeRelease(leader, v, w);
            if (Waiter.pastSpin(w) && t != LongWait.REPORTED && (t = LongWait.tick(t)) == LongWait.REPORTED) {
                reportLongWait("the node release of", "node-release word", leader, e, v);
            }
            long a = words.arrivalWordAcquire(leader);
            if (a >>> IDENT_BITS == e && (int) (a & IDENT_MASK) != ident) {
                mismatch(leader, e, (int) (a & IDENT_MASK));
            }
            // A leader past e without releasing it (its release comes before it moves on, and the
            // arrival word's acquire shows it) went through e in an operation that releases nobody.
            if (a >>> IDENT_BITS > e && words.nodeReleaseWordAcquire(leader) >>> IDENT_BITS < e) {
                mismatch(leader, e, (int) (a & IDENT_MASK));
            }
        }
        if (v >>> IDENT_BITS == e && (int) (v & IDENT_MASK) != ident) {
            mismatch(leader, e, (int) (v & IDENT_MASK));
        }
    }

    /** After receiving from every member at epoch {@code e}: each has finished everything before it. */
    public void receivedFromAll(long e) {
        allFinishedBefore = e;
    }

    // ---------------------------------------------------------------- arrival words (members all on this node)

    /** The epoch of the last team operation this PE entered. */
    public long epoch() {
        return epoch;
    }

    /** Starts the next team operation; returns its epoch. */
    public long nextEpoch() {
        return ++epoch;
    }

    /**
     * Names the team operation this PE is starting (one of the {@code OP_} constants) and the
     * arguments that must be the same on every member; published with the next arrivals.
     */
    public void begin(int op, long args) {
        begin(op, args, -1);
    }

    /**
     * {@link #begin(int, long, int)} that also records this PE's arguments ({@code size} and
     * {@code a}, {@code b}, {@code type} as {@link #ownArguments} reads them) for the message of a
     * mismatch: plain stores next to the ones begin makes, nothing built unless a message is.
     */
    public void begin(int op, long args, int root, long size, long a, long b, String type) {
        argSize = size;
        argA = a;
        argB = b;
        argType = type;
        begin(op, args, root);
    }

    /**
     * {@link #begin(int, long)} of a broadcast from team PE {@code root} (-1: not a broadcast). If
     * the operation comes straight after a linear barrier, it sets whom this PE's next barrier
     * waits for: the root (unless this PE is the root), else nobody ({@link #exitGate}).
     */
    public void begin(int op, long args, int root) {
        if (barrierJustEnded) {
            barrierJustEnded = false;
            exitGate = root == me ? -1 : root;
        }
        history = (int) (((history * 31L + (ident & 0xFFFF)) * 0x9E3779B97F4A7C15L) >>> 56);
        long h = args * 0x9E3779B97F4A7C15L;
        ident = op | (int) ((h >>> 56) & 0xFF) << 8 | history << 16;
    }

    /**
     * Whether a sync is this PE's arrival plus a wait for every member's ({@link #syncInternal}):
     * then a caller can split it ({@link #enterSync}, {@link #awaitArrival} per member, {@link #synced})
     * and work on each member as soon as that one has arrived.
     */
    public boolean linearSync() {
        return sync instanceof LinearSync;
    }

    /** A {@linkplain #linearSync linear} sync's first half: arrives at the next epoch and returns it. */
    public long enterSync() {
        long e = ++epoch;
        arrive(e);
        return e;
    }

    /** A {@linkplain #linearSync linear} sync's end, once every member has arrived at {@code e}. */
    public void synced(long e) {
        allFinishedBefore = e;
    }

    /** Publishes that this PE has reached epoch {@code e} (its pushed data, if any, is in place). */
    public void arrive(long e) {
        words.publishArrivalReleaseAndWake(e << IDENT_BITS | ident);
    }

    /**
     * Waits until team PE {@code pe} has arrived at epoch {@code e}. If it arrived in another
     * operation (or with other arguments) the team's collective calls no longer match: the job is
     * aborted, naming both sides, since nothing that follows can be trusted. Of two members in
     * different operations at least one sees the other's word at exactly {@code e} (a member only
     * moves on after seeing everyone's), so a mismatch is always caught by someone.
     */
    public void awaitArrival(int pe, long e) {
        arrivedAt(pe, awaitReached(pe, e), e);
    }

    /** Team PE {@code pe}'s arrival word ({@link #arrive}), read now. */
    public long arrivalWord(int pe) {
        return words.arrivalWordAcquire(pe);
    }

    /**
     * Whether arrival word {@code v} of team PE {@code pe} says it has arrived at epoch {@code e};
     * if it arrived there in another operation, ends the job as {@link #awaitArrival} does.
     */
    public boolean arrivedAt(int pe, long v, long e) {
        if (v >>> IDENT_BITS < e) {
            return false;
        }
        if (v >>> IDENT_BITS == e && (int) (v & IDENT_MASK) != ident) {
            mismatch(pe, e, (int) (v & IDENT_MASK));
        }
        return true;
    }

    /** One step of a wait for team PE {@code pe}'s arrival word to change from {@code v} ({@link Waiter#idle}). */
    public long idleForArrival(int pe, long v, long w) {
        return words.idleOnArrival(pe, v, w);
    }

    /**
     * {@link #awaitArrival} of a member that cannot move past {@code e} before this PE lets it (a
     * follower waiting for its leader's release): its word past e means it went through e in
     * another operation, and the job is aborted.
     */
    void awaitArrivalAt(int pe, long e) {
        long v = awaitReached(pe, e);
        if (v >>> IDENT_BITS != e || (int) (v & IDENT_MASK) != ident) {
            mismatch(pe, e, (int) (v & IDENT_MASK));
        }
    }

    /** Waits until team PE {@code pe}'s arrival word reaches epoch {@code e}; returns the word. */
    long awaitReached(int pe, long e) {
        long v;
        for (long w = 0, t = 0; (v = arrivalWord(pe)) >>> IDENT_BITS < e; ) {
            if ((v & 0xFF) == OP_FINALIZE) {
                // It finalized at an earlier operation, which this PE (not finalized) spent on
                // another collective: it will never arrive (its finalize went through with that one).
                mismatch(pe, v >>> IDENT_BITS, (int) (v & IDENT_MASK));
            }
            w = idleForArrival(pe, v, w);
            if (Waiter.pastSpin(w) && t != LongWait.REPORTED && (t = LongWait.tick(t)) == LongWait.REPORTED) {
                reportLongWait("the arrival of", "arrival word", pe, e, v);
            }
        }
        return v;
    }

    /**
     * A collective wait has lasted {@link LongWait#REPORT_NANOS}: logs, once for that wait, what
     * this PE waits for (team PE {@code pe}'s {@code word}, last seen as {@code seen}) and its own
     * epoch and arrival word, so that the lines of the PEs of a hung job show which word is stale
     * on which side (epochs that differ, or a word one side wrote and the other does not see).
     */
    void reportLongWait(String what, String word, int pe, long e, long seen) {
        Log.CORE.warning("jshmem: PE " + st.me + ": still waiting after " + LongWait.REPORT_NANOS / 1_000_000_000L
                + " s in " + opName(ident & 0xFF) + " #" + e + " on " + name + " (" + syncAlgorithm() + " sync) for "
                + what + " team PE " + pe + " (PE " + members[pe] + "); its " + word + " says #" + (seen >>> IDENT_BITS)
                + " " + opName((int) seen & 0xFF) + "; this PE: epoch " + epoch + ", its arrival word #"
                + (words.arrivalWordAcquire(me) >>> IDENT_BITS) + ", all finished before #" + allFinishedBefore);
    }

    void mismatch(int pe, long e, int theirs) {
        mismatch("PE " + members[pe], e, theirs);
    }

    /** Ends the job: this PE's operation at epoch {@code e} and {@code who}'s, identity {@code theirs}, do not match. */
    private void mismatch(String who, long e, int theirs) {
        int mine = ident & 0xFF;
        int op = theirs & 0xFF;
        String how = op != mine ? "" : ((theirs ^ ident) & 0xFF00) != 0
                ? " with different arguments (size, count, root or type)" + argumentsHint()
                : " after an earlier collective call that did not match (e.g. broadcasts with different roots)";
        String message = "collective calls do not match on " + name + " (operation #" + e + "): PE " + st.me + " called "
                + opName(mine) + " while " + who + " called " + opName(op) + how
                + (op == OP_FINALIZE ? " (it will never join this " + opName(mine) + ")" : "");
        throw abortJob(message);
    }

    /**
     * "; PE 3 passed nelems 4, op SUM, type long" (this PE's arguments of its current operation;
     * the other side's are known only as a hash), then, without SHMEM_DEBUG, where to get both.
     */
    private String argumentsHint() {
        String own = ownArguments(ident & 0xFF);
        return (own == null ? "" : "; PE " + st.me + " passed " + own)
                + (st.config.debug() ? "" : " (set SHMEM_DEBUG=1 for both sides' arguments)");
    }

    /** This PE's arguments of operation {@code op} as {@link #begin(int, long, int, long, long, long, String)} recorded them, or null. */
    private String ownArguments(int op) {
        return switch (op) {
            case OP_BROADCAST -> "nbytes " + argSize + ", root " + argA;
            case OP_FCOLLECT -> "nbytes " + argSize;
            case OP_ALLTOALL -> "nbytes " + argSize + ", dst " + argA + ", sst " + argB;
            case OP_REDUCE -> "nelems " + argSize + ", op " + io.jshmem.ReduceOp.values()[(int) argA] + ", type " + argType;
            case OP_SCAN -> "nelems " + argSize + ", " + (argA != 0 ? "inclusive" : "exclusive") + ", type " + argType;
            case OP_MEMORY -> "bytes " + argSize + (argA > 0 ? ", alignment " + argA : "");
            case OP_SPLIT -> argType != null ? argType + " xrange " + argSize
                    : "split_strided start " + argA + ", stride " + argB + ", size " + argSize;
            default -> null; // sync, finalize: no arguments; collect: sizes may differ between members
        };
    }

    /** Calls that do not match: nothing that follows can be trusted, so the whole job ends with {@code message}. */
    ShmemException abortJob(String message) {
        st.failed = true;
        Log.CORE.error("jshmem: PE " + st.me + ": " + message);
        st.bootstrap.abort(1, message); // ends the job (and this process)
        return st.error(message);
    }

    static String opName(int op) {
        return op > 0 && op < OP_NAMES.length ? OP_NAMES[op] : OP_NAMES[0];
    }

    /** The epoch of the last linear barrier team PE {@code pe} left (tests). */
    public long exitEpoch(int pe) {
        return words.exitWordAcquire(pe);
    }

    /** Waits until team PE {@code pe} has left the linear barrier of epoch {@code e} (it has seen every arrival). */
    void awaitExit(int pe, long e) {
        words.awaitExitAcquire(pe, e);
    }

    /** Waits until every other member has arrived at epoch {@code e}, in the same operation. */
    public void awaitAll(long e) {
        for (int i = 0; i < members.length; i++) {
            if (i != me) {
                awaitArrival(i, e);
            }
        }
    }

    /**
     * Before this PE writes its push buffer for epoch {@code e}: that buffer was last written at
     * epoch e-2, and a member that has arrived at e-1 has finished reading it.
     */
    public void awaitBufferFree(long e) {
        for (int i = 0; i < members.length; i++) {
            if (i != me) {
                awaitReached(i, e - 1);
            }
        }
    }

    /** Heap offset of the push buffer used at epoch {@code e} (they are used in turn). */
    public long buffer(long e) {
        return words.buffer(e);
    }

    /**
     * Allgather of one long per member through the slot's scratch word (collective): each member
     * publishes its value, then reads everyone's. Used for agreements and SHMEM_DEBUG checks.
     */
    public long[] exchange(long value) {
        return exchange(value, new long[members.length]);
    }

    /** {@link #exchange(long)} into {@code all} (one element per member), which it returns. */
    public long[] exchange(long value, long[] all) {
        words.publishScratchRelease(value);
        syncInternal();
        for (int i = 0; i < members.length; i++) {
            all[i] = words.scratchWordAcquire(i);
        }
        syncInternal();
        return all;
    }

    /** SHMEM_DEBUG: {@link #checkSameArgs(String, String, long, String, long, String, long)} for one argument. */
    public void checkSameArgs(String routine, String aName, long a) {
        if (st.config.debug()) {
            checkSame(routine, new String[] {aName}, new long[] {a});
        }
    }

    /** SHMEM_DEBUG: {@link #checkSameArgs(String, String, long, String, long, String, long)} for two arguments. */
    public void checkSameArgs(String routine, String aName, long a, String bName, long b) {
        if (st.config.debug()) {
            checkSame(routine, new String[] {aName, bName}, new long[] {a, b});
        }
    }

    /**
     * SHMEM_DEBUG: checks that every member called {@code routine} with the same arguments (each
     * named, for the message); throws on every member, naming each argument that differs, its values
     * and the PEs that passed them. All members see the same data, so either all throw or none.
     * Fixed arities, so that calls without SHMEM_DEBUG allocate nothing.
     */
    public void checkSameArgs(String routine, String aName, long a, String bName, long b, String cName, long c) {
        if (st.config.debug()) {
            checkSame(routine, new String[] {aName, bName, cName}, new long[] {a, b, c});
        }
    }

    private void checkSame(String routine, String[] names, long[] values) {
        long seq = ++debugSequence;
        StringBuilder diff = new StringBuilder();
        for (int k = 0; k < names.length; k++) {
            String labelled = differences(names[k], exchange(values[k]));
            if (labelled != null) {
                diff.append(diff.isEmpty() ? "" : "; ").append(labelled);
            }
        }
        if (!diff.isEmpty()) {
            throw st.error("SHMEM_DEBUG: " + routine + " #" + seq + " on " + team
                    + " was called with different arguments on different PEs: " + diff);
        }
    }

    /** "root 0 on PEs 0, 2 vs 1 on PEs 1, 3" when the members' values differ, else null. */
    private String differences(String name, long[] all) {
        Map<Long, List<Integer>> pesByValue = new LinkedHashMap<>();
        for (int i = 0; i < all.length; i++) {
            pesByValue.computeIfAbsent(all[i], v -> new ArrayList<>()).add(members[i]);
        }
        if (pesByValue.size() == 1) {
            return null;
        }
        StringJoiner s = new StringJoiner(" vs ", name + " ", "");
        pesByValue.forEach((value, pes) -> s.add(value + (pes.size() == 1 ? " on PE " : " on PEs ")
                + pes.stream().map(String::valueOf).collect(Collectors.joining(", "))));
        return s.toString();
    }

    /** Bits of an arrival word below the epoch: the operation's identity. */
    static final int IDENT_BITS = 24;
    static final long IDENT_MASK = (1L << IDENT_BITS) - 1;
}
