/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.Waiter;
import io.jshmem.core.transport.AmoOp;
import java.util.Arrays;

/**
 * Distributed MCS queue locks. A lock is one symmetric long; its copy on world PE 0 holds the
 * queue tail, and each PE's own copy is that PE's queue node. Waiters spin on their own memory
 * and are served in arrival order: no storm of remote atomics on one word.
 *
 * <p>Word layout: bits 0-31 tail (PE+1, used on PE 0 only), bits 32-62 next waiter (PE+1), bit 63
 * "still waiting". Fields share a word, so every update is an atomic and/or/add on it.
 *
 * <p>Misuse that the queue would turn into a hang (set twice: a PE waiting for itself; clear of a
 * lock this PE does not hold: waiting for a successor that never comes) or an index out of range
 * (a word that was not 0 before its first use) is refused with an exception: each PE keeps the
 * offsets of the locks it holds, a few at a time, in a plain array (no allocation per call).
 */
final class Locks {
    private static final int HOME = 0;
    private static final long TAIL = 0xFFFF_FFFFL;
    private static final long NEXT = 0x7FFF_FFFFL << 32;
    private static final long WAITING = Long.MIN_VALUE;

    private final Comm comm;
    private final PeState st;
    private final int me;
    private final Waiter waiter;
    /** The offsets of the locks this PE holds, the first {@link #heldCount}. Guarded by this. */
    private long[] held = new long[4];
    private int heldCount;

    Locks(PeState st) {
        this.comm = st.comm;
        this.st = st;
        this.me = st.me;
        this.waiter = st.waiter;
    }

    private synchronized void acquired(long off) {
        if (heldCount == held.length) {
            held = Arrays.copyOf(held, 2 * heldCount); // more locks held at once than ever before
        }
        held[heldCount++] = off;
    }

    /** Where {@code off} is in {@link #held}, or -1. */
    private int heldAt(long off) {
        for (int i = 0; i < heldCount; i++) {
            if (held[i] == off) {
                return i;
            }
        }
        return -1;
    }

    private synchronized boolean holds(long off) {
        return heldAt(off) >= 0;
    }

    /** Forgets a held lock; false if this PE does not hold it. */
    private synchronized boolean released(long off) {
        int i = heldAt(off);
        if (i < 0) {
            return false;
        }
        held[i] = held[--heldCount];
        return true;
    }

    /** A PE number read from a lock word (PE + 1; 0: none), checked: a word that was not 0 before its first use holds garbage. */
    private int peOf(long field) {
        if (field > st.npes) {
            throw st.error("the lock word does not hold a lock's state (PE " + (field - 1) + " of " + st.npes
                    + "): a lock must be 0 before its first use, and changed only by set_lock, test_lock and clear_lock");
        }
        return (int) field - 1;
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
        if (holds(off)) {
            throw st.error("set_lock of a lock this PE already holds (it would wait for itself forever)");
        }
        long mine = me + 1L;
        // Prepare this PE's node: no successor, waiting.
        amo(me, off, AmoOp.FETCH_AND, ~NEXT, 0);
        amo(me, off, AmoOp.FETCH_OR, WAITING, 0);
        long prev = swapTail(off, mine) & TAIL;
        if (prev == 0) {
            amo(me, off, AmoOp.FETCH_AND, ~WAITING, 0);
            acquired(off);
            return;
        }
        amo(peOf(prev), off, AmoOp.FETCH_OR, mine << 32, 0);
        long v;
        for (long w = 0; ((v = read(me, off)) & WAITING) != 0; ) {
            w = waiter.idle(w, comm.direct(me), off, 8, v);
        }
        acquired(off);
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
                acquired(off);
                return true;
            }
        }
    }

    void clear(long off) {
        if (!released(off)) {
            throw st.error("clear_lock of a lock this PE does not hold (it would wait for a successor that never comes)");
        }
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
        amo(peOf(next), off, AmoOp.FETCH_AND, ~WAITING, 0);
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
