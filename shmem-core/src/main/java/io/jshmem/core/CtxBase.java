package io.jshmem.core;

import io.jshmem.ShmemCtx;
import io.jshmem.SignalOp;
import io.jshmem.SymArray;
import io.jshmem.core.transport.AmoOp;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * The primitives every context is built on: argument checks that cost a few field reads, the
 * peer table (indexed by the context's team PE numbers), ordering. The default context
 * ({@link ShmemRuntime}) and created contexts ({@link ContextImpl}) share this code, so the hot
 * paths stay monomorphic.
 */
abstract class CtxBase implements ShmemCtx {
    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    static final VarHandle SHORT = ValueLayout.JAVA_SHORT.varHandle();
    static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    static final VarHandle CHAR = ValueLayout.JAVA_CHAR.varHandle();
    static final VarHandle FLOAT = ValueLayout.JAVA_FLOAT.varHandle();
    static final VarHandle DOUBLE = ValueLayout.JAVA_DOUBLE.varHandle();

    final PeState st;
    private final Object heap;
    private final MemorySegment self;
    private final Waiter waiter;
    private final RemoteTransport transport;
    /** Team PE number to world PE number; null when they are the same (world team). */
    private final int[] worldPes;
    /** Mapped heaps by team PE number (null: reached through the transport); all null once unusable. */
    private MemorySegment[] peers;
    private volatile boolean destroyed;

    CtxBase(PeState st, MemorySegment[] peers, int[] worldPes) {
        this.st = st;
        this.heap = st.heap;
        this.self = st.self;
        this.waiter = st.waiter;
        this.transport = st.transport;
        this.peers = peers;
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

    /** The mapped heap of (team) PE {@code pe}, or null when it is reached through {@link #remote()}. */
    protected final MemorySegment seg(int pe) {
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
        if (st.finalized) {
            throw st.afterFinalize();
        }
        if (destroyed) {
            throw st.error("context used after it was destroyed (closed)");
        }
        int n = peers.length;
        if (pe < 0 || pe >= n) {
            throw st.error("PE " + pe + " is out of range: " + (worldPes == null ? "the job" : "the team") + " has " + n
                    + " PEs (0.." + (n - 1) + ")");
        }
        if (transport == null) {
            int w = worldPe(pe);
            throw st.error("PE " + w + " is on node " + st.heap.nodeOf(w) + ", not on this one, and no network transport is available");
        }
        return null;
    }

    protected final int worldPe(int pe) {
        return worldPes == null ? pe : worldPes[pe];
    }

    protected final RemoteTransport remote() {
        return transport;
    }

    protected final MemorySegment self() {
        return self;
    }

    protected final Waiter waiter() {
        return waiter;
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

    /** Updates a signal word on a mapped heap: the release orders the data written before it. */
    protected static void signalLocal(MemorySegment s, long off, long signal, SignalOp op) {
        if (op == SignalOp.ADD) {
            LONG.getAndAdd(s, off, signal);
            Waiter.poke(s); // the atomic is a full fence: no wake-up can be lost
        } else {
            LONG.setRelease(s, off, signal);
            Waiter.signal(s);
        }
    }

    /** Updates a signal word through the transport, after the data put to the same PE. */
    protected final void signalRemote(int pe, long off, long signal, SignalOp op) {
        int w = worldPe(pe);
        transport.fence();
        transport.atomic64(w, off, op == SignalOp.ADD ? AmoOp.ADD : AmoOp.SET, signal, 0);
    }

    // ---------------------------------------------------------------- ordering

    @Override
    public final void fence() {
        checkUsable();
        VarHandle.releaseFence();
        if (transport != null) {
            transport.fence();
        }
    }

    @Override
    public final void quiet() {
        checkUsable();
        VarHandle.fullFence();
        if (transport != null) {
            transport.quiet();
        }
    }

    @Override
    public final void peQuiet(int... pes) {
        for (int pe : pes) {
            if (seg(pe) == null) {
                transport.quiet(worldPe(pe));
            }
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
        if (peers.length > 0 && peers[0] == null && (st.finalized || destroyed)) {
            segSlow(0);
        }
    }

    /** Makes the context unusable: every later call throws. */
    final void invalidate(boolean destroy) {
        destroyed = destroy;
        peers = new MemorySegment[peers.length];
    }

    final boolean destroyed() {
        return destroyed;
    }
}
