/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.Cmp;
import io.jshmem.ForkSafetyReport;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemTeam;
import io.jshmem.ShmemVersion;
import io.jshmem.SpecVersion;
import io.jshmem.SymArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.ThreadLevel;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Flight;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.SymArrayImpl;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.team.TeamImpl;
import io.jshmem.core.team.TeamRegistry;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.function.Function;

/**
 * The initialized library of one PE as the API sees it: the default context (the world team's,
 * a context like the created ones) and the library-wide routines, each delegated to the part
 * that owns it: {@link TeamRegistry} (teams, the world barrier), {@link SymmetricMemory} (memory
 * management), {@link Lifecycle} (init, finalize, the failure handler, globalExit), {@link Locks}
 * and {@link Contexts}. Being the default context itself keeps its RMA and atomics exactly the
 * created contexts' code, with no hop in between.
 */
public final class ShmemRuntime extends AbstractShmemCtx implements Shmem {
    private final ThreadLevel threadLevel;
    private final TeamRegistry teams;
    private final TeamImpl world;
    private final SymmetricMemory memory;
    private final Locks locks;
    final Lifecycle lifecycle;
    /**
     * Initialization calls not yet matched by a close() (guarded by ShmemProviderImpl.class): 1.6
     * lets init be called several times; only the close() matching the last one finalizes.
     */
    int initCalls = 1;

    private ShmemRuntime(PeState st, ThreadLevel requested) {
        super(st, st.comm, worldTeam(st.npes), null);
        this.threadLevel = requested;
        st.bootstrap.onAbort(reason -> st.abortReason = reason);
        this.teams = new TeamRegistry(st, new Contexts(st));
        this.world = teams.world();
        this.memory = new SymmetricMemory(st, teams);
        this.locks = new Locks(st);
        this.lifecycle = new Lifecycle(st, teams, memory, this);
        st.contexts.add(this);
        world.syncInternal();
    }

    /** Collective: creates the symmetric heap and wires up the PEs. */
    static ShmemRuntime create(Bootstrap bootstrap, Config config, ThreadLevel requested) {
        return create(bootstrap, config, requested, heap -> Transports.forHeap(bootstrap, heap, config));
    }

    /** Like {@link #create(Bootstrap, Config, ThreadLevel)} with the transport {@code transportFor} makes (tests inject one). */
    static ShmemRuntime create(Bootstrap bootstrap, Config config, ThreadLevel requested,
            Function<SymmetricHeap, RemoteTransport> transportFor) {
        return Lifecycle.init(bootstrap, config, transportFor, st -> new ShmemRuntime(st, requested));
    }

    private static int[] worldTeam(int npes) {
        int[] all = new int[npes];
        for (int pe = 0; pe < npes; pe++) {
            all[pe] = pe;
        }
        return all;
    }

    /** The default context's PEs are the job's. */
    @Override
    String peRange() {
        return "the job";
    }

    // ---------------------------------------------------------------- barriers

    @Override
    public void barrierAll() {
        Flight.Sync ev = TeamImpl.syncEvent(world, "barrier_all");
        teams.barrier(TeamImpl.OP_SYNC, 0, 0, 0);
        if (ev != null) {
            ev.commit();
        }
    }

    @Override
    public void syncAll() {
        if (st.finalized) {
            throw st.afterFinalize();
        }
        Flight.Sync ev = TeamImpl.syncEvent(world, "sync_all");
        world.begin(TeamImpl.OP_SYNC, 0);
        world.syncInternal();
        if (ev != null) {
            ev.commit();
        }
    }

    // ---------------------------------------------------------------- setup and query

    @Override
    public int myPe() {
        return st.me;
    }

    @Override
    public int nPes() {
        return st.npes;
    }

    @Override
    public boolean peAccessible(int pe) {
        return !st.finalized && pe >= 0 && pe < st.npes && (st.worldPeers[pe] != null || st.transport != null);
    }

    @Override
    public boolean addrAccessible(SymArray<?> object, int pe) {
        return object instanceof SymArrayImpl<?> a && a.heap == st.heap && !a.freed && peAccessible(pe);
    }

    @Override
    public Optional<MemorySegment> ptr(SymArray<?> object, int pe) {
        long off = offset(object, 0, 0);
        MemorySegment s = seg(pe);
        return s == null ? Optional.empty() : Optional.of(((SymArrayImpl<?>) object).view(s.asSlice(off, object.byteSize())));
    }

    @Override
    public SpecVersion infoGetVersion() {
        return new SpecVersion(ShmemVersion.SPEC_MAJOR, ShmemVersion.SPEC_MINOR);
    }

    @Override
    public String infoGetName() {
        return ShmemVersion.VENDOR_STRING;
    }

    @Override
    public ThreadLevel queryThread() {
        return threadLevel;
    }

    @Override
    public void globalExit(int status) {
        lifecycle.globalExit(status);
    }

    // ---------------------------------------------------------------- teams and contexts

    @Override
    public ShmemTeam teamWorld() {
        return world;
    }

    /** shmem_ctx_get_team(SHMEM_CTX_DEFAULT): the default context's team is the world team. */
    @Override
    public ShmemTeam team() {
        return world;
    }

    @Override
    public ShmemTeam teamShared() {
        return teams.shared();
    }

    @Override
    public ShmemContext ctxCreate(long options) {
        return teams.newContext(world, options);
    }

    // ---------------------------------------------------------------- signals and locks

    @Override
    public long signalFetch(SymLongArray sig, long index) {
        long off = offset(sig, index, 1);
        return (long) LONG.getVolatile(st.self, off);
    }

    @Override
    public long signalWaitUntil(SymLongArray sig, long index, Cmp cmp, long value) {
        return waitWord(offset(sig, index, 1), 8, cmp, value, "signal_wait_until");
    }

    @Override
    public void setLock(SymLongArray lock, long index) {
        long off = offset(lock, index, 1);
        if (Flight.recorderStarted() && Flight.Lock.ON.isEnabled()) {
            Flight.Lock ev = new Flight.Lock();
            ev.begin();
            locks.set(off);
            ev.commit();
        } else {
            locks.set(off);
        }
    }

    @Override
    public boolean testLock(SymLongArray lock, long index) {
        return locks.test(offset(lock, index, 1));
    }

    @Override
    public void clearLock(SymLongArray lock, long index) {
        long off = offset(lock, index, 1);
        quiet();
        locks.clear(off);
    }

    // ---------------------------------------------------------------- memory management

    @Override
    public <T extends SymArray<?>> T malloc(SymType<T> type, long length) {
        return memory.malloc(type, length);
    }

    @Override
    public <T extends SymArray<?>> T calloc(SymType<T> type, long length) {
        return memory.calloc(type, length);
    }

    @Override
    public <T extends SymArray<?>> T align(long alignment, SymType<T> type, long length) {
        return memory.align(alignment, type, length);
    }

    @Override
    public <T extends SymArray<?>> T mallocWithHints(SymType<T> type, long length, long hints) {
        return memory.mallocWithHints(type, length, hints);
    }

    @Override
    public <T extends SymArray<?>> T realloc(T object, long newLength) {
        return memory.realloc(object, newLength);
    }

    @Override
    public void free(SymArray<?> object) {
        memory.free(object);
    }

    // ---------------------------------------------------------------- finalize

    @Override
    public void close() {
        if (!ShmemProviderImpl.releaseInit(this)) {
            return; // an earlier init() is still unmatched: not finalized yet
        }
        // Looked at here, so that the frames CloseSite skips are this class's.
        lifecycle.close(!st.finalized && CloseSite.unwinding());
    }

    @Override
    public ForkSafetyReport forkSafetyReport() {
        return Lifecycle.forkSafetyReport(st);
    }

    Bootstrap bootstrap() {
        return st.bootstrap;
    }
}
