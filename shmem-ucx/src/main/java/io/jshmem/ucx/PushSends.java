/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.jshmem.core.transport.AmoOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The sending side of {@link Pushes} messages for one {@link UcxTransport}: collectives' counted
 * pushes and flags, small puts with signal, and small puts ({@link #AM_PUT_MAX}: the same rules as
 * puts with signal below, without the signal). Each message is one {@code ucp_am_send_nbx} with
 * the header in the calling thread's {@link Scratch}, awaited until it completed locally (eager
 * data is copied out, then the header and data are free); nothing is allocated.
 *
 * <h2>Puts with signal</h2>
 * Up to {@link #AM_PUT_SIGNAL_MAX} bytes, to a PE whose endpoint on this channel is one TCP lane
 * ({@link Channel#oneLane}: checked on each endpoint when it is made, on every channel, eager or
 * lazy; {@link WireUp#amPutSignal}, the setting and the transports this PE offers, is the quick
 * test before it), a put with signal is one message: the data copied into the thread's bounce
 * buffer (which checks the caller's segment as shared memory's copy does, closed or another
 * thread's, before anything is sent), the signal's offset, operand and operation in the header.
 * The target's handler writes the data, then the signal. What this relies on, UCX 1.13 over TCP:
 * <ul>
 *   <li><b>Order.</b> UCX has no ordering rule between active messages and RMA (ucp.h's fence
 *       speaks of operations in general, flush of RMA and atomics only). Over one TCP lane there is
 *       one stream: the puts and gets (tcp has no RMA: UCX emulates it with its own active
 *       messages on that lane), the emulated atomics and these messages reach the target in the
 *       order they were sent, and its worker handles them in that order. So a put or atomic
 *       before a put with signal (with or without a fence) lands before it, and anything after it
 *       lands after.</li>
 *   <li><b>Completion.</b> An endpoint flush does not wait for active messages; quiet therefore
 *       follows them with an 8-byte get on the same lane ({@link Channel#flushAll}), whose reply
 *       comes after the target handled them.</li>
 * </ul>
 * Larger ones, or to a PE whose endpoint has more lanes or another transport, are the default's put,
 * fence and atomic: the endpoint's lanes depend on the peer's address as well as on this PE's
 * devices, so no answer from this PE's resources alone covers every endpoint.
 */
final class PushSends {
    /**
     * Puts with signal of up to this many bytes are one message (eager: over TCP in fragments of 8 KiB,
     * UCX's default segment, reassembled by UCX before the handler runs). Measured with
     * {@code SignalPingPongBench} (2 PEs over TCP, p50 of half round trips, quick runs on a loaded
     * machine): one message 4.2-4.5 us at 1 KiB, 5.7-7.1 at 8 KiB, 7.7-8.0 at 16 KiB, 21-22 at 64 KiB;
     * put, fence and atomic 11.1-11.5, 16.6-19.9, 23-27 and 53-275 us.
     */
    static final long AM_PUT_SIGNAL_MAX = 64 << 10;

    private final UcxTransport transport;
    private final Channel channel;
    private final boolean putSignals;

    PushSends(UcxTransport transport, Channel channel, boolean putSignals) {
        this.transport = transport;
        this.channel = channel;
        this.putSignals = putSignals;
    }

    /** A counted push (a collective's data and count, a flag): quiet need not complete it. */
    void push(int pe, long offset, long data, long n, long counterOffset, long increment) {
        channel.waiters.incrementAndGet();
        try {
            send(transport.scratch(), pe, offset, data, n, counterOffset, increment, Pushes.OP_ADD, false);
        } finally {
            channel.waiters.decrementAndGet();
        }
    }

    /** A put with signal of the caller's segment {@code source} as one message; false when it must go as put, fence and atomic. */
    boolean putSignal(int pe, long offset, MemorySegment source, long signalOffset, long signal, AmoOp op) {
        return bounced(pe, offset, source, 0, null, 0, null, source.byteSize(), AM_PUT_SIGNAL_MAX, signalOffset, signal, signalOp(op));
    }

    /** The same of {@code count} elements of a Java array from {@code index} (range checked by the caller). */
    boolean putSignal(int pe, long offset, Object array, int index, ValueLayout layout, int count, long signalOffset, long signal,
            AmoOp op) {
        return bounced(pe, offset, null, 0, array, index, layout, layout.byteSize() * count, AM_PUT_SIGNAL_MAX, signalOffset, signal,
                signalOp(op));
    }

    /**
     * Puts of up to this many bytes are one message where puts with signal are (the same setting and
     * endpoint test), with no word for the handler to update. Over TCP an RMA put is UCX's own
     * active message too, which the target's worker acknowledges separately: a ping-pong of 8-byte
     * {@code p} and {@code wait_until} (2 PEs, quick interleaved runs on a loaded machine) took 6.7-6.8
     * us per half round trip as RMA puts, 3.5-3.6 as these messages, UCX's own active-message latency.
     * Above this size the RMA put, which UCX sends without the copy into the bounce buffer.
     */
    static final long AM_PUT_MAX = 4 << 10;

    /** A put of {@code n} bytes of {@code source} from {@code sourceOffset} as one message; false when it must go as an RMA put. */
    boolean put(int pe, long offset, MemorySegment source, long sourceOffset, long n) {
        return n != 0 && bounced(pe, offset, source, sourceOffset, null, 0, null, n, AM_PUT_MAX, 0, 0, Pushes.OP_PUT);
    }

    /** The same of {@code count} elements of a Java array from {@code index} (range checked by the caller). */
    boolean put(int pe, long offset, Object array, int index, ValueLayout layout, int count) {
        return count != 0 && bounced(pe, offset, null, 0, array, index, layout, layout.byteSize() * count, AM_PUT_MAX, 0, 0, Pushes.OP_PUT);
    }

    /** A put of a value of {@code bytes} bytes (in the scratch's operand slot, at {@code address}) as one message. */
    boolean putValue(Scratch s, int pe, long offset, long address, int bytes) {
        if (!oneMessage(pe, bytes, AM_PUT_MAX)) {
            return false;
        }
        send(s, pe, offset, address, bytes, 0, 0, Pushes.OP_PUT, true);
        return true;
    }

    /**
     * Whether {@code n} bytes to {@code pe} go as one message: the setting allows it, they fit
     * {@code max} and this channel's endpoint to {@code pe} is one TCP lane.
     */
    private boolean oneMessage(int pe, long n, long max) {
        return putSignals && n <= max && channel.oneLane(pe);
    }

    /**
     * {@code n} bytes (at most {@code max}) of {@code source} from {@code sourceOffset}, or else of
     * {@code array} from element {@code index}, copied into the bounce buffer and sent with the word
     * operation {@code op} ({@link Pushes#OP_PUT}: none); false when they must go the RMA way.
     */
    private boolean bounced(int pe, long offset, MemorySegment source, long sourceOffset, Object array, int index, ValueLayout layout,
            long n, long max, long wordOffset, long operand, long op) {
        if (!oneMessage(pe, n, max)) {
            return false;
        }
        channel.waiters.incrementAndGet();
        try {
            Scratch s = transport.scratch();
            MemorySegment b = s.bounce(n);
            if (source != null) {
                MemorySegment.copy(source, sourceOffset, b, 0, n);
            } else {
                MemorySegment.copy(array, index, b, layout, 0, (int) (n / layout.byteSize()));
            }
            send(s, pe, offset, b.address(), n, wordOffset, operand, op, true);
            return true;
        } finally {
            channel.waiters.decrementAndGet();
        }
    }

    /** Sends one message; {@code completedByQuiet}: a put with signal, which the channel's quiet completes. */
    private void send(Scratch s, int pe, long offset, long data, long n, long wordOffset, long operand, long op,
            boolean completedByQuiet) {
        s.small.set(JAVA_LONG, Scratch.PUSH_HEADER + Pushes.H_DATA, offset);
        s.small.set(JAVA_LONG, Scratch.PUSH_HEADER + Pushes.H_COUNTER, wordOffset);
        s.small.set(JAVA_LONG, Scratch.PUSH_HEADER + Pushes.H_INCREMENT, operand);
        s.small.set(JAVA_LONG, Scratch.PUSH_HEADER + Pushes.H_OP, op);
        channel.await(channel.postPush(pe, s.pushHeaderAddress, data, n, s.paramPush, completedByQuiet), pe,
                completedByQuiet ? "put with signal" : "push");
    }

    private static long signalOp(AmoOp op) {
        return switch (op) {
            case SET -> Pushes.OP_SET;
            case ADD -> Pushes.OP_ADD;
            default -> throw new IllegalArgumentException("a signal is set or added, not " + op);
        };
    }
}
