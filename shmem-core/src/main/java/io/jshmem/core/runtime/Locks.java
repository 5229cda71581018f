/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.Waiter;
import io.jshmem.core.transport.AmoOp;

/**
 * Distributed MCS queue locks. A lock is one symmetric long; its copy on world PE 0 holds the
 * queue tail, and each PE's own copy is that PE's queue node. Waiters spin on their own memory
 * and are served in arrival order: no storm of remote atomics on one word.
 *
 * <p>Word layout: bits 0-31 tail (PE+1, used on PE 0 only), bits 32-62 next waiter (PE+1), bit 63
 * "still waiting". Fields share a word, so every update is an atomic and/or/add on it.
 */
final class Locks {
    private static final int HOME = 0;
    private static final long TAIL = 0xFFFF_FFFFL;
    private static final long NEXT = 0x7FFF_FFFFL << 32;
    private static final long WAITING = Long.MIN_VALUE;

    private final Comm comm;
    private final int me;
    private final Waiter waiter;

    Locks(Comm comm, int me, Waiter waiter) {
        this.comm = comm;
        this.me = me;
        this.waiter = waiter;
    }

    /**
     * Every update is a fetching atomic, which is complete when it returns: a posted one through a
     * network transport (SHMEM_ATOMICS=transport) could land after a later update by another PE
     * on another endpoint (a waiting bit set after the predecessor cleared it: a hang).
     */
    private long amo(int pe, long off, AmoOp op, long operand, long compare) {
        return comm.amo64(pe, off, op, operand, compare);
    }

    private long read(int pe, long off) {
        return comm.getValue(pe, off, 8);
    }

    void set(long off) {
        long mine = me + 1L;
        // Prepare this PE's node: no successor, waiting.
        amo(me, off, AmoOp.FETCH_AND, ~NEXT, 0);
        amo(me, off, AmoOp.FETCH_OR, WAITING, 0);
        long prev = swapTail(off, mine) & TAIL;
        if (prev == 0) {
            amo(me, off, AmoOp.FETCH_AND, ~WAITING, 0);
            return;
        }
        amo((int) prev - 1, off, AmoOp.FETCH_OR, mine << 32, 0);
        long v;
        for (long w = 0; ((v = read(me, off)) & WAITING) != 0; ) {
            w = waiter.idle(w, comm.direct(me), off, 8, v);
        }
    }

    boolean test(long off) {
        long mine = me + 1L;
        while (true) {
            long old = read(HOME, off);
            if ((old & TAIL) != 0) {
                return false;
            }
            // This PE's node must say "no successor" before it can be found at the tail.
            amo(me, off, AmoOp.FETCH_AND, ~(NEXT | WAITING), 0);
            old = read(HOME, off);
            if ((old & TAIL) != 0) {
                return false;
            }
            if (amo(HOME, off, AmoOp.COMPARE_SWAP, old | mine, old) == old) {
                return true;
            }
        }
    }

    void clear(long off) {
        long mine = me + 1L;
        long next = (read(me, off) & NEXT) >>> 32;
        if (next == 0) {
            while (true) {
                long old = read(HOME, off);
                if ((old & TAIL) != mine) {
                    break; // a successor is enqueueing: wait for its link below
                }
                if (amo(HOME, off, AmoOp.COMPARE_SWAP, old & ~TAIL, old) == old) {
                    return;
                }
            }
            long v;
            for (long w = 0; (next = ((v = read(me, off)) & NEXT) >>> 32) == 0; ) {
                w = waiter.idle(w, comm.direct(me), off, 8, v);
            }
        }
        amo(me, off, AmoOp.FETCH_AND, ~NEXT, 0);
        amo((int) next - 1, off, AmoOp.FETCH_AND, ~WAITING, 0);
    }

    /** Atomically replaces the tail field on the home PE; returns the old word. */
    private long swapTail(long off, long mine) {
        while (true) {
            long old = read(HOME, off);
            if (amo(HOME, off, AmoOp.COMPARE_SWAP, (old & ~TAIL) | mine, old) == old) {
                return old;
            }
        }
    }
}
