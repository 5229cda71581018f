/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Log;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/**
 * Counted pushes and puts with signal as UCX active messages: data for a PE's heap and an update of
 * a 64-bit word there (a counter's increment, or a signal's set or add), in one message that the
 * target applies in order (data, then the word) in its handler. Collectives' pushes and notices,
 * the synchronization flags and small puts with signal ({@link UcxTransport#putSignal}) travel
 * this way. As put + atomic over TCP they were two messages, each acknowledged (the atomic is
 * emulated over active messages, and its completion message woke the sender): four messages where
 * one does.
 *
 * <p>Header (native, {@value #HEADER_BYTES} bytes): heap offset of the data, heap offset of the
 * word, the operand, the operation ({@link #OP_ADD} or {@link #OP_SET}). Sent with
 * {@code UCP_AM_SEND_FLAG_EAGER} (the data is in the handler, never a rendezvous), received with
 * {@code UCP_AM_FLAG_WHOLE_MSG}. The handler runs inside {@code ucp_worker_progress} of this PE's
 * main worker, on whichever thread progresses it (the PE's own thread when it waits in the
 * library, else the progress thread: no hand-off); an add is a CPU atomic, so it is atomic with
 * this PE's own and its on-node peers' updates of the same word, and a set is a release store
 * after the data. The progress call that ran the handler then rings the PE's sleepers
 * ({@link Channel#wakeSleepers}), as for every write a peer makes through the worker.
 */
final class Pushes {
    private static final Log LOG = Log.of("io.jshmem.ucx");
    /** The active message id. */
    static final int AM_ID = 1;
    static final long HEADER_BYTES = 32;
    static final long H_DATA = 0;
    static final long H_COUNTER = 8;
    static final long H_INCREMENT = 16;
    static final long H_OP = 24;
    /** The word gets {@code += operand} (a CPU atomic): counters, flags, SHMEM_SIGNAL_ADD. */
    static final long OP_ADD = 0;
    /** The word gets {@code = operand} (a release store): SHMEM_SIGNAL_SET. */
    static final long OP_SET = 1;
    /** No word: the data alone (a small put). */
    static final long OP_PUT = 2;
    private static final VarHandle LONG = JAVA_LONG.varHandle();
    /** All of memory: the handler reads its header and data at absolute addresses, allocating nothing. */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    private final int me;
    private final MemorySegment heap;
    /** What the first malformed message was (null: none): the handler cannot throw, {@link #check} does. */
    private volatile String failure;

    Pushes(int me, MemorySegment heap) {
        this.me = me;
        this.heap = heap;
    }

    /** Installs the handler on {@code worker}; the upcall stub lives as long as {@code arena}. */
    void install(long worker, Arena arena, UcxJob job) {
        MemorySegment stub;
        try {
            MethodHandle h = MethodHandles.lookup().findVirtual(Pushes.class, "onMessage",
                    MethodType.methodType(byte.class, long.class, long.class, long.class, long.class, long.class, long.class))
                    .bindTo(this);
            stub = Linker.nativeLinker().upcallStub(h, Ucp.AM_RECV, arena);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        MemorySegment p = arena.allocate(UcpAbi.AM_HANDLER_PARAMS);
        p.set(JAVA_LONG, UcpAbi.AM_HANDLER_FIELD_MASK, UcpAbi.UCP_AM_HANDLER_PARAM_FIELD_ID | UcpAbi.UCP_AM_HANDLER_PARAM_FIELD_FLAGS
                | UcpAbi.UCP_AM_HANDLER_PARAM_FIELD_CB);
        p.set(JAVA_INT, UcpAbi.AM_HANDLER_ID, AM_ID);
        p.set(JAVA_INT, UcpAbi.AM_HANDLER_FLAGS, UcpAbi.UCP_AM_FLAG_WHOLE_MSG);
        p.set(JAVA_LONG, UcpAbi.AM_HANDLER_CB, stub.address());
        job.check(Ucp.workerSetAmRecvHandler(worker, p), "ucp_worker_set_am_recv_handler");
    }

    /**
     * {@code ucp_am_recv_callback_t}: copies the data, then updates the word (an add is a full
     * fence, a set a release store: the waiter that sees the word sees the data); the progress call
     * that ran it wakes sleepers. Allocates nothing. Must not throw: an exception crossing the
     * upcall ends the JVM. A message outside the heap (a bug; senders check their offsets) is
     * dropped, reported once and recorded, and this PE's next progress or quiet throws it.
     */
    byte onMessage(long arg, long header, long headerLength, long data, long length, long param) {
        try {
            if (headerLength != HEADER_BYTES) {
                return drop("header of " + headerLength + " bytes");
            }
            // Senders use UCP_AM_SEND_FLAG_EAGER, so the bytes are here; a rendezvous descriptor would not be data.
            if ((ALL.get(JAVA_LONG_UNALIGNED, param) & UcpAbi.UCP_AM_RECV_ATTR_FLAG_RNDV) != 0) {
                return drop("a rendezvous message of " + length + " bytes");
            }
            long at = ALL.get(JAVA_LONG_UNALIGNED, header + H_DATA);
            long counter = ALL.get(JAVA_LONG_UNALIGNED, header + H_COUNTER);
            long increment = ALL.get(JAVA_LONG_UNALIGNED, header + H_INCREMENT);
            long op = ALL.get(JAVA_LONG_UNALIGNED, header + H_OP);
            long size = heap.byteSize();
            if (length < 0 || at < 0 || at > size - length
                    || (op != OP_PUT && (counter < 0 || counter > size - 8 || (counter & 7) != 0 || (op != OP_ADD && op != OP_SET)))) {
                return drop(length + " bytes at " + at + ", word at " + counter + ", operation " + op);
            }
            if (length > 0) {
                MemorySegment.copy(ALL, data, heap, at, length);
            }
            // No wake-up here: whoever progressed the worker rings after the call (Channel.wakeSleepers),
            // once for all the messages it handled.
            if (op == OP_PUT) {
                return UcpAbi.UCS_OK;
            } else if (op == OP_SET) {
                LONG.setRelease(heap, counter, increment);
            } else {
                LONG.getAndAdd(heap, counter, increment);
            }
        } catch (Throwable t) {
            drop(t.toString());
        }
        return UcpAbi.UCS_OK;
    }

    private byte drop(String what) {
        try {
            if (failure == null) {
                String m = "PE " + me + ": dropped a malformed UCX push message (" + what + ")";
                failure = m;
                LOG.error("jshmem: " + m);
            }
        } catch (Throwable t) {
            // nothing may leave an upcall
        }
        return UcpAbi.UCS_OK;
    }

    /** Throws what the handler recorded of a malformed message, if anything (a volatile read otherwise). */
    void check() {
        String f = failure;
        if (f != null) {
            throw new ShmemException(f);
        }
    }
}
