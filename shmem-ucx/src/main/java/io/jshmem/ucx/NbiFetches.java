/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.jshmem.core.transport.Fetched;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The non-blocking fetching atomics of one {@link Channel} in flight (atomicFetchAddNbi and the
 * like): each is posted with its operand and reply in a native slot of a ring of {@value #SLOTS},
 * and recorded with the Java array element its old value goes to; quiet completes them in order
 * and copies the replies out. Nothing is allocated per operation (the ring and its native memory
 * are made on first use); when every slot is taken, the oldest operation is completed first.
 *
 * <p>Threads: posts and completions of a shared channel hold {@link #lock} (a slot is reused only
 * after its reply was copied out); it is taken before the channel's worker lock, never inside it.
 */
final class NbiFetches {
    static final int SLOTS = 256;
    /** A slot: the operand word (the compared value of a compare-swap), then the reply word (first the swap value). */
    private static final long SLOT = 16;

    private final Channel channel;
    /** None for a PRIVATE context's channel (one thread). */
    private final OptionalLock lock;
    private Arena arena;
    private MemorySegment slots;
    private MemorySegment param64;
    private MemorySegment param32;
    private long[] requests;
    private int[] pes;
    private Object[] arrays;
    private int[] indexes;
    private byte[] sizes;
    private int head;
    private int count;

    NbiFetches(Channel channel, boolean locked) {
        this.channel = channel;
        this.lock = new OptionalLock(locked);
    }

    /**
     * Posts a fetching atomic of {@code bytes} (8 or 4) at {@code pe}'s heap offset: {@code operand}
     * is the operand word (the compared value of a compare-swap), {@code swap} the swap value of
     * a compare-swap; the old value goes to {@code fetch[index]} when it completes.
     */
    void post(int pe, int opcode, long offset, long operand, long swap, int bytes, Object fetch, int index) {
        lock.lock();
        try {
            if (slots == null) {
                allocate();
            }
            if (count == SLOTS) {
                completeOldest();
            }
            int i = (head + count) & (SLOTS - 1);
            long at = SLOT * i;
            MemorySegment param;
            if (bytes == 8) {
                slots.set(JAVA_LONG, at, operand);
                slots.set(JAVA_LONG, at + 8, swap);
                param = param64;
            } else {
                slots.set(JAVA_INT, at, (int) operand);
                slots.set(JAVA_INT, at + 8, (int) swap);
                param = param32;
            }
            // Read by UCX during the call only: the one param of each size serves every slot.
            param.set(JAVA_LONG, UcpAbi.REQ_REPLY_BUFFER, slots.address() + at + 8);
            long r = channel.postAtomic(pe, opcode, slots.address() + at, offset, param, false);
            if (Ucp.isError(r)) {
                throw channel.job.peerError(pe, "UCX non-blocking fetching atomic to PE " + pe + " failed", (byte) r);
            }
            requests[i] = r;
            pes[i] = pe;
            arrays[i] = fetch;
            indexes[i] = index;
            sizes[i] = (byte) bytes;
            count++;
        } finally {
            lock.unlock();
        }
    }

    /** Completes every operation in flight and stores the old values; throws the first failure after all. */
    void completeAll() {
        lock.lock();
        try {
            RuntimeException first = null;
            while (count > 0) {
                try {
                    completeOldest();
                } catch (RuntimeException e) {
                    if (first == null) {
                        first = e;
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Operations in flight (for tests). */
    int inFlight() {
        return count;
    }

    private void completeOldest() {
        int i = head;
        long r = requests[i];
        int pe = pes[i];
        Object fetch = arrays[i];
        requests[i] = 0;
        arrays[i] = null;
        head = (head + 1) & (SLOTS - 1);
        count--;
        channel.await(r, pe, "non-blocking fetching atomic");
        long reply = SLOT * i + 8;
        Fetched.store(fetch, indexes[i], sizes[i] == 8 ? slots.get(JAVA_LONG, reply) : slots.get(JAVA_INT, reply));
    }

    private void allocate() {
        arena = Arena.ofShared();
        slots = arena.allocate(SLOT * SLOTS, 64);
        param64 = params(8);
        param32 = params(4);
        requests = new long[SLOTS];
        pes = new int[SLOTS];
        arrays = new Object[SLOTS];
        indexes = new int[SLOTS];
        sizes = new byte[SLOTS];
    }

    private MemorySegment params(int size) {
        MemorySegment p = arena.allocate(UcpAbi.REQUEST_PARAM);
        p.set(JAVA_INT, UcpAbi.REQ_OP_ATTR_MASK, UcpAbi.UCP_OP_ATTR_FIELD_DATATYPE | UcpAbi.UCP_OP_ATTR_FIELD_REPLY_BUFFER);
        p.set(JAVA_LONG, UcpAbi.REQ_DATATYPE, UcpAbi.dtContig(size));
        return p;
    }

    /** Frees the requests in flight without waiting (UCX releases them when they end); the caller holds the worker lock. */
    void freeRequests() {
        for (; count > 0; count--) {
            long r = requests[head];
            requests[head] = 0;
            arrays[head] = null;
            if (Ucp.isRequest(r)) {
                Ucp.requestFree(r);
            }
            head = (head + 1) & (SLOTS - 1);
        }
    }

    /** Frees the native slots, once the worker is destroyed (nothing writes a reply any more). */
    void releaseMemory() {
        if (arena != null) {
            arena.close();
            arena = null;
            slots = null;
        }
    }
}
