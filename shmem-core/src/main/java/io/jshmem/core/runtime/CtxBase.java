/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.Cmp;
import io.jshmem.ShmemCtx;
import io.jshmem.SignalOp;
import io.jshmem.SymArray;
import io.jshmem.core.base.Flight;
import io.jshmem.core.comm.Arrays2;
import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.OpenContext;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.SymArrayImpl;
import io.jshmem.core.comm.Waiter;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * What every context is built on: argument checks that cost a few field reads, the context's PE
 * numbers (its team's) mapped to world PEs, the {@link Comm} that reaches them, ordering, and the
 * type-independent parts of RMA and point-to-point synchronization. The default context
 * ({@link ShmemRuntime}, the world team's) and created contexts ({@link ContextImpl}) share this
 * code, so the hot paths stay monomorphic.
 */
public abstract class CtxBase implements ShmemCtx, OpenContext {
    static final VarHandle LONG = Comm.LONG;
    static final VarHandle INT = Comm.INT;
    static final VarHandle SHORT = Comm.SHORT;
    static final VarHandle BYTE = Comm.BYTE;
    static final VarHandle CHAR = ValueLayout.JAVA_CHAR.varHandle();
    static final VarHandle FLOAT = ValueLayout.JAVA_FLOAT.varHandle();
    static final VarHandle DOUBLE = ValueLayout.JAVA_DOUBLE.varHandle();

    public final PeState st;
    private final Object heap;
    private final MemorySegment self;
    private final Waiter waiter;
    final Comm comm;
    /** Number of PEs of the context's team. */
    private final int npes;
    /** World PE number of each of the context's PEs; empty once the context is unusable. */
    private int[] worldPes;
    private volatile boolean destroyed;
    /**
     * The thread a CTX_PRIVATE context belongs to, null for the others. Over UCX such a context's
     * bookkeeping takes no lock, so another thread's operations would race its owner's (lost
     * operations, a request completed twice): refused instead, on every transport alike.
     */
    private final Thread owner;

    CtxBase(PeState st, Comm comm, int[] worldPes, Thread owner) {
        this.st = st;
        this.owner = owner;
        this.heap = st.heap;
        this.self = st.self;
        this.waiter = st.waiter;
        this.comm = comm;
        this.npes = worldPes.length;
        this.worldPes = worldPes;
    }

    /** Checks a live object of this heap and elements {@code [index, index+count)}; returns the heap byte offset of element {@code index}. */
    protected final long offset(SymArray<?> object, long index, long count) {
        if (object instanceof SymArrayImpl<?> a && a.heap == heap && !a.freed) {
            if (index >= 0 && count >= 0 && index <= a.length - count) {
                return a.offset + (index << a.shift);
            }
            throw st.outOfBounds(a, index, count, "element");
        }
        throw st.badObject(object);
    }

    /** Like {@link #offset} for a byte range of the object. */
    protected final long byteOffset(SymArray<?> object, long byteIndex, long byteCount) {
        if (object instanceof SymArrayImpl<?> a && a.heap == heap && !a.freed) {
            long size = a.length << a.shift;
            if (byteIndex >= 0 && byteCount >= 0 && byteIndex <= size - byteCount) {
                return a.offset + byteIndex;
            }
            throw st.outOfBounds(a, byteIndex, byteCount, "byte");
        }
        throw st.badObject(object);
    }

    /** Whether this is a CTX_PRIVATE context and the caller not the thread that created it. */
    private boolean foreignThread() {
        return owner != null && owner != Thread.currentThread();
    }

    /** The world PE number of the context's PE {@code pe}, checked (and the context usable). */
    protected final int pe(int pe) {
        int[] w = worldPes;
        if (pe >= 0 && pe < w.length && !foreignThread()) {
            return w[pe];
        }
        throw peError(pe);
    }

    private RuntimeException peError(int pe) {
        if (st.finalized) {
            return st.afterFinalize();
        }
        if (destroyed) {
            return st.error("context used after it was destroyed (closed)");
        }
        if (foreignThread()) {
            return st.error("a context created with CTX_PRIVATE by thread \"" + owner.getName() + "\" was used by thread \""
                    + Thread.currentThread().getName() + "\": a private context belongs to its creating thread (create one"
                    + " per thread, or use CTX_SERIALIZED for a context that threads take turns with)");
        }
        return st.error("PE " + pe + " is out of range: " + peRange()
                + " has " + npes + " PEs (0.." + (npes - 1) + ")");
    }

    /** What the context's PE numbers range over, in errors: its team's (the default context says "the job"). */
    String peRange() {
        return "the team";
    }

    /** The mapped heap of the context's PE {@code pe}, or null when it is reached through the transport. */
    protected final MemorySegment seg(int pe) {
        return comm.direct(pe(pe));
    }

    /** Checks a synchronization call's object and arrays; returns the object's implementation. */
    protected final SymArrayImpl<?> syncObject(SymArray<?> ivars, int[] status, Object values, long[] indices) {
        SymArrayImpl<?> a = st.check(ivars);
        if (st.finalized) {
            throw st.afterFinalize();
        }
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

    // ---------------------------------------------------------------- RMA, any type

    /** Strided put of {@code nblocks} blocks of {@code bsize} elements (iput: bsize 1). */
    protected final void stridedPut(SymArray<?> dest, long destIndex, long dst, Object source, int sourceIndex, long sst,
            long bsize, long nblocks, int pe) {
        Arrays2.checkStrides(dst, sst, bsize, nblocks);
        int w = pe(pe);
        if (nblocks == 0 || bsize == 0) {
            return;
        }
        long off = offset(dest, destIndex, (nblocks - 1) * dst + bsize);
        Arrays2.checkArrayRange(source, sourceIndex, (nblocks - 1) * sst + bsize);
        SymArrayImpl<?> d = (SymArrayImpl<?>) dest;
        for (long k = 0; k < nblocks; k++) {
            comm.put(w, off + ((k * dst) << d.shift), source, Math.toIntExact(sourceIndex + k * sst), d.layout, (int) bsize);
        }
    }

    /** Strided get of {@code nblocks} blocks of {@code bsize} elements (iget: bsize 1). */
    protected final void stridedGet(Object dest, int destIndex, long dst, SymArray<?> source, long sourceIndex, long sst,
            long bsize, long nblocks, int pe) {
        Arrays2.checkStrides(dst, sst, bsize, nblocks);
        int w = pe(pe);
        if (nblocks == 0 || bsize == 0) {
            return;
        }
        long off = offset(source, sourceIndex, (nblocks - 1) * sst + bsize);
        Arrays2.checkArrayRange(dest, destIndex, (nblocks - 1) * dst + bsize);
        SymArrayImpl<?> s = (SymArrayImpl<?>) source;
        for (long k = 0; k < nblocks; k++) {
            comm.get(w, off + ((k * sst) << s.shift), dest, Math.toIntExact(destIndex + k * dst), s.layout, (int) bsize);
        }
    }

    /** Put with signal: the data, then the signal, ordered so that a PE that sees the signal sees the data. */
    protected final void putWithSignal(SymArray<?> dest, long destIndex, Object source, int sourceIndex, int nelems,
            MemorySegment sourceSegment, SymArray<?> sig, long sigIndex, long signal, SignalOp sigOp, int pe) {
        long off = sourceSegment == null ? offset(dest, destIndex, nelems)
                : offset(dest, destIndex, Arrays2.elements(sourceSegment, st.check(dest)));
        long sigOff = offset(sig, sigIndex, 1);
        int w = pe(pe);
        if (sourceSegment == null) {
            comm.putSignal(w, off, source, sourceIndex, ((SymArrayImpl<?>) dest).layout, nelems, sigOff, signal, sigOp);
        } else {
            comm.putSignal(w, off, sourceSegment, sigOff, signal, sigOp, false);
        }
    }

    // ---------------------------------------------------------------- point-to-point synchronization, any type

    /**
     * Waits until this PE's {@code bytes}-wide word at {@code off} satisfies {@code cmp value};
     * returns the value that did. A wait that does not return at once is a {@link Flight.Wait} event.
     */
    protected final long waitWord(long off, int bytes, Cmp cmp, long value, String routine) {
        MemorySegment s = self;
        long v = load(s, off, bytes);
        if (cmp.test(v, value)) {
            return v;
        }
        Flight.Wait ev = waitEvent(routine);
        for (long w = 0; !cmp.test(v = load(s, off, bytes), value); ) {
            w = waiter.idle(w, s, off, bytes, v);
        }
        end(ev);
        return v;
    }

    private static Flight.Wait waitEvent(String routine) {
        if (!Flight.recorderStarted() || !Flight.Wait.ON.isEnabled()) {
            return null;
        }
        Flight.Wait e = new Flight.Wait();
        e.routine = routine;
        e.begin();
        return e;
    }

    private static void end(Flight.Wait e) {
        if (e != null) {
            e.commit();
        }
    }

    /** Whether this PE's {@code bytes}-wide word at {@code off} satisfies {@code cmp value}. */
    protected final boolean testWord(long off, int bytes, Cmp cmp, long value) {
        return cmp.test(load(self, off, bytes), value);
    }

    private static long load(MemorySegment s, long off, int bytes) {
        return switch (bytes) {
            case 8 -> (long) LONG.getAcquire(s, off);
            case 4 -> (int) INT.getAcquire(s, off);
            default -> (short) SHORT.getAcquire(s, off);
        };
    }

    /** Reads element {@code i} of a synchronization array with acquire semantics, widened to long. */
    private long loadAcquire(SymArrayImpl<?> a, long i) {
        return load(self, a.offset + (i << a.shift), 1 << a.shift);
    }

    private static long operand(long value, Object values, long i) {
        return switch (values) {
            case null -> value;
            case long[] v -> v[(int) i];
            case int[] v -> v[(int) i];
            case short[] v -> v[(int) i];
            default -> throw new IllegalArgumentException("comparison values must be long[], int[] or short[]");
        };
    }

    private static boolean excluded(int[] status, long i) {
        return status != null && status[(int) i] != 0;
    }

    protected final boolean testAllImpl(SymArray<?> ivars, int[] status, Cmp cmp, long value, Object values) {
        SymArrayImpl<?> a = syncObject(ivars, status, values, null);
        for (long i = 0; i < a.length; i++) {
            if (!excluded(status, i) && !cmp.test(loadAcquire(a, i), operand(value, values, i))) {
                return false;
            }
        }
        return true;
    }

    protected final long testAnyImpl(SymArray<?> ivars, int[] status, Cmp cmp, long value, Object values) {
        return scanAny(syncObject(ivars, status, values, null), false, status, cmp, value, values);
    }

    /** testAny's scan, from the cursor of waitUntilAny's calls ({@code forWait}) or testAny's. */
    private long scanAny(SymArrayImpl<?> a, boolean forWait, int[] status, Cmp cmp, long value, Object values) {
        long n = a.length;
        long start = forWait ? a.waitAnyStart : a.testAnyStart;
        if (start >= n || start < 0) {
            start = 0;
        }
        // From just after the index returned last, round to it: a satisfied entry cannot be
        // passed over forever by one before it that stays satisfied.
        for (long k = 0, i = start; k < n; k++, i = i + 1 == n ? 0 : i + 1) {
            if (!excluded(status, i) && cmp.test(loadAcquire(a, i), operand(value, values, i))) {
                if (forWait) {
                    a.waitAnyStart = i + 1;
                } else {
                    a.testAnyStart = i + 1;
                }
                return i;
            }
        }
        return -1;
    }

    protected final int testSomeImpl(SymArray<?> ivars, long[] indices, int[] status, Cmp cmp, long value, Object values) {
        SymArrayImpl<?> a = syncObject(ivars, status, values, indices);
        int n = 0;
        for (long i = 0; i < a.length; i++) {
            if (!excluded(status, i) && cmp.test(loadAcquire(a, i), operand(value, values, i))) {
                indices[n++] = i;
            }
        }
        return n;
    }

    private static boolean allExcluded(SymArray<?> ivars, int[] status) {
        if (status == null) {
            return ivars.length() == 0;
        }
        for (long i = 0; i < ivars.length(); i++) {
            if (status[(int) i] == 0) {
                return false;
            }
        }
        return true;
    }

    protected final void waitAllImpl(SymArray<?> ivars, int[] status, Cmp cmp, long value, Object values) {
        if (testAllImpl(ivars, status, cmp, value, values)) {
            return;
        }
        Flight.Wait ev = waitEvent("wait_until_all");
        for (long w = 0; !testAllImpl(ivars, status, cmp, value, values); ) {
            w = waiter.idle(w, self);
        }
        end(ev);
    }

    protected final long waitAnyImpl(SymArray<?> ivars, int[] status, Cmp cmp, long value, Object values) {
        long i = scanAny(syncObject(ivars, status, values, null), true, status, cmp, value, values);
        if (i >= 0) {
            return i;
        }
        Flight.Wait ev = waitEvent("wait_until_any");
        for (long w = 0; (i = scanAny(syncObject(ivars, status, values, null), true, status, cmp, value, values)) < 0; ) {
            if (allExcluded(ivars, status)) {
                return -1;
            }
            w = waiter.idle(w, self);
        }
        end(ev);
        return i;
    }

    protected final int waitSomeImpl(SymArray<?> ivars, long[] indices, int[] status, Cmp cmp, long value, Object values) {
        int n = testSomeImpl(ivars, indices, status, cmp, value, values);
        if (n > 0) {
            return n;
        }
        Flight.Wait ev = waitEvent("wait_until_some");
        for (long w = 0; (n = testSomeImpl(ivars, indices, status, cmp, value, values)) == 0; ) {
            if (allExcluded(ivars, status)) {
                return 0;
            }
            w = waiter.idle(w, self);
        }
        end(ev);
        return n;
    }

    // ---------------------------------------------------------------- ordering

    @Override
    public final void fence() {
        checkUsable();
        if (Flight.recorderStarted() && Flight.Fence.ON.isEnabled()) {
            Flight.Fence ev = new Flight.Fence();
            ev.begin();
            comm.fence();
            ev.commit();
        } else {
            comm.fence();
        }
    }

    @Override
    public final void quiet() {
        checkUsable();
        if (Flight.recorderStarted() && Flight.Quiet.ON.isEnabled()) {
            Flight.Quiet ev = new Flight.Quiet();
            ev.begin();
            comm.quiet();
            ev.commit();
        } else {
            comm.quiet();
        }
    }

    @Override
    public final void peQuiet(int... pes) {
        checkUsable();
        for (int pe : pes) {
            comm.quiet(pe(pe));
        }
        VarHandle.fullFence();
    }

    @Override
    public final void sessionStart(long options) {
        checkUsable();
    }

    @Override
    public final void sessionStop() {
        quiet();
    }

    private void checkUsable() {
        if (worldPes.length == 0 && (st.finalized || destroyed) || foreignThread()) {
            throw peError(0);
        }
    }

    /** Makes the context unusable: every later call throws. */
    final void invalidate(boolean destroy) {
        destroyed = destroy;
        worldPes = new int[0];
    }

    @Override
    public final void invalidateAtFinalize() {
        invalidate(false);
    }

    final boolean destroyed() {
        return destroyed;
    }

    /** This context's own transport, when it has one (closed with the context). */
    final RemoteTransport ownTransport() {
        RemoteTransport t = comm.transport();
        return t != null && t != st.comm.transport() ? t : null;
    }
}
