/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.team;

import io.jshmem.ShmemContext;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.SymArray;
import io.jshmem.TeamConfig;
import io.jshmem.TeamPair;
import io.jshmem.core.base.Flight;
import io.jshmem.core.base.Log;
import io.jshmem.core.coll.Collectives;
import io.jshmem.core.coll.KnomialTree;
import io.jshmem.core.coll.TeamSlot;
import io.jshmem.core.coll.TeamSlots;
import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.SymArrayImpl;
import io.jshmem.core.comm.Waiter;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.StringJoiner;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A team: its members (world PE numbers in team order), its synchronization, its splits. Each
 * team owns one of {@link TeamSlots#MAX_TEAMS} slots of the internal symmetric region, where its
 * barrier flags and scratch words live on every member; members agree on a free slot when the
 * team is created. Collectives are in {@link Collectives}.
 */
public final class TeamImpl implements ShmemTeam {
    /** The team registry of this PE (new teams, contexts, lookup). */
    private final TeamRegistry rt;
    public final PeState st;
    /** World PE number of each team PE. */
    public final int[] members;
    /** This PE's number in the team. */
    public final int me;
    public final int slot;
    private final TeamConfig config;
    private final String name;
    /** The words of this team's slot and its push buffers, reached through {@link Comm}. */
    private final TeamSlot words;
    final Collectives collectives;
    /** Per dissemination round: the flag's heap offset, the world PE signalled and its mapped heap (null if remote). */
    private final long[] roundOffset;
    private final int[] roundPe;
    private final MemorySegment[] roundTarget;
    /** Per round: whether the flag this PE waits for is raised by a PE on this node (else through the transport). */
    private final boolean[] roundFromLocal;
    /** Per round: the team PE that raises the flag this PE waits for. */
    private final int[] roundFrom;
    /**
     * Hierarchical sync (members on several nodes, some node with several): the members of each
     * node arrive on their node's leader (its lowest team PE), the leaders run the dissemination
     * rounds among themselves, and each leader releases its node ({@link TeamSlot#publishNodeReleaseAndWake}). So
     * a sync costs ceil(log2 nodes) network rounds instead of ceil(log2 members).
     */
    private final boolean hierarchical;
    /**
     * Whether syncs gather at team PE 0 and are released from there ({@link #centralSync}): members
     * not all on this node, no node with several of them (else {@link #hierarchical}).
     */
    private final boolean central;
    /** Heap offsets of the flag lines of a {@link #centralSync}: arrivals (at team PE 0), releases. */
    private final long centralArriveOff;
    private final long centralReleaseOff;
    /** This PE's node leader (team PE); for a leader, the other members of its node. */
    private final int leader;
    private final int[] followers;
    /** Dissemination syncs so far. */
    private long disseminations;
    /**
     * Flags raised through the transport: one word per parity of the dissemination count, the
     * second word of the round's line (the sender can be one sync ahead, and its increments may
     * arrive in any order: with a word per parity, a word reaches its count only with the right
     * sync's increment). Per parity: the syncs so far (what the word counts, low 32 bits), and what
     * the word holds when every member made the same calls (each sync adds {@code 1 + (ident << 32)}).
     */
    private final long[] remoteSyncs = new long[2];
    private final long[] remoteFlagSum = new long[2];
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
    private long allFinishedBefore;
    /** Whether every member's heap is mapped here: then syncs and small collectives use the arrival words. */
    public final boolean allLocal;
    /** Whether syncs wait for every member's arrival word (else a dissemination barrier). */
    private final boolean linearSync;
    /**
     * The team PE whose exit from a linear barrier this PE waits for before leaving it, or -1: the
     * root of a broadcast that came straight after the previous barrier. In a loop of barrier
     * then broadcast the root then leaves first and pushes its data before the others look for it;
     * without the gate the others, leaving first, waited for a root that had yet to get a core
     * inside the broadcast (4 PEs on 2 cores: 40% of their calls took a context switch, 10-15 us).
     * Each PE decides alone (the root always publishes its exit), so no agreement is needed; a
     * loop of barriers alone is not gated (there a member that leaves before an off-CPU root
     * goes on into the next barrier, and the root later passes both in one time slice).
     */
    private int exitGate = -1;
    /** Whether the last team operation of this PE was a barrier (linear); cleared by the next {@link #begin}. */
    private boolean barrierJustEnded;
    /** Heap offset of this team's landing area ({@link TeamSlots#LANDING_BYTES}). */
    public final long landingOff;
    /** Heap offset of this team's scalar words: a scalar reduction's source and, 8 bytes on, dest. */
    public final long scalarOff;
    /**
     * The number of team operations (syncs and collectives) this PE has entered: the same sequence
     * on every member, so it names an operation across the team.
     */
    private long epoch;
    /**
     * What this PE is doing in the current team operation: the operation (low byte), a hash of the
     * arguments that must agree (next byte) and a digest of every earlier operation's (third
     * byte, so that a mismatch nobody could see at once, e.g. broadcasts whose roots differ, is
     * caught at the next operation in which members wait for each other). Published with the epoch
     * in the arrival word, so that members that meet in different operations find out (see
     * {@link #awaitArrival}).
     */
    private int ident = OP_SYNC;
    /** This PE's arguments of its current operation, for mismatch messages ({@link #ownArguments}). */
    private long argSize;
    private long argA;
    private long argB;
    private String argType;
    private int history;

    /** Teams across nodes of up to this many members sync through team PE 0 ({@link #centralSync}) in {@code auto}. */
    public static final int CENTRAL_SYNC_MAX = 8;
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
    private static final String[] OP_NAMES = {"an unknown operation", "barrier/sync", "broadcast", "a reduction",
        "collect", "fcollect", "alltoall(s)", "a scan", "malloc/calloc/align/realloc/free", "finalize"};
    private long debugSequence;
    /** Syncs and collectives of this team recorded as JFR events: their {@code sequence} field. */
    private long flightSequence;
    private volatile boolean destroyed;

    public TeamImpl(TeamRegistry rt, String name, int[] members, int slot, TeamConfig config) {
        this.rt = rt;
        this.st = rt.st;
        this.name = name;
        this.members = members;
        this.slot = slot;
        this.config = config;
        int my = -1;
        boolean local = true;
        for (int i = 0; i < members.length; i++) {
            if (members[i] == st.me) {
                my = i;
            }
            local &= st.comm.direct(members[i]) != null;
        }
        if (my < 0) {
            throw new IllegalStateException("PE " + st.me + " is not in team " + name);
        }
        this.me = my;
        this.words = new TeamSlot(st, rt.slots(), slot, members);
        long flags0 = rt.slots().flag(slot, 0);
        this.allLocal = local;
        io.jshmem.core.base.Config.BarrierAlgorithm barrier = st.config.barrierAlgorithm();
        this.linearSync = local && (barrier == io.jshmem.core.base.Config.BarrierAlgorithm.LINEAR
                || barrier == io.jshmem.core.base.Config.BarrierAlgorithm.AUTO && members.length <= LINEAR_SYNC_MAX);
        int n = members.length;
        // Node groups: members that map each other's heaps (the same node, when on-node PEs are
        // mapped at all); every member computes the same groups from the same data.
        int[] leaderOf = new int[n];
        Map<String, Integer> firstOnNode = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            String node = st.config.directOnNode() ? st.heap.nodeOf(members[i]) : "PE " + members[i];
            int index = i;
            leaderOf[i] = firstOnNode.computeIfAbsent(node, x -> index);
        }
        this.hierarchical = !local && firstOnNode.size() < n && barrier != io.jshmem.core.base.Config.BarrierAlgorithm.DISSEMINATION
                && barrier != io.jshmem.core.base.Config.BarrierAlgorithm.CENTRAL;
        this.central = !local && !hierarchical && n > 1
                && (barrier == io.jshmem.core.base.Config.BarrierAlgorithm.CENTRAL
                        || barrier == io.jshmem.core.base.Config.BarrierAlgorithm.AUTO && n > 2 && n <= CENTRAL_SYNC_MAX);
        this.centralArriveOff = flags0;
        this.centralReleaseOff = flags0 + TeamSlots.LINE;
        this.leader = hierarchical ? leaderOf[my] : my;
        this.followers = hierarchical && leader == my
                ? IntStream.range(0, n).filter(i -> i != leader && leaderOf[i] == leader).toArray()
                : new int[0];
        // The dissemination rounds: among all members, or among the node leaders (none for a follower).
        int[] among = hierarchical
                ? IntStream.range(0, n).filter(i -> leaderOf[i] == i).toArray()
                : IntStream.range(0, n).toArray();
        int rank = Arrays.binarySearch(among, my);
        int k = among.length;
        int rounds = rank < 0 ? 0 : KnomialTree.ceilLog(k, 2);
        this.roundOffset = new long[rounds];
        this.roundPe = new int[rounds];
        this.roundTarget = new MemorySegment[rounds];
        this.roundFromLocal = new boolean[rounds];
        this.roundFrom = new int[rounds];
        for (int r = 0; r < rounds; r++) {
            roundOffset[r] = flags0 + (long) r * TeamSlots.LINE;
            roundPe[r] = members[among[(rank + (1 << r)) % k]];
            roundTarget[r] = st.comm.direct(roundPe[r]);
            roundFrom[r] = among[((rank - (1 << r)) % k + k) % k];
            roundFromLocal[r] = st.comm.direct(members[roundFrom[r]]) != null;
        }
        this.landingOff = words.landing();
        this.scalarOff = words.scalar();
        this.collectives = new Collectives(this);
    }

    /** Up to this many members (all on this node), a sync waits for each member's arrival word directly. */
    public static final int LINEAR_SYNC_MAX = 8;

    // ---------------------------------------------------------------- identity

    @Override
    public int myPe() {
        checkLive();
        return me;
    }

    @Override
    public int nPes() {
        checkLive();
        return members.length;
    }

    @Override
    public Optional<TeamConfig> getConfig(long configMask) {
        checkLive();
        return Optional.of((configMask & TeamConfig.NUM_CONTEXTS) != 0 ? config : TeamConfig.DEFAULT);
    }

    @Override
    public int translatePe(int pe, ShmemTeam destTeam) {
        checkLive();
        if (destTeam == ShmemTeam.INVALID) {
            return -1;
        }
        TeamImpl dest = rt.team(destTeam);
        if (pe < 0 || pe >= members.length) {
            return -1;
        }
        return dest.indexOfWorld(members[pe]);
    }

    int indexOfWorld(int worldPe) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == worldPe) {
                return i;
            }
        }
        return -1;
    }

    /** World PE number of team PE {@code pe}, checked. */
    public int world(int pe) {
        if (pe < 0 || pe >= members.length) {
            throw st.error("PE " + pe + " is not in " + this + " (team PEs are 0.." + (members.length - 1) + ")");
        }
        return members[pe];
    }

    @Override
    public Optional<MemorySegment> ptr(SymArray<?> object, int pe) {
        checkLive();
        SymArrayImpl<?> a = st.check(object);
        MemorySegment s = words.mapped(checkedPe(pe));
        return s == null ? Optional.empty() : Optional.of(s.asSlice(a.offset, a.byteSize()));
    }

    private int checkedPe(int pe) {
        world(pe);
        return pe;
    }

    public void checkLive() {
        if (st.finalized) {
            throw st.afterFinalize();
        }
        if (destroyed) {
            throw st.error(this + " used after it was destroyed (closed)");
        }
    }

    boolean isDestroyed() {
        return destroyed;
    }

    // ---------------------------------------------------------------- synchronization

    @Override
    public void sync() {
        checkLive();
        Flight.Sync ev = syncEvent(this, "team_sync");
        begin(OP_SYNC, 0);
        syncInternal();
        if (ev != null) {
            ev.commit();
        }
    }

    /** The algorithm of this team's syncs, as {@link #syncInternal} picks it, for the JFR event. */
    private String syncAlgorithm() {
        return linearSync ? "linear" : hierarchical ? "hierarchical" : central ? "central" : "dissemination";
    }

    /** A started {@link Flight.Sync} event, or null while JFR does not record it. */
    public static Flight.Sync syncEvent(TeamImpl team, String routine) {
        if (!Flight.recorderStarted() || !Flight.Sync.ON.isEnabled()) {
            return null;
        }
        Flight.Sync e = new Flight.Sync();
        e.team = team.name;
        e.routine = routine;
        e.sequence = ++team.flightSequence;
        e.algorithm = team.syncAlgorithm();
        e.begin();
        return e;
    }

    /**
     * Team synchronization. All members on this node and few of them: each member publishes the
     * operation's epoch in its arrival word and waits until every other member's word reaches it (one
     * store, N-1 loads of lines that change once per operation). Otherwise a dissemination barrier:
     * in round r, team PE i raises the round-r flag of team PE i+2^r and waits for its own from
     * i-2^r; ceil(log2 N) rounds. Flags and arrival words hold epochs, which only grow, so they
     * never need resetting while the team lives. A flag raised through the network transport is an
     * increment instead (a count of dissemination syncs; {@link Comm#flagAdd}): it needs no completion
     * round trip, and increments cannot be overtaken by an older value the way unordered puts can.
     * Across nodes with several members on some node the sync is {@linkplain #hierarchical
     * hierarchical}: arrival words to the node leader, dissemination among leaders, release.
     */
    public void syncInternal() {
        long e = ++epoch;
        if (linearSync) {
            arrive(e);
            awaitAll(e);
            allFinishedBefore = e;
            if ((ident & 0xFF) == OP_SYNC) {
                if (exitGate >= 0) {
                    awaitExit(exitGate, e);
                }
                words.publishExitReleaseAndWake(e);
                barrierJustEnded = true;
            }
            return;
        }
        if (hierarchical) {
            arrive(e);
            if (leader != me) {
                awaitRelease(e);
                allFinishedBefore = e;
                return;
            }
            for (int i : followers) {
                awaitArrival(i, e);
            }
        } else if (allLocal) {
            // Published first: a member in a push collective at this epoch (calls that do not
            // match) sees a sync here and says so, instead of both waiting for each other.
            arrive(e);
        } else {
            publish(e);
            if (central) {
                centralSync(e);
                allFinishedBefore = e;
                return;
            }
        }
        int p = (int) (++disseminations & 1);
        int d = (int) ++remoteSyncs[p];
        long increment = 1 + ((long) ident << 32);
        long before = remoteFlagSum[p];
        long sum = remoteFlagSum[p] += increment;
        for (int r = 0; r < roundOffset.length; r++) {
            long off = roundOffset[r];
            MemorySegment to = roundTarget[r];
            if (to != null) {
                TeamSlot.raiseFlagReleaseAndWake(to, off, e << IDENT_BITS | ident);
            } else {
                st.comm.flagAdd(roundPe[r], off + p * 8L, increment);
            }
            int from = roundFrom[r];
            long v;
            startWait();
            if (roundFromLocal[r]) {
                for (long w = 0; (v = words.ownWordAcquire(off)) >>> IDENT_BITS < e; ) {
                    w = words.idleOnOwnWord(off, v, w);
                    checkWhileWaiting(w, e, from, from + 1);
                }
                if (v >>> IDENT_BITS == e && (int) (v & IDENT_MASK) != ident) {
                    mismatch(from, e, (int) (v & IDENT_MASK));
                }
            } else {
                // The low 32 bits count the sender's syncs (compared modulo 2^32); at exactly this
                // sync the whole word must be this PE's sum, else some call of the sender differed.
                v = awaitCount(off + p * 8L, d, e, from, from + 1);
                if ((int) v == d && v != sum) {
                    mismatch(from, e, (int) ((v - before - 1) >>> 32) & (int) IDENT_MASK);
                }
            }
        }
        if (hierarchical) {
            words.publishNodeReleaseAndWake(e << IDENT_BITS | ident);
        }
        allFinishedBefore = e;
    }

    /**
     * A sync gathered at team PE 0 (members not all on this node): each member adds to PE 0's
     * arrival counter and waits for its release; PE 0 waits for all, then releases each. Two hops
     * like a dissemination sync of 3-4 members, with fewer messages (2(N-1) instead of N log2 N),
     * and PE 0 leaves first, so a collective rooted there that follows starts at once (4 PEs on 2
     * cores over TCP: a broadcast's members waited 100-300 us for a root that left its
     * dissemination barrier late). Counters as in the dissemination rounds: the low 32 bits count,
     * the high ones sum the senders' operation identities, so mismatched calls show.
     */
    private void centralSync(long e) {
        int p = (int) (++disseminations & 1);
        long d = ++remoteSyncs[p];
        long increment = 1 + ((long) ident << 32);
        int n = members.length;
        startWait();
        if (me != 0) {
            long before = remoteFlagSum[p];
            long sum = remoteFlagSum[p] += increment;
            st.comm.flagAdd(members[0], centralArriveOff + p * 8L, increment);
            long v = awaitCount(centralReleaseOff + p * 8L, d, e, 0, 1);
            if ((int) v == (int) d && v != sum) {
                mismatch(0, e, (int) ((v - before - 1) >>> 32) & (int) IDENT_MASK);
            }
            return;
        }
        long sum = remoteFlagSum[p] += increment * (n - 1);
        long count = d * (n - 1);
        long v = awaitCount(centralArriveOff + p * 8L, count, e, 1, n);
        if ((int) v == (int) count && v != sum) {
            checkArrivals(e, 1, n); // names the member, if its arrival word still says
            throw abortJob("collective calls do not match on " + name + " (operation #" + e + "): PE " + st.me
                    + " called " + opName(ident & 0xFF) + ", but a member that arrived at it called another operation");
        }
        for (int k = 1; k < n; k++) {
            st.comm.flagAdd(members[k], centralReleaseOff + p * 8L, increment);
        }
    }

    /**
     * A follower in a hierarchical sync: waits until its leader releases epoch {@code e}. A
     * leader that is in another operation at this epoch (calls that do not match) never will: its
     * arrival word says so, and the job is aborted.
     */
    private void awaitRelease(long e) {
        long v;
        for (long w = 0; (v = words.nodeReleaseWordAcquire(leader)) >>> IDENT_BITS < e; ) {
            w = words.idleOnNodeRelease(leader, v, w);
            long a = words.arrivalWordAcquire(leader);
            if (a >>> IDENT_BITS == e && (int) (a & IDENT_MASK) != ident) {
                mismatch(leader, e, (int) (a & IDENT_MASK));
            }
        }
        if (v >>> IDENT_BITS == e && (int) (v & IDENT_MASK) != ident) {
            mismatch(leader, e, (int) (v & IDENT_MASK));
        }
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
     * Counts a push to team PE {@code pe} at epoch {@code e} that carries no data of its own (a
     * notice that data is ready, or that this PE is done with the receiver's).
     */
    void countPush(int pe, long e) {
        words.pushCounted(pe, e, 0, 0, 0, 1 + ((long) ident << 32));
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
            String message = "collective calls do not match on " + name + " (operation #" + e + "): PE " + st.me
                    + " called " + opName(ident & 0xFF) + ", but a member that sent it data called another"
                    + " collective, or passed other arguments (size, count, root or type)" + argumentsHint();
            throw abortJob(message);
        }
    }

    /**
     * Publishes this PE's current operation in its arrival word (members not all on this node:
     * nobody waits on it, so no wake-up), for {@link #checkWhileWaiting}.
     */
    private void publish(long e) {
        words.publishArrivalRelease(e << IDENT_BITS | ident);
    }

    /** When a wait that started at {@link #startWait} next looks at the members' arrival words, and the interval after that. */
    private long checkAt;
    private long checkEvery;

    private void startWait() {
        checkEvery = 1_000_000;
        checkAt = System.nanoTime() + checkEvery;
    }

    /**
     * In a wait at epoch {@code e} for team PEs {@code [lo, hi)} (dissemination flags, pushes):
     * after 1 ms, then 2, 4, ... up to 1 s, reads their arrival words (through the transport when
     * they are off-node), so that a member in another operation at this epoch (calls that do not
     * match, e.g. a barrier against a reduction) ends the job instead of both waiting forever.
     */
    private void checkWhileWaiting(long w, long e, int lo, int hi) {
        // In finalize, members that are through it may be gone with their memory: only they can
        // be checked, and they matched (a member in another operation cannot be through it).
        if ((w & 15) != 0 || System.nanoTime() - checkAt < 0 || (ident & 0xFF) == OP_FINALIZE) {
            return;
        }
        checkArrivals(e, lo, hi);
        checkEvery = Math.min(checkEvery * 2, 1_000_000_000L);
        checkAt = System.nanoTime() + checkEvery;
    }

    /**
     * Waits until the count in the low 32 bits of the word at {@code off} of this PE's heap reaches
     * {@code count} (modulo 2^32: counters wrap), checking team PEs {@code [lo, hi)} as
     * {@link #checkWhileWaiting} does (after {@link #startWait}); returns the word.
     */
    private long awaitCount(long off, long count, long e, int lo, int hi) {
        long v;
        for (long w = 0; (int) (v = words.ownWordAcquire(off)) - (int) count < 0; ) {
            w = words.idleOnOwnWord(off, v, w);
            checkWhileWaiting(w, e, lo, hi);
        }
        return v;
    }

    /** Ends the job if one of team PEs {@code [lo, hi)} says, in its arrival word, that it is in another operation at epoch {@code e}. */
    private void checkArrivals(long e, int lo, int hi) {
        for (int i = lo; i < hi; i++) {
            if (i != me) {
                long v = words.arrivalWordAnywhereAcquire(i);
                if (v >>> IDENT_BITS == e && (int) (v & IDENT_MASK) != ident) {
                    mismatch(i, e, (int) (v & IDENT_MASK));
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
        return linearSync;
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

    /** Bits of an arrival word below the epoch: the operation's identity. */
    private static final int IDENT_BITS = 24;
    private static final long IDENT_MASK = (1L << IDENT_BITS) - 1;

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

    /** Waits until team PE {@code pe}'s arrival word reaches epoch {@code e}; returns the word. */
    private long awaitReached(int pe, long e) {
        long v;
        for (long w = 0; (v = arrivalWord(pe)) >>> IDENT_BITS < e; ) {
            w = idleForArrival(pe, v, w);
        }
        return v;
    }

    private void mismatch(int pe, long e, int theirs) {
        int mine = ident & 0xFF;
        int op = theirs & 0xFF;
        String how = op != mine ? "" : ((theirs ^ ident) & 0xFF00) != 0
                ? " with different arguments (size, count, root or type)" + argumentsHint()
                : " after an earlier collective call that did not match (e.g. broadcasts with different roots)";
        String message = "collective calls do not match on " + name + " (operation #" + e + "): PE " + st.me + " called "
                + opName(mine) + " while PE " + members[pe] + " called " + opName(op) + how
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
            default -> null; // sync, finalize: no arguments; collect: sizes may differ between members
        };
    }

    /** Calls that do not match: nothing that follows can be trusted, so the whole job ends with {@code message}. */
    private ShmemException abortJob(String message) {
        st.failed = true;
        Log.CORE.error("jshmem: PE " + st.me + ": " + message);
        st.bootstrap.abort(1, message); // ends the job (and this process)
        return st.error(message);
    }

    private static String opName(int op) {
        return op > 0 && op < OP_NAMES.length ? OP_NAMES[op] : OP_NAMES[0];
    }

    /** The epoch of the last linear barrier team PE {@code pe} left (tests). */
    public long exitEpoch(int pe) {
        return words.exitWordAcquire(pe);
    }

    /** Waits until team PE {@code pe} has left the linear barrier of epoch {@code e} (it has seen every arrival). */
    private void awaitExit(int pe, long e) {
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
            throw st.error("SHMEM_DEBUG: " + routine + " #" + seq + " on " + this
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

    // ---------------------------------------------------------------- splits

    @Override
    public Optional<ShmemTeam> splitStrided(int start, int stride, int size, TeamConfig config, long configMask) {
        checkLive();
        checkTriplet(start, stride, size);
        checkSameArgs("team split_strided", "start", start, "stride", stride, "size", size);
        int[] slots = rt.slots().agree(this, 1);
        int[] newMembers = new int[size];
        boolean in = false;
        for (int i = 0; i < size; i++) {
            newMembers[i] = members[start + i * stride];
            in |= newMembers[i] == st.me;
        }
        TeamImpl team = in ? rt.newTeam("team(" + this.name + ".split(" + start + "," + stride + "," + size + "))",
                newMembers, slots[0], effective(config, configMask)) : null;
        syncInternal(); // every new member has reset its slot before anyone uses the team
        return Optional.ofNullable(team);
    }

    /**
     * The OpenSHMEM 1.6 triplet rules: size at least 1; stride 0 only with size 1; every
     * {@code start + i*stride} (i < size) a PE of this team, so the members ascend (stride > 0) or
     * descend (stride < 0) without wrapping around.
     */
    private void checkTriplet(int start, int stride, int size) {
        int n = members.length;
        String what = "team split_strided(start=" + start + ", stride=" + stride + ", size=" + size + ") on " + this
                + " of " + n + " PEs: ";
        if (size < 1) {
            throw st.error(what + "size must be at least 1");
        }
        if (stride == 0 && size != 1) {
            throw st.error(what + "stride 0 is valid only with size 1");
        }
        if (start < 0 || start >= n) {
            throw st.error(what + "start is not a PE of the parent team (0.." + (n - 1) + ")");
        }
        long last = start + (long) (size - 1) * stride;
        if (last < 0 || last >= n) {
            throw st.error(what + "the triplet leaves the parent team: member " + (size - 1) + " would be parent PE "
                    + last + " (parent PEs are 0.." + (n - 1) + "; no wrap-around)");
        }
    }

    @Override
    public TeamPair split2d(int xRange, TeamConfig xConfig, long xMask, TeamConfig yConfig, long yMask) {
        checkLive();
        int n = members.length;
        if (xRange < 1) {
            throw st.error("team split_2d: xrange " + xRange + " must be at least 1");
        }
        int x = Math.min(xRange, n);
        checkSameArgs("team split_2d", "xrange", x);
        int[] slots = rt.slots().agree(this, 2);
        int row = me / x;
        int col = me % x;
        int rowStart = row * x;
        int[] xMembers = new int[Math.min(x, n - rowStart)];
        for (int i = 0; i < xMembers.length; i++) {
            xMembers[i] = members[rowStart + i];
        }
        int[] yMembers = new int[(n - col + x - 1) / x];
        for (int i = 0; i < yMembers.length; i++) {
            yMembers[i] = members[col + i * x];
        }
        TeamImpl xTeam = rt.newTeam("team(" + name + ".x" + row + ")", xMembers, slots[0], effective(xConfig, xMask));
        TeamImpl yTeam = rt.newTeam("team(" + name + ".y" + col + ")", yMembers, slots[1], effective(yConfig, yMask));
        syncInternal();
        return new TeamPair(xTeam, yTeam);
    }

    private static TeamConfig effective(TeamConfig config, long mask) {
        return config != null && (mask & TeamConfig.NUM_CONTEXTS) != 0 ? config : TeamConfig.DEFAULT;
    }

    @Override
    public ShmemContext createCtx(long options) {
        checkLive();
        return rt.newContext(this, options);
    }

    @Override
    public void close() {
        if (slot < TeamSlots.FIRST_FREE_SLOT) {
            throw st.error("the predefined " + this + " cannot be destroyed");
        }
        if (destroyed || st.finalized) {
            return;
        }
        destroyed = true;
        rt.teamDestroyed(this);
    }

    // ---------------------------------------------------------------- collectives (see Collectives)

    @Override
    public <A> void broadcast(SymArray<A> dest, SymArray<A> source, long nelems, int root) {
        Flight.Collective ev = collectiveEvent("broadcast", dest, nelems, false);
        collectives.broadcast(dest, source, nelems, root, false);
        end(ev);
    }

    @Override
    public void broadcastmem(SymArray<?> dest, SymArray<?> source, long nbytes, int root) {
        Flight.Collective ev = collectiveEvent("broadcastmem", dest, nbytes, true);
        collectives.broadcast(dest, source, nbytes, root, true);
        end(ev);
    }

    @Override
    public <A> void collect(SymArray<A> dest, SymArray<A> source, long nelems) {
        Flight.Collective ev = collectiveEvent("collect", dest, nelems, false);
        collectives.collect(dest, source, nelems, false, false);
        end(ev);
    }

    @Override
    public void collectmem(SymArray<?> dest, SymArray<?> source, long nbytes) {
        Flight.Collective ev = collectiveEvent("collectmem", dest, nbytes, true);
        collectives.collect(dest, source, nbytes, true, false);
        end(ev);
    }

    @Override
    public <A> void fcollect(SymArray<A> dest, SymArray<A> source, long nelems) {
        Flight.Collective ev = collectiveEvent("fcollect", dest, nelems, false);
        collectives.collect(dest, source, nelems, false, true);
        end(ev);
    }

    @Override
    public void fcollectmem(SymArray<?> dest, SymArray<?> source, long nbytes) {
        Flight.Collective ev = collectiveEvent("fcollectmem", dest, nbytes, true);
        collectives.collect(dest, source, nbytes, true, true);
        end(ev);
    }

    @Override
    public <A> void alltoall(SymArray<A> dest, SymArray<A> source, long nelems) {
        Flight.Collective ev = collectiveEvent("alltoall", dest, nelems, false);
        collectives.alltoall(dest, source, 1, 1, nelems, false);
        end(ev);
    }

    @Override
    public void alltoallmem(SymArray<?> dest, SymArray<?> source, long nbytes) {
        Flight.Collective ev = collectiveEvent("alltoallmem", dest, nbytes, true);
        collectives.alltoall(dest, source, 1, 1, nbytes, true);
        end(ev);
    }

    @Override
    public <A> void alltoalls(SymArray<A> dest, SymArray<A> source, long dst, long sst, long nelems) {
        Flight.Collective ev = collectiveEvent("alltoalls", dest, nelems, false);
        collectives.alltoall(dest, source, dst, sst, nelems, false);
        end(ev);
    }

    @Override
    public void alltoallsmem(SymArray<?> dest, SymArray<?> source, long dst, long sst, long nbytes) {
        Flight.Collective ev = collectiveEvent("alltoallsmem", dest, nbytes, true);
        collectives.alltoall(dest, source, dst, sst, nbytes, true);
        end(ev);
    }

    @Override
    public <A> void andReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("and_reduce", dest, nreduce, false);
        collectives.reduce(io.jshmem.ReduceOp.AND, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void orReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("or_reduce", dest, nreduce, false);
        collectives.reduce(io.jshmem.ReduceOp.OR, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void xorReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("xor_reduce", dest, nreduce, false);
        collectives.reduce(io.jshmem.ReduceOp.XOR, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void maxReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("max_reduce", dest, nreduce, false);
        collectives.reduce(io.jshmem.ReduceOp.MAX, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void minReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("min_reduce", dest, nreduce, false);
        collectives.reduce(io.jshmem.ReduceOp.MIN, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void sumReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("sum_reduce", dest, nreduce, false);
        collectives.reduce(io.jshmem.ReduceOp.SUM, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void prodReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("prod_reduce", dest, nreduce, false);
        collectives.reduce(io.jshmem.ReduceOp.PROD, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void complexSumReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("complex_sum_reduce", dest, 2 * nreduce, false);
        collectives.complexReduce(io.jshmem.ReduceOp.SUM, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void complexProdReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent("complex_prod_reduce", dest, 2 * nreduce, false);
        collectives.complexReduce(io.jshmem.ReduceOp.PROD, dest, source, nreduce);
        end(ev);
    }

    @Override
    public <A> void sumInscan(SymArray<A> dest, SymArray<A> source, long nelems) {
        Flight.Collective ev = collectiveEvent("sum_inscan", dest, nelems, false);
        collectives.scan(dest, source, nelems, true);
        end(ev);
    }

    @Override
    public <A> void sumExscan(SymArray<A> dest, SymArray<A> source, long nelems) {
        Flight.Collective ev = collectiveEvent("sum_exscan", dest, nelems, false);
        collectives.scan(dest, source, nelems, false);
        end(ev);
    }

    // ---------------------------------------------------------------- scalar reductions (Java conveniences, nreduce 1)

    /** The types of the scalar forms as their calls record them: a scalar call never matches an array reduction. */
    private static final String SCALAR_LONG = "long (scalar)";
    private static final String SCALAR_INT = "int (scalar)";
    private static final String SCALAR_DOUBLE = "double (scalar)";

    @Override
    public long sumReduce(long value) {
        return reduceLong(io.jshmem.ReduceOp.SUM, value);
    }

    @Override
    public int sumReduce(int value) {
        return reduceInt(io.jshmem.ReduceOp.SUM, value);
    }

    @Override
    public double sumReduce(double value) {
        return reduceDouble(io.jshmem.ReduceOp.SUM, value);
    }

    @Override
    public long prodReduce(long value) {
        return reduceLong(io.jshmem.ReduceOp.PROD, value);
    }

    @Override
    public int prodReduce(int value) {
        return reduceInt(io.jshmem.ReduceOp.PROD, value);
    }

    @Override
    public double prodReduce(double value) {
        return reduceDouble(io.jshmem.ReduceOp.PROD, value);
    }

    @Override
    public long maxReduce(long value) {
        return reduceLong(io.jshmem.ReduceOp.MAX, value);
    }

    @Override
    public int maxReduce(int value) {
        return reduceInt(io.jshmem.ReduceOp.MAX, value);
    }

    @Override
    public double maxReduce(double value) {
        return reduceDouble(io.jshmem.ReduceOp.MAX, value);
    }

    @Override
    public long minReduce(long value) {
        return reduceLong(io.jshmem.ReduceOp.MIN, value);
    }

    @Override
    public int minReduce(int value) {
        return reduceInt(io.jshmem.ReduceOp.MIN, value);
    }

    @Override
    public double minReduce(double value) {
        return reduceDouble(io.jshmem.ReduceOp.MIN, value);
    }

    @Override
    public long andReduce(long value) {
        return reduceLong(io.jshmem.ReduceOp.AND, value);
    }

    @Override
    public int andReduce(int value) {
        return reduceInt(io.jshmem.ReduceOp.AND, value);
    }

    @Override
    public long orReduce(long value) {
        return reduceLong(io.jshmem.ReduceOp.OR, value);
    }

    @Override
    public int orReduce(int value) {
        return reduceInt(io.jshmem.ReduceOp.OR, value);
    }

    @Override
    public long xorReduce(long value) {
        return reduceLong(io.jshmem.ReduceOp.XOR, value);
    }

    @Override
    public int xorReduce(int value) {
        return reduceInt(io.jshmem.ReduceOp.XOR, value);
    }

    private long reduceLong(io.jshmem.ReduceOp op, long value) {
        Flight.Collective ev = collectiveEvent(Collectives.REDUCE_ROUTINES[op.ordinal()], null, Long.BYTES, true);
        long r = collectives.reduceScalar(op, "long", SCALAR_LONG, 3, value);
        end(ev);
        return r;
    }

    private int reduceInt(io.jshmem.ReduceOp op, int value) {
        Flight.Collective ev = collectiveEvent(Collectives.REDUCE_ROUTINES[op.ordinal()], null, Integer.BYTES, true);
        int r = (int) collectives.reduceScalar(op, "int", SCALAR_INT, 2, value);
        end(ev);
        return r;
    }

    private double reduceDouble(io.jshmem.ReduceOp op, double value) {
        Flight.Collective ev = collectiveEvent(Collectives.REDUCE_ROUTINES[op.ordinal()], null, Double.BYTES, true);
        long r = collectives.reduceScalar(op, "double", SCALAR_DOUBLE, 3, Double.doubleToRawLongBits(value));
        end(ev);
        return Double.longBitsToDouble(r);
    }

    /** A started {@link Flight.Collective} event, or null while JFR does not record it. */
    private Flight.Collective collectiveEvent(String routine, SymArray<?> dest, long count, boolean bytes) {
        if (!Flight.recorderStarted() || !Flight.Collective.ON.isEnabled()) {
            return null;
        }
        Flight.Collective e = new Flight.Collective();
        e.team = name;
        e.routine = routine;
        e.teamSize = members.length;
        e.sequence = ++flightSequence;
        e.bytes = bytes || !(dest instanceof SymArrayImpl<?> a) ? count : count << a.shift;
        e.begin();
        return e;
    }

    /** Commits a {@link #collectiveEvent} (if any) with the algorithm the collective took. */
    private void end(Flight.Collective e) {
        if (e != null) {
            e.algorithm = collectives.algorithm();
            e.commit();
        }
    }

    @Override
    public String toString() {
        return name + Arrays.toString(members.length <= 16 ? members : Arrays.copyOf(members, 16));
    }

    public static ShmemException notATeam(PeState st, Object team) {
        if (team instanceof TeamImpl t && t.st != st && t.st.finalized) {
            return st.error(team + " was used after shmem finalize (close)" + t.st.heap.reinitializedSince());
        }
        return st.error(team == null ? "team is null (SHMEM_TEAM_INVALID)" : team.getClass().getName() + " is not a jshmem team");
    }
}
