/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.team;

import io.jshmem.ShmemContext;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import io.jshmem.TeamConfig;
import io.jshmem.TeamPair;
import io.jshmem.core.base.Flight;
import io.jshmem.core.coll.Collectives;
import io.jshmem.core.coll.CollTeam;
import io.jshmem.core.coll.Selector;
import io.jshmem.core.coll.SlotProtocol;
import io.jshmem.core.coll.TeamSlots;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.IntStream;
/**
 * A team: its members (world PE numbers in team order), its splits and its routines. Each team
 * owns one of {@link TeamSlots#MAX_TEAMS} slots of the internal symmetric region, where its
 * barrier flags and scratch words live on every member; members agree on a free slot when the
 * team is created. Its epochs, syncs and mismatch checks are its {@link SlotProtocol}, its
 * collectives {@link Collectives}; both see it only as a {@link CollTeam}.
 */
public final class TeamImpl implements ShmemTeam, CollTeam {
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
    /** The slot protocol: epochs, syncs, arrival/entry words, push buffers, mismatch detection. */
    private final SlotProtocol protocol;
    final Collectives collectives;
    /** Whether every member's heap is mapped here. */
    public final boolean allLocal;

    /** Team operations, as published in arrival words ({@link SlotProtocol}'s). */
    public static final int OP_SYNC = SlotProtocol.OP_SYNC;
    public static final int OP_BROADCAST = SlotProtocol.OP_BROADCAST;
    public static final int OP_REDUCE = SlotProtocol.OP_REDUCE;
    public static final int OP_COLLECT = SlotProtocol.OP_COLLECT;
    public static final int OP_FCOLLECT = SlotProtocol.OP_FCOLLECT;
    public static final int OP_ALLTOALL = SlotProtocol.OP_ALLTOALL;
    public static final int OP_SCAN = SlotProtocol.OP_SCAN;
    public static final int OP_MEMORY = SlotProtocol.OP_MEMORY;
    public static final int OP_FINALIZE = SlotProtocol.OP_FINALIZE;
    public static final int OP_SPLIT = SlotProtocol.OP_SPLIT;
    /** Teams across nodes of up to this many members sync through team PE 0 in {@code auto} ({@link Selector}). */
    public static final int CENTRAL_SYNC_MAX = Selector.CENTRAL_SYNC_MAX;
    /** Up to this many members (all on this node), a sync waits for each member's arrival word directly ({@link Selector}). */
    public static final int LINEAR_SYNC_MAX = Selector.LINEAR_SYNC_MAX;
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
        for (int i = 0; i < members.length; i++) {
            if (members[i] == st.me) {
                my = i;
            }
        }
        if (my < 0) {
            throw new IllegalStateException("PE " + st.me + " is not in team " + name);
        }
        this.me = my;
        this.protocol = new SlotProtocol(this, rt.slots(), slot);
        this.allLocal = protocol.allLocal;
        this.collectives = new Collectives(protocol);
    }

    // ---------------------------------------------------------------- CollTeam

    @Override
    public PeState state() {
        return st;
    }

    @Override
    public int[] members() {
        return members;
    }

    @Override
    public int myIndex() {
        return me;
    }

    @Override
    public String name() {
        return name;
    }

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
    @Override
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
        MemorySegment s = protocol.mapped(checkedPe(pe));
        return s == null ? Optional.empty() : Optional.of(a.view(s.asSlice(a.offset, a.byteSize())));
    }

    private int checkedPe(int pe) {
        world(pe);
        return pe;
    }

    @Override
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

    /** The algorithm of this team's syncs, as the {@link Selector} picked it, for the JFR event. */
    private String syncAlgorithm() {
        return protocol.syncAlgorithm();
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

    // ---------------------------------------------------------------- the slot protocol, for the runtime and tests

    /** Team synchronization without the checks and event of {@link #sync} ({@link SlotProtocol#syncInternal}). */
    public void syncInternal() {
        protocol.syncInternal();
    }

    /** {@link SlotProtocol#begin(int, long)}. */
    public void begin(int op, long args) {
        protocol.begin(op, args);
    }

    /** {@link SlotProtocol#begin(int, long, int, long, long, long, String)}. */
    public void begin(int op, long args, int root, long size, long a, long b, String type) {
        protocol.begin(op, args, root, size, a, b, type);
    }

    /** The epoch of the last team operation this PE entered. */
    public long epoch() {
        return protocol.epoch();
    }

    /** The epoch of the last linear barrier team PE {@code pe} left (tests). */
    public long exitEpoch(int pe) {
        return protocol.exitEpoch(pe);
    }

    /** Allgather of one long per member ({@link SlotProtocol#exchange(long)}). */
    public long[] exchange(long value) {
        return protocol.exchange(value);
    }

    /** SHMEM_DEBUG: {@link SlotProtocol#checkSameArgs(String, String, long)}. */
    public void checkSameArgs(String routine, String aName, long a) {
        protocol.checkSameArgs(routine, aName, a);
    }

    /** SHMEM_DEBUG: {@link SlotProtocol#checkSameArgs(String, String, long, String, long)}. */
    public void checkSameArgs(String routine, String aName, long a, String bName, long b) {
        protocol.checkSameArgs(routine, aName, a, bName, b);
    }

    /** SHMEM_DEBUG: {@link SlotProtocol#checkSameArgs(String, String, long, String, long, String, long)}. */
    public void checkSameArgs(String routine, String aName, long a, String bName, long b, String cName, long c) {
        protocol.checkSameArgs(routine, aName, a, bName, b, cName, c);
    }

    // ---------------------------------------------------------------- splits

    @Override
    public Optional<ShmemTeam> splitStrided(int start, int stride, int size, TeamConfig config, long configMask) {
        checkLive();
        checkTriplet(start, stride, size);
        checkSameArgs("team split_strided", "start", start, "stride", stride, "size", size);
        // Members that passed other triplets would make teams of different members, which hang or
        // mix data later: the agreement's sync compares a hash of them, and ends the job if they differ.
        protocol.begin(OP_SPLIT, (start * 65_537L + stride) * 65_537L + size << 1, -1, size, start, stride, null);
        int[] slots = rt.slots().agree(protocol, 1);
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
        protocol.begin(OP_SPLIT, (long) x << 1 | 1, -1, x, 0, 0, "split_2d");
        int[] slots = rt.slots().agree(protocol, 2);
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
        reduce("and_reduce", io.jshmem.ReduceOp.AND, dest, source, nreduce);
    }

    @Override
    public <A> void orReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        reduce("or_reduce", io.jshmem.ReduceOp.OR, dest, source, nreduce);
    }

    @Override
    public <A> void xorReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        reduce("xor_reduce", io.jshmem.ReduceOp.XOR, dest, source, nreduce);
    }

    @Override
    public <A> void maxReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        reduce("max_reduce", io.jshmem.ReduceOp.MAX, dest, source, nreduce);
    }

    @Override
    public <A> void minReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        reduce("min_reduce", io.jshmem.ReduceOp.MIN, dest, source, nreduce);
    }

    @Override
    public <A> void unsignedMaxReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        reduce("umax_reduce", io.jshmem.ReduceOp.UMAX, dest, source, nreduce);
    }

    @Override
    public <A> void unsignedMinReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        reduce("umin_reduce", io.jshmem.ReduceOp.UMIN, dest, source, nreduce);
    }

    @Override
    public <A> void sumReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        reduce("sum_reduce", io.jshmem.ReduceOp.SUM, dest, source, nreduce);
    }

    @Override
    public <A> void prodReduce(SymArray<A> dest, SymArray<A> source, long nreduce) {
        reduce("prod_reduce", io.jshmem.ReduceOp.PROD, dest, source, nreduce);
    }

    /** The array reductions: routine {@code routine} ({@code op}) timed as a JFR Collective event. */
    private <A> void reduce(String routine, io.jshmem.ReduceOp op, SymArray<A> dest, SymArray<A> source, long nreduce) {
        Flight.Collective ev = collectiveEvent(routine, dest, nreduce, false);
        collectives.reduce(op, dest, source, nreduce);
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
        long r = collectives.reduceScalar(op, SymType.Kind.LONG, SCALAR_LONG, 3, value);
        end(ev);
        return r;
    }

    private int reduceInt(io.jshmem.ReduceOp op, int value) {
        Flight.Collective ev = collectiveEvent(Collectives.REDUCE_ROUTINES[op.ordinal()], null, Integer.BYTES, true);
        int r = (int) collectives.reduceScalar(op, SymType.Kind.INT, SCALAR_INT, 2, value);
        end(ev);
        return r;
    }

    private double reduceDouble(io.jshmem.ReduceOp op, double value) {
        Flight.Collective ev = collectiveEvent(Collectives.REDUCE_ROUTINES[op.ordinal()], null, Double.BYTES, true);
        long r = collectives.reduceScalar(op, SymType.Kind.DOUBLE, SCALAR_DOUBLE, 3, Double.doubleToRawLongBits(value));
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
