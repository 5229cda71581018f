/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.Cmp;
import io.jshmem.ForkSafetyReport;
import io.jshmem.HeapExhaustedException;
import io.jshmem.JobAbortedException;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.ShmemVersion;
import io.jshmem.SpecVersion;
import io.jshmem.SymArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.TeamConfig;
import io.jshmem.ThreadLevel;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Flight;
import io.jshmem.core.base.Log;
import io.jshmem.core.base.ProcFs;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.coll.TeamSlots;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.SymArrayImpl;
import io.jshmem.core.forksafety.ForkSafety;
import io.jshmem.core.heap.HeapAllocator;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.team.TeamImpl;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.System.Logger.Level;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Recording;

/**
 * The initialized library of one PE: the default context (world team PE numbers) plus setup,
 * memory management, teams, barriers, signals and locks.
 */
public final class ShmemRuntime extends AbstractShmemCtx implements Shmem {
    private final ThreadLevel threadLevel;
    private final Thread initThread;
    private final Thread shutdownHook;
    private final TeamSlots slots;
    private final TeamImpl world;
    private final TeamImpl shared;
    private final List<TeamImpl> teams = new ArrayList<>();
    private final Locks locks;
    /** The process that initialized: only it may finalize implicitly (subprocess clause 4). */
    private final long initPid = ProcFs.selfPid();
    /**
     * Initialization calls not yet matched by a close() (guarded by ShmemProviderImpl.class): 1.6
     * lets init be called several times; only the close() matching the last one finalizes.
     */
    int initCalls = 1;
    /** This PE's flight recording (oshrun --jfr), written at finalize; null when none. */
    private Recording recording;

    private ShmemRuntime(PeState st, ThreadLevel requested) {
        super(st, st.comm, worldTeam(st.npes));
        this.threadLevel = requested;
        this.initThread = Thread.currentThread();
        st.bootstrap.onAbort(reason -> st.abortReason = reason);
        this.slots = new TeamSlots(st, st.heap.allocInternal(TeamSlots.TOTAL_BYTES));
        int[] all = new int[st.npes];
        int[] local = new int[st.localPes];
        for (int pe = 0, j = 0; pe < st.npes; pe++) {
            all[pe] = pe;
            if (st.worldPeers[pe] != null) {
                local[j++] = pe;
            }
        }
        slots.reserve(0);
        slots.reserve(1);
        this.world = new TeamImpl(this, "SHMEM_TEAM_WORLD", all, 0, TeamConfig.DEFAULT);
        this.shared = new TeamImpl(this, "SHMEM_TEAM_SHARED", local, 1, TeamConfig.DEFAULT);
        this.locks = new Locks(st.comm, st.me, st.waiter);
        this.shutdownHook = new Thread(this::implicitFinalize, "jshmem-implicit-finalize");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        installFailureHandler();
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
        Recording recording = Flight.startRecording(System.getenv(), bootstrap.jobId(), bootstrap.generation(), bootstrap.rank());
        SymmetricHeap heap;
        ShmemRuntime rt;
        RemoteTransport transport = null;
        try {
            heap = SymmetricHeap.create(bootstrap, config);
        } catch (RuntimeException e) {
            Flight.stop(recording);
            throw e;
        }
        try {
            transport = transportFor.apply(heap);
            PeState st = new PeState(bootstrap, config, heap, transport);
            rt = new ShmemRuntime(st, requested);
        } catch (RuntimeException e) {
            releaseFailing(transport, heap);
            Flight.stop(recording);
            throw e;
        }
        rt.recording = recording;
        PeState st = rt.st;
        String traffic = bootstrap.traffic();
        if (!traffic.isEmpty() && Log.BOOTSTRAP.isLoggable(Level.DEBUG)) {
            // What init cost in bootstrap traffic: with values on demand it grows with the peers used, not N.
            Log.BOOTSTRAP.log(Level.DEBUG, "jshmem: PE " + st.me + " of " + st.npes + ": bootstrap at init: " + traffic);
        }
        if (st.me == 0 && (config.version() || config.info()) && Log.CORE.isLoggable(Level.INFO)) {
            List<String> lines = new ArrayList<>();
            lines.add("jshmem " + ShmemVersion.JSHMEM_VERSION + " (OpenSHMEM " + ShmemVersion.SPEC_MAJOR + "."
                    + ShmemVersion.SPEC_MINOR + ")");
            if (config.info()) {
                lines.addAll(InfoReport.forJob(config, st, bootstrap.describe(), rt.transportName()));
                lines.addAll(InfoReport.forkSafety(rt.forkSafetyReport()));
            }
            Log.CORE.info(String.join(System.lineSeparator(), lines)); // one record: the report's lines stay together
        }
        return rt;
    }

    // ---------------------------------------------------------------- world-level helpers for teams, collectives, locks

    public TeamSlots slots() {
        return slots;
    }

    private static int[] worldTeam(int npes) {
        int[] all = new int[npes];
        for (int pe = 0; pe < npes; pe++) {
            all[pe] = pe;
        }
        return all;
    }

    public TeamImpl team(ShmemTeam t) {
        if (t instanceof TeamImpl ti && ti.st == st) {
            ti.checkLive();
            return ti;
        }
        throw TeamImpl.notATeam(st, t);
    }

    public TeamImpl newTeam(String name, int[] members, int slot, TeamConfig config) {
        slots.take(slot);
        TeamImpl t = new TeamImpl(this, name, members, slot, config);
        synchronized (teams) {
            teams.add(t);
        }
        return t;
    }

    public void teamDestroyed(TeamImpl t) {
        for (CtxBase c : st.contexts) {
            if (c instanceof ContextImpl ci && ci.team() == t) {
                ci.close();
            }
        }
        synchronized (teams) {
            teams.remove(t);
        }
        slots.release(t.slot);
    }

    public ContextImpl newContext(TeamImpl team, long options) {
        if (st.finalized) {
            throw st.afterFinalize();
        }
        if ((options & ~(CTX_PRIVATE | CTX_SERIALIZED | CTX_NOSTORE)) != 0) {
            throw st.error("ctx_create: unknown option bits " + Long.toHexString(options));
        }
        ContextImpl c = new ContextImpl(team, options);
        st.contexts.add(c);
        return c;
    }

    // ---------------------------------------------------------------- barriers

    @Override
    public void barrierAll() {
        Flight.Sync ev = TeamImpl.syncEvent(world, "barrier_all");
        barrier(TeamImpl.OP_SYNC, 0);
        if (ev != null) {
            ev.commit();
        }
    }

    /** barrierAll as part of {@code op} (with the arguments that must agree), for collective matching. */
    private void barrier(int op, long args) {
        barrier(op, args, 0, 0);
    }

    /** The barrier of a memory operation of {@code bytes} (and {@code alignment}, 0 for the default), named if calls do not match. */
    private void barrier(int op, long args, long bytes, long alignment) {
        if (st.finalized) {
            throw st.afterFinalize();
        }
        world.begin(op, args, -1, bytes, alignment, 0, null);
        // On shared memory the barrier's release/acquire chain already makes every earlier store
        // visible to every PE; only a network transport has operations to complete first.
        if (st.transport != null) {
            st.transport.quiet();
        }
        world.syncInternal();
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
        return s == null ? Optional.empty() : Optional.of(s.asSlice(off, object.byteSize()));
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
        st.failed = true;
        VarHandle.fullFence();
        st.bootstrap.abort(status, "PE " + st.me + GLOBAL_EXIT + status + ")");
        Runtime.getRuntime().halt(status);
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
        return shared;
    }

    @Override
    public ShmemContext ctxCreate(long options) {
        return newContext(world, options);
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
        return allocate("malloc", type, length, HeapAllocator.MIN_ALIGNMENT, false);
    }

    @Override
    public <T extends SymArray<?>> T calloc(SymType<T> type, long length) {
        return allocate("calloc", type, length, HeapAllocator.MIN_ALIGNMENT, true);
    }

    @Override
    public <T extends SymArray<?>> T align(long alignment, SymType<T> type, long length) {
        if (alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw st.error("align: alignment " + alignment + " is not a power of two");
        }
        return allocate("align", type, length, alignment, false);
    }

    @Override
    public <T extends SymArray<?>> T mallocWithHints(SymType<T> type, long length, long hints) {
        long unknown = hints & ~(MALLOC_ATOMICS_REMOTE | MALLOC_SIGNAL_REMOTE);
        if (unknown != 0) {
            throw new IllegalArgumentException("PE " + st.me + ": mallocWithHints: unknown hint bits 0x" + Long.toHexString(unknown)
                    + " in hints 0x" + Long.toHexString(hints) + " (the hints are MALLOC_ATOMICS_REMOTE 0x1 and MALLOC_SIGNAL_REMOTE 0x2)");
        }
        // Hints only steer placement; on shared memory every placement is equally good.
        return allocate("mallocWithHints", type, length, HeapAllocator.MIN_ALIGNMENT, false);
    }

    private <T extends SymArray<?>> T allocate(String routine, SymType<T> type, long length, long alignment, boolean zero) {
        checkLive(routine);
        if (type == null) {
            throw st.error(routine + ": type is null");
        }
        if (length < 0) {
            throw st.error(routine + ": negative length " + length);
        }
        long bytes = checkedBytes(routine, type, length);
        Flight.Allocation ev = allocationEvent(routine, bytes);
        world.checkSameArgs(routine, "bytes", bytes, "alignment", alignment);
        SymArrayImpl<?> obj;
        synchronized (st.heap) {
            long off = bytes == 0 ? st.heap.allocator().base() : st.heap.allocator().allocate(bytes, alignment);
            if (off < 0) {
                if (alignment >= st.heap.allocator().capacity()) {
                    // Not a lack of space: no block of the heap can start on such a boundary.
                    throw st.error(routine + ": alignment " + alignment + " bytes is refused: it is not smaller than the"
                            + " symmetric heap (" + st.heap.allocator().capacity() + " bytes, SHMEM_SYMMETRIC_SIZE), so no"
                            + " object of the heap can start on such a boundary");
                }
                throw exhausted(alignment > HeapAllocator.MIN_ALIGNMENT ? routine + " (alignment " + alignment + ")" : routine, bytes);
            }
            obj = SymArrayImpl.create(st.heap, type, off, length);
            st.live.add(obj);
        }
        if (zero) {
            obj.local.fill((byte) 0);
        }
        barrier(TeamImpl.OP_MEMORY, bytes * 31 + alignment, bytes, alignment > HeapAllocator.MIN_ALIGNMENT ? alignment : 0);
        end(ev);
        @SuppressWarnings("unchecked")
        T t = (T) obj;
        return t;
    }

    /** A started {@link Flight.Allocation} event, or null while JFR does not record it. */
    private static Flight.Allocation allocationEvent(String routine, long bytes) {
        if (!Flight.recorderStarted() || !Flight.Allocation.ON.isEnabled()) {
            return null;
        }
        Flight.Allocation e = new Flight.Allocation();
        e.routine = routine;
        e.bytes = bytes;
        e.begin();
        return e;
    }

    private static void end(Flight.Allocation e) {
        if (e != null) {
            e.commit();
        }
    }

    private long checkedBytes(String routine, SymType<?> type, long length) {
        try {
            return Math.multiplyExact(length, (long) type.elementSize());
        } catch (ArithmeticException e) {
            throw exhausted(routine, Long.MAX_VALUE);
        }
    }

    private HeapExhaustedException exhausted(String routine, long bytes) {
        HeapAllocator a = st.heap.allocator();
        return new HeapExhaustedException(bytes, a.totalFree(), "PE " + st.me + ": symmetric heap exhausted: " + routine
                + " requested " + bytes + " bytes, " + a.totalFree()
                + " bytes free (largest free block " + a.largestFree() + ") of " + a.capacity()
                + "; raise SHMEM_SYMMETRIC_SIZE (now " + Config.formatSize(a.capacity()) + ")");
    }

    @Override
    public <T extends SymArray<?>> T realloc(T object, long newLength) {
        checkLive("realloc");
        SymArrayImpl<?> old = st.check(object);
        if (newLength < 0) {
            throw st.error("realloc: negative length " + newLength);
        }
        long bytes = checkedBytes("realloc", old.type, newLength);
        Flight.Allocation ev = allocationEvent("realloc", bytes);
        world.checkSameArgs("realloc", "bytes", bytes, "heap offset of the old object", old.offset);
        barrier(TeamImpl.OP_MEMORY, bytes, bytes, 0);
        SymArrayImpl<?> obj;
        synchronized (st.heap) {
            HeapAllocator a = st.heap.allocator();
            boolean wasEmpty = old.length == 0;
            if (!wasEmpty && bytes > 0 && a.resizeInPlace(old.offset, bytes)) {
                obj = SymArrayImpl.create(st.heap, old.type, old.offset, newLength);
            } else {
                long off = bytes == 0 ? a.base() : a.allocate(bytes, HeapAllocator.MIN_ALIGNMENT);
                if (off < 0) {
                    throw exhausted("realloc", bytes);
                }
                obj = SymArrayImpl.create(st.heap, old.type, off, newLength);
                MemorySegment.copy(old.local, 0, obj.local, 0, Math.min(old.byteSize(), obj.byteSize()));
                if (!wasEmpty) {
                    a.free(old.offset);
                }
            }
            old.freed = true;
            st.live.remove(old);
            st.live.add(obj);
        }
        barrier(TeamImpl.OP_MEMORY, bytes, bytes, 0);
        end(ev);
        @SuppressWarnings("unchecked")
        T t = (T) obj;
        return t;
    }

    @Override
    public void free(SymArray<?> object) {
        checkLive("free");
        if (object == null) {
            return; // shmem_free(NULL): no action, not even the entry barrier (1.6)
        }
        SymArrayImpl<?> a = st.check(object);
        Flight.Allocation ev = allocationEvent("free", a.byteSize());
        world.checkSameArgs("free", "heap offset", a.offset, "length", a.length);
        barrier(TeamImpl.OP_MEMORY, a.offset, a.byteSize(), 0);
        synchronized (st.heap) {
            if (a.length > 0) {
                st.heap.allocator().free(a.offset);
            }
            a.freed = true;
            st.live.remove(a);
        }
        end(ev);
    }

    private void checkLive(String routine) {
        if (st.finalized) {
            throw st.error(routine + " called after shmem finalize (close)" + st.heap.reinitializedSince());
        }
    }

    // ---------------------------------------------------------------- finalize

    @Override
    public void close() {
        if (!ShmemProviderImpl.releaseInit(this)) {
            return; // an earlier init() is still unmatched: not finalized yet
        }
        if (!st.finalized && CloseSite.unwinding()) {
            failingClose();
            return;
        }
        finalizeNow();
    }

    /**
     * close() while an exception unwinds (try-with-resources, finally): this PE is failing. It does
     * not finalize, since its finalize would release PEs waiting in a barrier it never reached; the
     * exception, once it leaves the thread, ends the job ({@link #installFailureHandler}). If it is
     * caught and the PE runs on, the job is ended after {@link #FAILING_CLOSE_GRACE_MILLIS}.
     */
    private void failingClose() {
        closedFailing = true;
        st.failed = true;
        Thread.ofPlatform().daemon().name("jshmem-failing-close").start(() -> {
            try {
                Thread.sleep(FAILING_CLOSE_GRACE_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (st.abortReason == null) {
                st.bootstrap.abort(1, "PE " + st.me + " closed jshmem while an exception unwound, caught the exception"
                        + " and ran on; it will never join the other PEs' collectives");
            }
        });
    }

    private volatile boolean closedFailing;

    /** How long the exception of a failing close() may take to leave its thread. */
    private static final long FAILING_CLOSE_GRACE_MILLIS = 2_000;

    /** shmem_finalize proper (collective), whatever the count of init calls. */
    private void finalizeNow() {
        synchronized (this) {
            if (st.finalized) {
                return;
            }
            barrier(TeamImpl.OP_FINALIZE, 0);
            st.finalized = true;
            for (CtxBase c : st.contexts) {
                c.invalidate(false);
            }
            synchronized (st.heap) {
                for (SymArrayImpl<?> a : st.live) {
                    a.freed = true; // every later use reports "after finalize"
                }
                st.live.clear();
            }
        }
        if (st.transport != null) {
            st.transport.close();
        }
        st.heap.close();
        Flight.stop(recording);
        st.bootstrap.finalized();
        st.bootstrap.close();
        uninstallFailureHandler();
        ShmemProviderImpl.finalizedNow(this);
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException ignored) {
                // Already shutting down.
            }
        }
    }

    /** At exit without close(): finalize collectively, unless this PE is failing (then others may never come). */
    private void implicitFinalize() {
        if (ProcFs.selfPid() != initPid) {
            return; // not the initializing process (a JVM never runs its parent's hooks; checked anyway)
        }
        if (st.finalized) {
            return;
        }
        if (st.failed || st.abortReason != null) {
            // The heap stays mapped until the process is gone (its file was unlinked at init): the
            // program's threads run on during the shutdown hooks, and an unmapped heap would make
            // them fail with "Already closed" instead of ending with the abort.
            if (st.transport != null) {
                st.transport.abandon();
            }
            return;
        }
        try {
            finalizeNow();
        } catch (RuntimeException e) {
            Log.CORE.warning("jshmem: PE " + st.me + ": implicit finalize at exit failed: " + e.getMessage());
        }
    }

    /**
     * The failing paths' release (init failed, a failing PE exits, abort): the transport lets go
     * of the heap without waiting for any peer (its progress thread stopped, the heap
     * unregistered) before the heap is unmapped.
     */
    private static void releaseFailing(RemoteTransport transport, SymmetricHeap heap) {
        try {
            if (transport != null) {
                transport.abandon();
            }
        } finally {
            heap.close();
        }
    }

    /** The handler {@link #installFailureHandler} installed, and the one it replaced. */
    private Thread.UncaughtExceptionHandler failureHandler;
    private Thread.UncaughtExceptionHandler previousHandler;

    /**
     * At finalize: puts back the handler this runtime replaced (if nobody replaced it since), so that
     * runtimes of later initializations (1.6 re-initialization) do not pile up.
     */
    private synchronized void uninstallFailureHandler() {
        if (failureHandler != null && Thread.getDefaultUncaughtExceptionHandler() == failureHandler) {
            Thread.setDefaultUncaughtExceptionHandler(previousHandler);
        }
    }

    /** An uncaught exception in the initializing thread marks this PE as failing, so exit does not wait for others. */
    private synchronized void installFailureHandler() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        previousHandler = previous;
        failureHandler = (thread, uncaught) -> {
            Throwable error = heapFaultReported(uncaught);
            boolean failing = thread == initThread && !st.finalized && st.abortReason == null;
            if (thread == initThread) {
                st.failed = true;
            }
            if (previous == null && thread == initThread && uncaught instanceof JobAbortedException aborted
                    && globalExitStatus(aborted.reason()) != null) {
                // Another PE's globalExit ends the job, and the launcher (or that PE, under a PMI
                // launcher) says so in one line: a stack trace from every other PE, waiting where
                // the exit found it, would only bury that (and after globalExit(0) nothing failed).
                return;
            }
            if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                error.printStackTrace();
            }
            if (failing && st.abortReason == null) {
                // The exception is why the job ends: the launcher reports it (a PMI bootstrap's own handler may have already).
                st.bootstrap.abort(1, "PE " + st.me + " failed before finalize: " + heapFault(uncaught)
                        + (closedFailing ? " (jshmem was closed as it unwound; no PE was let past a collective this PE"
                        + " never reached)" : ""));
            }
        };
        Thread.setDefaultUncaughtExceptionHandler(failureHandler);
    }

    /** How {@link #globalExit} tells the launcher why (the launcher passes it on to the other PEs). */
    private static final String GLOBAL_EXIT = " called globalExit(";
    private static final Pattern GLOBAL_EXIT_REASON = Pattern.compile(".*\\bPE \\d+" + Pattern.quote(GLOBAL_EXIT) + "(-?\\d+)\\)");

    /** The status of the globalExit that {@code reason} (an abort's, as the other PEs get it) reports; null if it is another abort. */
    static Integer globalExitStatus(String reason) {
        Matcher m = reason == null ? null : GLOBAL_EXIT_REASON.matcher(reason);
        return m != null && m.matches() ? Integer.valueOf(m.group(1)) : null;
    }

    /** A fault on the heap that escaped the accesses that catch it (e.g. through a SymArray's local segment), explained. */
    private Object heapFault(Throwable error) {
        return SymmetricHeap.isFault(error) ? st.heap.faultExplanation(error) : error;
    }

    /**
     * What the failure handler reports for an uncaught exception: a fault on the heap that no access
     * could turn into a ShmemException (see Comm's "Faults": the JVM raises it at its next safepoint
     * poll, which may be in the caller's code, not the library's) becomes one here, naming the PE,
     * with the JVM's InternalError as its cause.
     */
    private Throwable heapFaultReported(Throwable error) {
        if (!SymmetricHeap.isFault(error)) {
            return error;
        }
        ShmemException e = new ShmemException("PE " + st.me + ": " + st.heap.faultExplanation(error), error);
        e.setStackTrace(error.getStackTrace());
        return e;
    }

    @Override
    public ForkSafetyReport forkSafetyReport() {
        return ForkSafety.inUse(st.transport == null ? null : st.transport.name(), System.getenv());
    }

    String transportName() {
        if (st.transport == null) {
            return "shm (direct load/store)";
        }
        return "shm on-node, " + st.transport.name() + " off-node; atomics "
                + (st.comm.atomicsOnCpu() ? "on the CPU for this node's PEs" : "through " + st.transport.name() + " for every PE");
    }

    boolean failing() {
        return st.failed;
    }

    Bootstrap bootstrap() {
        return st.bootstrap;
    }
}
