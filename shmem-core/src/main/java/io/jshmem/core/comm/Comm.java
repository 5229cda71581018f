/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

import io.jshmem.ShmemException;
import io.jshmem.SignalOp;
import io.jshmem.core.base.Flight;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.AmoOp;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;

/**
 * How an operation reaches a PE, decided in one place (the role of Sandia OpenSHMEM's
 * {@code shmem_comm.h}): a direct load, store or CPU atomic on the mapped heap of a PE on this
 * node, or the network transport. Everything that moves data or updates a word of another PE's
 * heap goes through here: the contexts' RMA, atomics and signals, team syncs, collectives, locks.
 * Arguments are world PE numbers and byte offsets into the symmetric heap; callers check them.
 *
 * <p><b>Atomics policy.</b> Network-card atomics (InfiniBand, RoCE) are atomic only with each
 * other, not with CPU atomics on the same word. When the transport's are not coherent with the
 * CPU's ({@link RemoteTransport#atomicsCoherentWithCpu()}), or {@code SHMEM_ATOMICS=transport},
 * every atomic goes through the transport, to PEs on this node and to this PE too; plain loads and
 * stores stay direct. The on-node fast path is one array load, a null check and the VarHandle
 * access: no allocation, lock or system call.
 *
 * <p><b>Faults.</b> The JVM reports a SIGBUS on a mapped heap (its directory had no page left to
 * back it, or the segment file was truncated) as an InternalError, and raises it asynchronously: at
 * the thread's next safepoint poll, so in whatever frame that poll is. The direct puts, gets and
 * signals catch it and throw a ShmemException naming the PE, the routine and the cure; that works
 * while the access runs interpreted or compiled on its own (the poll is then its own return, inside
 * the try). Once the access is compiled into a caller, the poll is the caller's (a loop back-edge
 * or return in user code) and no catch in the library sees the error (measured: HeapFaultTest's
 * atomic-hot raises it in the user's loop); the failure handler (runtime Lifecycle) then reports it as
 * a ShmemException naming the PE and ends the job. amo64/amo32 have no catch at all: C2 compiles
 * them on their own for the callers that do not inline them, and that code, 2,480 bytes in
 * AmoBench, is just under InlineSmallCode (2,500); a catch block, in them or in a helper they
 * call, took it to 2,600-3,200 bytes, and C2 then stopped inlining them into callers compiled later
 * (AmoBench's swap and add loops: "already compiled into a big method"). So the catch for atomics
 * is in the generated API methods ({@link #heapFault}), where the operation is a constant and the
 * code small: C2 still inlined amo64 at 12-13 call sites there (9-14 without the handlers).
 *
 * <p>One instance per PE, plus one per created context that has a transport of its own
 * ({@link #withTransport}).
 */
public final class Comm {
    public static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    public static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();
    public static final VarHandle SHORT = ValueLayout.JAVA_SHORT.varHandle();
    public static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    private final int me;
    /** Mapped heaps by world PE; null: reached through the transport. */
    private final MemorySegment[] direct;
    /** Like {@link #direct} for atomics: all null when atomics go through the transport. */
    private final MemorySegment[] cpuAtomics;
    private final RemoteTransport transport;
    /** For error messages: the nodes of the PEs, and what a fault on a mapped heap means. */
    private final SymmetricHeap heap;

    /**
     * @param direct         mapped heaps by world PE (null for PEs reached through the transport)
     * @param transport      the network transport, or null when every PE is mapped
     * @param atomicsOnCpu   whether atomics on mapped heaps use CPU atomics (see the atomics policy)
     * @param heap           this PE's heap, for error messages (nodes of the PEs, faults)
     */
    Comm(int me, MemorySegment[] direct, RemoteTransport transport, boolean atomicsOnCpu, SymmetricHeap heap) {
        if (!atomicsOnCpu && transport == null) {
            throw new ShmemException("PE " + me + ": atomics through the network transport (SHMEM_ATOMICS=transport)"
                    + " need one, and this job has none");
        }
        this.me = me;
        this.direct = direct;
        this.cpuAtomics = atomicsOnCpu ? direct : new MemorySegment[direct.length];
        this.transport = transport;
        this.heap = heap;
    }

    /** The same PEs through another transport (a created context's own); the same atomics policy. */
    public Comm withTransport(RemoteTransport t) {
        return t == transport ? this : new Comm(me, direct, t, atomicsOnCpu(), heap);
    }

    /** Whether atomics on mapped heaps are CPU atomics (false: they go through the transport). */
    public boolean atomicsOnCpu() {
        return cpuAtomics == direct;
    }

    int npes() {
        return direct.length;
    }

    /** The mapped heap of world PE {@code pe}, or null when it is reached through the transport. */
    public MemorySegment direct(int pe) {
        return direct[pe];
    }

    public RemoteTransport transport() {
        return transport;
    }

    /** The transport, for world PE {@code pe} which is not mapped here. */
    private RemoteTransport remote(int pe) {
        if (transport == null) {
            throw new ShmemException("PE " + me + ": PE " + pe + " is on node " + heap.nodeOf(pe)
                    + ", not on this one, and no network transport is available");
        }
        return transport;
    }

    // ---------------------------------------------------------------- RMA

    /** Copies {@code source} to {@code pe}; returns when {@code source} may be reused. */
    public void put(int pe, long off, MemorySegment source) {
        Flight.Transfer ev = transfer("put", pe, source.byteSize());
        MemorySegment s = direct[pe];
        if (s != null) {
            try {
                MemorySegment.copy(source, 0, s, off, source.byteSize());
                Waiter.poke(s);
            } catch (InternalError e) {
                throw heap.fault(e, "put", pe);
            }
        } else {
            remote(pe).put(pe, off, source);
        }
        end(ev);
    }

    /** Copies {@code n} bytes of {@code source} from {@code sourceOff} to {@code pe} (the runtime's own data movement). */
    public void put(int pe, long off, MemorySegment source, long sourceOff, long n) {
        MemorySegment s = direct[pe];
        if (s != null) {
            try {
                MemorySegment.copy(source, sourceOff, s, off, n);
                Waiter.poke(s);
            } catch (InternalError e) {
                throw heap.fault(e, "put", pe);
            }
        } else if (n > 0) {
            remote(pe).put(pe, off, source, sourceOff, n);
        }
    }

    /** Like {@link #put}; over the transport, completion is deferred to quiet. */
    public void putNbi(int pe, long off, MemorySegment source) {
        Flight.Transfer ev = transfer("put_nbi", pe, source.byteSize());
        MemorySegment s = direct[pe];
        if (s != null) {
            try {
                MemorySegment.copy(source, 0, s, off, source.byteSize());
                Waiter.poke(s);
            } catch (InternalError e) {
                throw heap.fault(e, "put_nbi", pe);
            }
        } else {
            remote(pe).putNbi(pe, off, source);
        }
        end(ev);
    }

    /** Copies {@code count} elements of a Java array to {@code pe}; the array may be reused on return. */
    public void put(int pe, long off, Object array, int index, ValueLayout layout, int count) {
        Arrays2.requireArray(array);
        Flight.Transfer ev = transfer("put", pe, count * layout.byteSize());
        MemorySegment s = direct[pe];
        if (s != null) {
            try {
                MemorySegment.copy(array, index, s, layout, off, count);
                Waiter.poke(s);
            } catch (InternalError e) {
                throw heap.fault(e, "put", pe);
            }
        } else {
            Arrays2.checkRemoteRange(array, index, count);
            remote(pe).put(pe, off, array, index, layout, count);
        }
        end(ev);
    }

    /** Fills {@code dest} from {@code pe}; returns when the data is there. */
    public void get(int pe, long off, MemorySegment dest) {
        Flight.Transfer ev = transfer("get", pe, dest.byteSize());
        get(pe, off, dest, 0, dest.byteSize(), false);
        end(ev);
    }

    /** Like {@link #get}; over the transport, {@code dest} is valid after quiet. */
    public void getNbi(int pe, long off, MemorySegment dest) {
        Flight.Transfer ev = transfer("get_nbi", pe, dest.byteSize());
        if (direct[pe] != null) {
            get(pe, off, dest, 0, dest.byteSize(), true);
        } else {
            remote(pe).getNbi(pe, off, dest); // the caller's segment: the transport may not keep it
        }
        end(ev);
    }

    /**
     * Copies {@code n} bytes from {@code pe} into {@code dest} at {@code destOff}; over the
     * transport, when {@code nbi}, complete after quiet. The runtime's own data movement calls it
     * directly (no transfer event, no slice object).
     */
    public void get(int pe, long off, MemorySegment dest, long destOff, long n, boolean nbi) {
        MemorySegment s = direct[pe];
        if (s != null) {
            try {
                MemorySegment.copy(s, off, dest, destOff, n);
            } catch (InternalError e) {
                throw heap.fault(e, nbi ? "get_nbi" : "get", pe);
            }
        } else if (nbi) {
            remote(pe).getNbi(pe, off, dest, destOff, n);
        } else {
            remote(pe).get(pe, off, dest, destOff, n);
        }
    }

    /** Fills {@code count} elements of a Java array from {@code pe}. */
    public void get(int pe, long off, Object array, int index, ValueLayout layout, int count) {
        Arrays2.requireArray(array);
        Flight.Transfer ev = transfer("get", pe, count * layout.byteSize());
        MemorySegment s = direct[pe];
        if (s != null) {
            try {
                MemorySegment.copy(s, layout, off, array, index, count);
            } catch (InternalError e) {
                throw heap.fault(e, "get", pe);
            }
        } else {
            Arrays2.checkRemoteRange(array, index, count);
            remote(pe).get(pe, off, array, index, layout, count);
        }
        end(ev);
    }

    /** A started {@link Flight.Transfer} event for a large transfer while JFR records them, else null. */
    private Flight.Transfer transfer(String routine, int pe, long bytes) {
        if (bytes < Flight.TRANSFER_THRESHOLD || !Flight.recorderStarted() || !Flight.Transfer.ON.isEnabled()) {
            return null;
        }
        Flight.Transfer e = new Flight.Transfer();
        e.routine = routine;
        e.pe = pe;
        e.bytes = bytes;
        e.remote = direct[pe] == null;
        e.begin();
        return e;
    }

    private static void end(Flight.Transfer e) {
        if (e != null) {
            e.commit();
        }
    }

    /** Stores the low {@code bytes} (1, 2, 4 or 8) bytes of {@code bits} at {@code pe} with release semantics. */
    public void putValue(int pe, long off, long bits, int bytes) {
        MemorySegment s = direct[pe];
        if (s != null) {
            try {
                switch (bytes) {
                    case 8 -> LONG.setRelease(s, off, bits);
                    case 4 -> INT.setRelease(s, off, (int) bits);
                    case 2 -> SHORT.setRelease(s, off, (short) bits);
                    default -> BYTE.setRelease(s, off, (byte) bits);
                }
                Waiter.poke(s);
            } catch (InternalError e) {
                throw heap.fault(e, "put", pe);
            }
        } else {
            remote(pe).putValue(pe, off, bits, bytes);
        }
    }

    /** Loads {@code bytes} (1, 2, 4 or 8) bytes from {@code pe} with acquire semantics, sign-extended. */
    public long getValue(int pe, long off, int bytes) {
        MemorySegment s = direct[pe];
        if (s != null) {
            try {
                return switch (bytes) {
                    case 8 -> (long) LONG.getAcquire(s, off);
                    case 4 -> (int) INT.getAcquire(s, off);
                    case 2 -> (short) SHORT.getAcquire(s, off);
                    default -> (byte) BYTE.getAcquire(s, off);
                };
            } catch (InternalError e) {
                throw heap.fault(e, "get", pe);
            }
        }
        return remote(pe).getValue(pe, off, bytes);
    }

    // ---------------------------------------------------------------- atomics

    /**
     * For the generated atomics' handlers: the fault as a {@link io.jshmem.ShmemException} naming
     * this PE, the routine and {@code pe} (a world PE); other internal errors are rethrown.
     */
    public RuntimeException heapFault(InternalError error, String routine, int pe) {
        return heap.fault(error, routine, pe);
    }

    /** A 64-bit atomic at {@code pe}; returns the old value for fetching operations, else 0. */
    public long amo64(int pe, long off, AmoOp op, long operand, long compare) {
        MemorySegment s = cpuAtomics[pe];
        if (s == null) {
            return remote(pe).atomic64(pe, off, op, operand, compare);
        }
        if (op == AmoOp.FETCH) {
            return (long) LONG.getVolatile(s, off);
        }
        long old;
        if (op == AmoOp.FETCH_ADD || op == AmoOp.ADD) {
            old = (long) LONG.getAndAdd(s, off, operand);
        } else if (op == AmoOp.SWAP || op == AmoOp.SET) {
            old = (long) LONG.getAndSet(s, off, operand);
        } else if (op == AmoOp.COMPARE_SWAP) {
            old = (long) LONG.compareAndExchange(s, off, compare, operand);
        } else if (op == AmoOp.FETCH_AND || op == AmoOp.AND) {
            old = (long) LONG.getAndBitwiseAnd(s, off, operand);
        } else if (op == AmoOp.FETCH_OR || op == AmoOp.OR) {
            old = (long) LONG.getAndBitwiseOr(s, off, operand);
        } else {
            old = (long) LONG.getAndBitwiseXor(s, off, operand);
        }
        Waiter.poke(s); // after an atomic (a full fence): no wake-up can be lost
        return old;
    }

    /** A 32-bit atomic at {@code pe}; returns the old value for fetching operations, else 0. */
    public int amo32(int pe, long off, AmoOp op, int operand, int compare) {
        MemorySegment s = cpuAtomics[pe];
        if (s == null) {
            return remote(pe).atomic32(pe, off, op, operand, compare);
        }
        if (op == AmoOp.FETCH) {
            return (int) INT.getVolatile(s, off);
        }
        int old;
        if (op == AmoOp.FETCH_ADD || op == AmoOp.ADD) {
            old = (int) INT.getAndAdd(s, off, operand);
        } else if (op == AmoOp.SWAP || op == AmoOp.SET) {
            old = (int) INT.getAndSet(s, off, operand);
        } else if (op == AmoOp.COMPARE_SWAP) {
            old = (int) INT.compareAndExchange(s, off, compare, operand);
        } else if (op == AmoOp.FETCH_AND || op == AmoOp.AND) {
            old = (int) INT.getAndBitwiseAnd(s, off, operand);
        } else if (op == AmoOp.FETCH_OR || op == AmoOp.OR) {
            old = (int) INT.getAndBitwiseOr(s, off, operand);
        } else {
            old = (int) INT.getAndBitwiseXor(s, off, operand);
        }
        Waiter.poke(s);
        return old;
    }

    /*
     * Non-blocking fetching atomics: on this node (CPU atomics) the old value is stored at once;
     * through the transport it lands in fetch[index] by the next quiet, the call returning as
     * soon as the operation is posted.
     */

    public void amoNbi(int pe, long off, AmoOp op, long operand, long compare, long[] fetch, int index) {
        if (cpuAtomics[pe] != null) {
            fetch[index] = amo64(pe, off, op, operand, compare);
        } else {
            remote(pe).atomicNbi(pe, off, op, operand, compare, 8, fetch, index);
        }
    }

    public void amoNbi(int pe, long off, AmoOp op, long operand, long compare, double[] fetch, int index) {
        if (cpuAtomics[pe] != null) {
            fetch[index] = Double.longBitsToDouble(amo64(pe, off, op, operand, compare));
        } else {
            remote(pe).atomicNbi(pe, off, op, operand, compare, 8, fetch, index);
        }
    }

    public void amoNbi(int pe, long off, AmoOp op, int operand, int compare, int[] fetch, int index) {
        if (cpuAtomics[pe] != null) {
            fetch[index] = amo32(pe, off, op, operand, compare);
        } else {
            remote(pe).atomicNbi(pe, off, op, operand, compare, 4, fetch, index);
        }
    }

    public void amoNbi(int pe, long off, AmoOp op, int operand, int compare, float[] fetch, int index) {
        if (cpuAtomics[pe] != null) {
            fetch[index] = Float.intBitsToFloat(amo32(pe, off, op, operand, compare));
        } else {
            remote(pe).atomicNbi(pe, off, op, operand, compare, 4, fetch, index);
        }
    }

    /**
     * Adds to a synchronization word at {@code pe} that only its owner waits on (a dissemination
     * flag): as {@code amo64(ADD)}, except that the transport's quiet need not complete it.
     */
    public void flagAdd(int pe, long off, long increment) {
        MemorySegment s = cpuAtomics[pe];
        if (s == null) {
            remote(pe).flagAdd(pe, off, increment);
            return;
        }
        try {
            LONG.getAndAdd(s, off, increment);
        } catch (InternalError e) {
            throw heap.fault(e, "barrier flag", pe);
        }
        Waiter.poke(s); // the atomic is a full fence: no wake-up can be lost
    }

    /**
     * Copies {@code n} bytes at this PE's heap offset {@code from} to {@code pe} at {@code off}, then
     * adds {@code increment} to the word at {@code counterOff} there, after the data and after this
     * PE's earlier puts to {@code pe} (a collective's push; with {@code n == 0} a notice). Quiet
     * need not complete it: the target waits for the count.
     */
    public void pushCounted(int pe, long off, long from, long n, long counterOff, long increment) {
        MemorySegment s = cpuAtomics[pe];
        if (s == null) {
            // Also on this node when the transport's atomics bypass the CPU: every add to the
            // counter must then go through the transport.
            remote(pe).putCounted(pe, off, heap.self(), from, n, counterOff, increment);
            return;
        }
        try {
            MemorySegment.copy(heap.self(), from, s, off, n);
            LONG.getAndAdd(s, counterOff, increment);
        } catch (InternalError e) {
            throw heap.fault(e, "collective", pe);
        }
        Waiter.poke(s); // the atomic is a full fence: no wake-up can be lost
    }

    /**
     * Updates a signal word at {@code pe} after data put to the same PE: the data is visible to a
     * PE that sees the signal. A set on a mapped heap is a release store; an add is an atomic.
     */
    public void signal(int pe, long off, long value, SignalOp op) {
        MemorySegment s = cpuAtomics[pe];
        if (s != null) {
            try {
                if (op == SignalOp.ADD) {
                    LONG.getAndAdd(s, off, value);
                    Waiter.poke(s); // the atomic is a full fence: no wake-up can be lost
                } else {
                    LONG.setRelease(s, off, value);
                    Waiter.signal(s);
                }
            } catch (InternalError e) {
                throw heap.fault(e, "signal", pe);
            }
            return;
        }
        RemoteTransport t = remote(pe);
        VarHandle.releaseFence(); // data stored directly (on this node) before the transport's signal
        t.fence();
        t.atomic64(pe, off, signalOp(op), value, 0);
        MemorySegment d = direct[pe];
        if (d != null) {
            Waiter.poke(d);
        }
    }

    /**
     * Put with signal of the caller's segment {@code source} to {@code pe} at {@code off}, then the
     * signal word at {@code sigOff} updated as {@link #signal} does: a PE that sees the signal sees
     * the data. Through the transport it is one call, so the transport may send both in one message
     * (UCX: one active message for small data); {@code nbi}: the data's completion may wait for quiet.
     */
    public void putSignal(int pe, long off, MemorySegment source, long sigOff, long value, SignalOp op, boolean nbi) {
        if (direct[pe] != null) {
            if (nbi) {
                putNbi(pe, off, source);
            } else {
                put(pe, off, source);
            }
            signal(pe, sigOff, value, op);
            return;
        }
        Flight.Transfer ev = transfer(nbi ? "put_nbi" : "put", pe, source.byteSize());
        remote(pe).putSignal(pe, off, source, sigOff, value, signalOp(op), nbi);
        end(ev);
    }

    /** {@link #putSignal(int, long, MemorySegment, long, long, SignalOp, boolean)} of {@code count} elements of a Java array. */
    public void putSignal(int pe, long off, Object array, int index, ValueLayout layout, int count, long sigOff, long value, SignalOp op) {
        if (direct[pe] != null) {
            put(pe, off, array, index, layout, count);
            signal(pe, sigOff, value, op);
            return;
        }
        Arrays2.requireArray(array);
        Flight.Transfer ev = transfer("put", pe, count * layout.byteSize());
        Arrays2.checkRemoteRange(array, index, count);
        remote(pe).putSignal(pe, off, array, index, layout, count, sigOff, value, signalOp(op));
        end(ev);
    }

    private static AmoOp signalOp(SignalOp op) {
        return op == SignalOp.ADD ? AmoOp.ADD : AmoOp.SET;
    }

    // ---------------------------------------------------------------- ordering and completion

    /** Orders this PE's earlier puts and atomics to each PE before its later ones. */
    public void fence() {
        VarHandle.releaseFence();
        if (transport != null) {
            transport.fence();
        }
    }

    /** Completes every outstanding operation. */
    public void quiet() {
        VarHandle.fullFence();
        if (transport != null) {
            transport.quiet();
        }
    }

    /** Completes the operations to world PE {@code pe}. */
    public void quiet(int pe) {
        if (direct[pe] == null || !atomicsOnCpu()) {
            remote(pe).quiet(pe);
        }
        VarHandle.fullFence();
    }
}
