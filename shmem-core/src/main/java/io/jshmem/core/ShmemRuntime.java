package io.jshmem.core;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ShmemVersion;
import io.jshmem.SpecVersion;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import io.jshmem.ThreadLevel;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.HeapAllocator;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Optional;

/**
 * The initialized library of one PE: the default context plus setup, memory management and
 * barriers. On-node peers are reached through their mapped heaps ({@link #seg}); the hot paths
 * check their arguments with plain field reads and then issue one load, store or atomic.
 */
public final class ShmemRuntime extends AbstractShmemCtx implements Shmem {
    /** Each barrier round's flag sits on its own cache line. */
    private static final int FLAG_STRIDE = 64;
    private static final int MAX_ROUNDS = 32;
    /** Per-PE slot for SHMEM_DEBUG cross-checks of collective arguments: sequence, a, b. */
    private static final int DEBUG_SLOT = 64;

    private final int me;
    private final int npes;
    private final Config config;
    private final Bootstrap bootstrap;
    private final SymmetricHeap heap;
    private final MemorySegment self;
    private final Backoff backoff;
    private final ThreadLevel threadLevel;
    private final RemoteTransport transport;
    private final Thread initThread;
    private final long barrierFlags;
    private final long debugSlot;
    private final Thread shutdownHook;

    /** Hot-path view of the peers' heaps; swapped for an all-null array at finalize. */
    private MemorySegment[] peers;
    private long barrierEpoch;
    private long debugSequence;
    private volatile String abortReason;
    private volatile boolean finalized;
    /** Set when this PE is going down abnormally: the implicit finalize must not wait for others. */
    private volatile boolean failed;

    ShmemRuntime(Bootstrap bootstrap, Config config, ThreadLevel requested) {
        this.bootstrap = bootstrap;
        this.config = config;
        this.me = bootstrap.rank();
        this.npes = bootstrap.size();
        this.threadLevel = requested;
        this.initThread = Thread.currentThread();
        bootstrap.onAbort(reason -> abortReason = reason);
        this.heap = SymmetricHeap.create(bootstrap, config);
        this.self = heap.self();
        this.peers = heap.peers();
        this.transport = null; // PEs on other nodes need the UCX transport (shmem-ucx).
        int localPes = 0;
        for (MemorySegment s : peers) {
            localPes += s == null ? 0 : 1;
        }
        this.backoff = new Backoff(localPes > Runtime.getRuntime().availableProcessors(), this::checkAbort);
        this.barrierFlags = heap.allocInternal((long) MAX_ROUNDS * FLAG_STRIDE);
        this.debugSlot = heap.allocInternal(DEBUG_SLOT);
        this.shutdownHook = new Thread(this::implicitFinalize, "jshmem-implicit-finalize");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        installFailureHandler();
        syncAll();
        if (me == 0 && (config.version() || config.info())) {
            System.err.println("jshmem " + ShmemVersion.JSHMEM_VERSION + " (OpenSHMEM " + ShmemVersion.SPEC_MAJOR + "."
                    + ShmemVersion.SPEC_MINOR + ")");
        }
        if (me == 0 && config.info()) {
            InfoReport.forJob(config, npes, localPes, bootstrap.describe(), transportName()).forEach(System.err::println);
        }
    }

    // ---------------------------------------------------------------- primitives for AbstractShmemCtx

    @Override
    protected long offset(SymArray<?> object, long index, long count) {
        if (object instanceof SymArrayImpl<?> a && a.heap == heap && !a.freed) {
            if (index >= 0 && count >= 0 && index <= a.length - count) {
                return a.offset + (index << a.shift);
            }
            throw outOfBounds(a, index, count, "element");
        }
        throw badObject(object);
    }

    @Override
    protected long byteOffset(SymArray<?> object, long byteIndex, long byteCount) {
        if (object instanceof SymArrayImpl<?> a && a.heap == heap && !a.freed) {
            long size = a.length << a.shift;
            if (byteIndex >= 0 && byteCount >= 0 && byteIndex <= size - byteCount) {
                return a.offset + byteIndex;
            }
            throw outOfBounds(a, byteIndex, byteCount, "byte");
        }
        throw badObject(object);
    }

    @Override
    protected MemorySegment seg(int pe) {
        MemorySegment[] p = peers;
        if (pe >= 0 && pe < p.length) {
            MemorySegment s = p[pe];
            if (s != null) {
                return s;
            }
        }
        return segSlow(pe);
    }

    private MemorySegment segSlow(int pe) {
        if (finalized) {
            throw new ShmemException("PE " + me + ": jshmem used after shmem finalize (close)");
        }
        if (pe < 0 || pe >= npes) {
            throw new ShmemException("PE " + me + ": PE " + pe + " is out of range: the job has " + npes
                    + " PEs (0.." + (npes - 1) + ")");
        }
        if (transport == null) {
            throw new ShmemException("PE " + me + ": PE " + pe + " is on node " + heap.nodeOf(pe)
                    + ", not on this one, and no network transport is available");
        }
        return null;
    }

    @Override
    protected RemoteTransport remote() {
        return transport;
    }

    @Override
    protected MemorySegment self() {
        return self;
    }

    @Override
    protected Backoff backoff() {
        return backoff;
    }

    @Override
    protected SymArrayImpl<?> syncObject(SymArray<?> ivars, int[] status, Object values, long[] indices) {
        offset(ivars, 0, 0);
        SymArrayImpl<?> a = (SymArrayImpl<?>) ivars;
        if (status != null && status.length < a.length) {
            throw new IllegalArgumentException("status has " + status.length + " entries, ivars " + a.length);
        }
        if (values != null && java.lang.reflect.Array.getLength(values) < a.length) {
            throw new IllegalArgumentException("cmp_values has " + java.lang.reflect.Array.getLength(values)
                    + " entries, ivars " + a.length);
        }
        if (indices != null && indices.length < a.length) {
            throw new IllegalArgumentException("indices has room for " + indices.length + " entries, ivars has " + a.length);
        }
        return a;
    }

    private ShmemException badObject(Object object) {
        if (finalized) {
            return new ShmemException("PE " + me + ": jshmem used after shmem finalize (close)");
        }
        if (object == null) {
            return new ShmemException("PE " + me + ": symmetric object is null");
        }
        if (object instanceof SymArrayImpl<?> a) {
            return a.heap != heap ? new ShmemException("PE " + me + ": " + object + " belongs to another symmetric heap")
                    : heap.deadObject(a);
        }
        return new ShmemException("PE " + me + ": " + object.getClass().getName()
                + " is not a symmetric object: allocate one with shmem.malloc");
    }

    private ShmemException outOfBounds(SymArrayImpl<?> a, long index, long count, String unit) {
        long size = unit.equals("byte") ? a.length << a.shift : a.length;
        return new ShmemException("PE " + me + ": " + unit + "s [" + index + ", " + index + "+" + count
                + ") are outside the symmetric " + a.type.name() + " array of " + size + " " + unit + "s");
    }

    private void checkAbort() {
        String reason = abortReason;
        if (reason != null) {
            failed = true;
            throw new ShmemException("PE " + me + ": the job is being aborted: " + reason);
        }
    }

    // ---------------------------------------------------------------- ordering

    @Override
    public void fence() {
        VarHandle.releaseFence();
        if (transport != null) {
            transport.fence();
        }
    }

    @Override
    public void quiet() {
        VarHandle.fullFence();
        if (transport != null) {
            transport.quiet();
        }
    }

    @Override
    public void peQuiet(int... pes) {
        for (int pe : pes) {
            if (seg(pe) == null) {
                transport.quiet(pe);
            }
        }
        VarHandle.fullFence();
    }

    // ---------------------------------------------------------------- barriers

    @Override
    public void barrierAll() {
        quiet();
        syncAll();
    }

    /**
     * Dissemination barrier: in round r this PE raises the flag of PE me+2^r and waits for its own
     * flag from PE me-2^r; ceil(log2 N) rounds. Flags hold the barrier's epoch, which only grows,
     * so they never need resetting.
     */
    @Override
    public void syncAll() {
        long epoch = ++barrierEpoch;
        for (int r = 0, dist = 1; dist < npes; r++, dist <<= 1) {
            int to = (me + dist) % npes;
            long off = barrierFlags + (long) r * FLAG_STRIDE;
            MemorySegment t = seg(to);
            if (t != null) {
                LONG.setRelease(t, off, epoch);
            } else {
                transport.putValue(to, off, epoch, 8);
                transport.quiet(to);
            }
            for (int k = 0; (long) LONG.getAcquire(self, off) < epoch; ) {
                k = backoff.idle(k);
            }
        }
    }

    // ---------------------------------------------------------------- setup and query

    @Override
    public int myPe() {
        return me;
    }

    @Override
    public int nPes() {
        return npes;
    }

    @Override
    public boolean peAccessible(int pe) {
        return !finalized && pe >= 0 && pe < npes && (peers[pe] != null || transport != null);
    }

    @Override
    public boolean addrAccessible(SymArray<?> object, int pe) {
        return object instanceof SymArrayImpl<?> a && a.heap == heap && !a.freed && peAccessible(pe);
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
        failed = true;
        VarHandle.fullFence();
        bootstrap.abort(status, "PE " + me + " called globalExit(" + status + ")");
        Runtime.getRuntime().halt(status);
    }

    public boolean finalizedOrFailed() {
        return finalized || failed;
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
            throw new ShmemException("PE " + me + ": align: alignment " + alignment + " is not a power of two");
        }
        return allocate("align", type, length, alignment, false);
    }

    @Override
    public <T extends SymArray<?>> T mallocWithHints(SymType<T> type, long length, long hints) {
        // Hints only steer placement; on shared memory every placement is equally good.
        return allocate("mallocWithHints", type, length, HeapAllocator.MIN_ALIGNMENT, false);
    }

    private <T extends SymArray<?>> T allocate(String routine, SymType<T> type, long length, long alignment, boolean zero) {
        checkLive(routine);
        if (type == null) {
            throw new ShmemException("PE " + me + ": " + routine + ": type is null");
        }
        if (length < 0) {
            throw new ShmemException("PE " + me + ": " + routine + ": negative length " + length);
        }
        long bytes = checkedBytes(routine, type, length);
        if (config.debug()) {
            checkCollectiveArgs(routine, bytes, alignment);
        }
        SymArrayImpl<?> obj;
        synchronized (heap) {
            long off = bytes == 0 ? heap.allocator().base() : heap.allocator().allocate(bytes, alignment);
            if (off < 0) {
                throw exhausted(routine, bytes);
            }
            obj = SymArrayImpl.create(heap, type, off, length);
        }
        if (zero) {
            obj.local.fill((byte) 0);
        }
        barrierAll();
        @SuppressWarnings("unchecked")
        T t = (T) obj;
        return t;
    }

    private long checkedBytes(String routine, SymType<?> type, long length) {
        try {
            return Math.multiplyExact(length, (long) type.elementSize());
        } catch (ArithmeticException e) {
            throw exhausted(routine, Long.MAX_VALUE);
        }
    }

    private ShmemException exhausted(String routine, long bytes) {
        HeapAllocator a = heap.allocator();
        return new ShmemException("PE " + me + ": symmetric heap exhausted: " + routine + " requested " + bytes
                + " bytes, " + a.totalFree() + " bytes free (largest free block " + a.largestFree() + ") of "
                + a.capacity() + "; raise SHMEM_SYMMETRIC_SIZE (now " + Config.formatSize(a.capacity()) + ")");
    }

    @Override
    public <T extends SymArray<?>> T realloc(T object, long newLength) {
        checkLive("realloc");
        offset(object, 0, 0);
        SymArrayImpl<?> old = (SymArrayImpl<?>) object;
        if (newLength < 0) {
            throw new ShmemException("PE " + me + ": realloc: negative length " + newLength);
        }
        long bytes = checkedBytes("realloc", old.type, newLength);
        if (config.debug()) {
            checkCollectiveArgs("realloc", bytes, old.offset);
        }
        barrierAll();
        SymArrayImpl<?> obj;
        synchronized (heap) {
            HeapAllocator a = heap.allocator();
            boolean wasEmpty = old.length == 0;
            if (!wasEmpty && bytes > 0 && a.resizeInPlace(old.offset, bytes)) {
                obj = SymArrayImpl.create(heap, old.type, old.offset, newLength);
            } else {
                long off = bytes == 0 ? a.base() : a.allocate(bytes, HeapAllocator.MIN_ALIGNMENT);
                if (off < 0) {
                    throw exhausted("realloc", bytes);
                }
                obj = SymArrayImpl.create(heap, old.type, off, newLength);
                MemorySegment.copy(old.local, 0, obj.local, 0, Math.min(old.byteSize(), obj.byteSize()));
                if (!wasEmpty) {
                    a.free(old.offset);
                }
            }
            old.freed = true;
        }
        barrierAll();
        @SuppressWarnings("unchecked")
        T t = (T) obj;
        return t;
    }

    @Override
    public void free(SymArray<?> object) {
        checkLive("free");
        offset(object, 0, 0);
        SymArrayImpl<?> a = (SymArrayImpl<?>) object;
        if (config.debug()) {
            checkCollectiveArgs("free", a.offset, a.length);
        }
        barrierAll();
        synchronized (heap) {
            if (a.length > 0) {
                heap.allocator().free(a.offset);
            }
            a.freed = true;
        }
    }

    private void checkLive(String routine) {
        if (finalized) {
            throw new ShmemException("PE " + me + ": " + routine + " called after shmem finalize (close)");
        }
    }

    /**
     * SHMEM_DEBUG: every PE publishes the arguments of a collective call in its debug slot; each
     * then compares all PEs' and throws, naming the PEs, if they differ. All PEs see the same data,
     * so either all throw or none.
     */
    void checkCollectiveArgs(String routine, long a, long b) {
        long seq = ++debugSequence;
        self.set(java.lang.foreign.ValueLayout.JAVA_LONG, debugSlot + 8, a);
        self.set(java.lang.foreign.ValueLayout.JAVA_LONG, debugSlot + 16, b);
        LONG.setRelease(self, debugSlot, seq);
        syncAll();
        StringBuilder mismatch = null;
        long a0 = 0;
        long b0 = 0;
        for (int pe = 0; pe < npes; pe++) {
            MemorySegment s = seg(pe);
            long pa = s != null ? (long) LONG.getAcquire(s, debugSlot + 8) : transport.getValue(pe, debugSlot + 8, 8);
            long pb = s != null ? (long) LONG.getAcquire(s, debugSlot + 16) : transport.getValue(pe, debugSlot + 16, 8);
            if (pe == 0) {
                a0 = pa;
                b0 = pb;
            } else if (pa != a0 || pb != b0) {
                if (mismatch == null) {
                    mismatch = new StringBuilder("PE 0: (" + a0 + ", " + b0 + ")");
                }
                mismatch.append(", PE ").append(pe).append(": (").append(pa).append(", ").append(pb).append(')');
            }
        }
        syncAll();
        if (mismatch != null) {
            throw new ShmemException("PE " + me + ": SHMEM_DEBUG: " + routine
                    + " was called with different arguments on different PEs: " + mismatch);
        }
    }

    // ---------------------------------------------------------------- finalize

    @Override
    public void close() {
        synchronized (this) {
            if (finalized) {
                return;
            }
            barrierAll();
            finalized = true;
            peers = new MemorySegment[npes];
        }
        heap.close();
        bootstrap.finalized();
        bootstrap.close();
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
        if (finalized) {
            return;
        }
        if (failed || abortReason != null) {
            heap.close();
            return;
        }
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println("jshmem: PE " + me + ": implicit finalize at exit failed: " + e.getMessage());
        }
    }

    /** An uncaught exception in the initializing thread marks this PE as failing, so exit does not wait for others. */
    private void installFailureHandler() {
        Thread.UncaughtExceptionHandler previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            if (thread == initThread) {
                failed = true;
            }
            if (previous != null) {
                previous.uncaughtException(thread, error);
            } else {
                System.err.print("Exception in thread \"" + thread.getName() + "\" ");
                error.printStackTrace();
            }
        });
    }

    String transportName() {
        return transport == null ? "shm (direct load/store)" : "shm on-node, " + transport.name() + " off-node";
    }
}
