/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A thread's native scratch, so the UCX path allocates nothing per operation: pre-filled atomic
 * and push {@code ucp_request_param_t}s, the operand and result words, a push header, the request ring of pipelined
 * transfers, and a bounce buffer for heap (array) segments, grown on demand up to
 * {@link #MAX_BOUNCE} bytes (larger transfers go through it in pieces).
 */
final class Scratch {
    /** Largest bounce buffer: {@link Channel#WINDOW} chunks of {@link Channel#CHUNK}. */
    static final long MAX_BOUNCE = Channel.CHUNK * Channel.WINDOW;
    private static final long FIRST_BOUNCE = 64 << 10;

    static final long PARAM64 = 0;
    static final long PARAM64_FETCH = 128;
    static final long PARAM32 = 256;
    static final long PARAM32_FETCH = 384;
    static final long OPERAND = 512;
    static final long REPLY = 576;
    static final long PARAM_PUSH = 640;
    static final long PUSH_HEADER = 768;
    static final long SIZE = 832;

    final Arena arena = Arena.ofShared();
    final MemorySegment small;
    final MemorySegment param64;
    final MemorySegment param64Fetch;
    final MemorySegment param32;
    final MemorySegment param32Fetch;
    /** A {@link Pushes} send: eager only. */
    final MemorySegment paramPush;
    final long pushHeaderAddress;
    final long operandAddress;
    final long replyAddress;
    /** Requests in flight of one pipelined transfer. */
    final long[] window = new long[Channel.WINDOW];
    private MemorySegment bounce;

    Scratch() {
        small = arena.allocate(SIZE, 64);
        operandAddress = small.address() + OPERAND;
        replyAddress = small.address() + REPLY;
        param64 = params(PARAM64, 8, false);
        param64Fetch = params(PARAM64_FETCH, 8, true);
        param32 = params(PARAM32, 4, false);
        param32Fetch = params(PARAM32_FETCH, 4, true);
        paramPush = small.asSlice(PARAM_PUSH, UcpAbi.REQUEST_PARAM.byteSize());
        paramPush.set(JAVA_INT, UcpAbi.REQ_OP_ATTR_MASK, UcpAbi.UCP_OP_ATTR_FIELD_FLAGS);
        paramPush.set(JAVA_INT, UcpAbi.REQ_FLAGS, UcpAbi.UCP_AM_SEND_FLAG_EAGER);
        pushHeaderAddress = small.address() + PUSH_HEADER;
    }

    private MemorySegment params(long at, int size, boolean fetch) {
        MemorySegment p = small.asSlice(at, UcpAbi.REQUEST_PARAM.byteSize());
        p.set(JAVA_INT, UcpAbi.REQ_OP_ATTR_MASK, UcpAbi.UCP_OP_ATTR_FIELD_DATATYPE | (fetch ? UcpAbi.UCP_OP_ATTR_FIELD_REPLY_BUFFER : 0));
        p.set(JAVA_LONG, UcpAbi.REQ_DATATYPE, UcpAbi.dtContig(size));
        if (fetch) {
            p.set(JAVA_LONG, UcpAbi.REQ_REPLY_BUFFER, replyAddress);
        }
        return p;
    }

    /** A bounce buffer of at least {@code min(bytes, MAX_BOUNCE)} bytes. */
    MemorySegment bounce(long bytes) {
        long want = Math.min(bytes, MAX_BOUNCE);
        MemorySegment b = bounce;
        if (b == null || b.byteSize() < want) {
            long size = Math.max(want, b == null ? FIRST_BOUNCE : Math.min(MAX_BOUNCE, 2 * b.byteSize()));
            b = arena.allocate(size, 4096);
            bounce = b;
        }
        return b;
    }
}
