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
 * <p>A PE has one queue node per lock, so its threads take the lock one at a time: a thread that
 * finds another thread of its PE holding or acquiring a lock waits for it here (setLock; testLock
 * says "held"), and only then uses the node (two threads in the queue at once with one node linked
 * it to itself: a hang of every PE). Misuse that the queue would turn into a hang (set twice by one
 * thread: waiting for itself; clear of a lock this PE does not hold: waiting for a successor that
 * never comes) or an index out of range (a word that was not 0 before its first use) is refused
 * with an exception. The claims are a few plain arrays (no allocation per call).
 */
final class Locks {
    private static final int HOME = 0;
    private static final long TAIL = 0xFFFF_FFFFL;
    private static final long NEXT = 0x7FFF_FFFFL << 32;
    private static final long WAITING = Long.MIN_VALUE;
    /** Claim states: a thread of this PE is in the queue, holds the lock, or is releasing it. */
    private static final byte ACQUIRING = 1;
    private static final byte HELD = 2;
    private static final byte RELEASING = 3;

    private final Comm comm;
    private final PeState st;
    private final int me;
    private final Waiter waiter;
    /** The offsets of the locks a thread of this PE has claimed, the first {@link #count}; their states and threads. Guarded by this. */
    private long[] offsets = new long[4];
    private byte[] states = new byte[4];
    private Thread[] threads = new Thread[4];
    private int count;

    Locks(PeState st) {
        this.comm = st.comm;
        this.st = st;
        this.me = st.me;
        this.waiter = st.waiter;
    }

    /** Where {@code off} is among the claims, or -1. Under this object's lock. */
    private int claimAt(long off) {
        for (int i = 0; i < count; i++) {
            if (offsets[i] == off) {
                return i;
            }
        }
        return -1;
    }

    private void claimAcquiring(long off) {
        if (count == offsets.length) { // more locks held at once than ever before
            offsets = Arrays.copyOf(offsets, 2 * count);
            states = Arrays.copyOf(states, 2 * count);
            threads = Arrays.copyOf(threads, 2 * count);
        }
        offsets[count] = off;
        states[count] = ACQUIRING;
        threads[count++] = Thread.currentThread();
    }

    /** Ends an acquisition: the lock is held ({@code won}), or the claim goes (the node free again). */
    private void settle(long off, boolean won) {
        if (won) {
            synchronized (this) {
                states[claimAt(off)] = HELD;
            }
        } else {
            unclaim(off);
        }
    }

    /** Drops the claim on {@code off} and lets this PE's threads waiting for it try. */
    private synchronized void unclaim(long off) {
        int i = claimAt(off);
        if (i >= 0) {
            offsets[i] = offsets[--count];
            states[i] = states[count];
            threads[i] = threads[count];
            threads[count] = null;
            notifyAll();
        }
    }

    /**
     * Claims {@code off} for the calling thread, first waiting while another thread of this PE has
     * it (with {@code wait}; false: return false at once instead).
     */
    private synchronized boolean claimForAcquire(long off, boolean wait) {
        for (int i; (i = claimAt(off)) >= 0; ) {
            if (threads[i] == Thread.currentThread() && states[i] == HELD) {
                if (!wait) {
                    return false; // held (by this very thread)
                }
                throw st.error("set_lock of a lock this PE already holds (it would wait for itself forever)");
            }
            if (!wait) {
                return false;
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw st.error("set_lock interrupted while another thread of this PE held the lock");
            }
        }
        claimAcquiring(off);
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
        claimForAcquire(off, true);
        boolean won = false;
        try {
            long mine = me + 1L;
            // Prepare this PE's node: no successor, waiting.
            amo(me, off, AmoOp.FETCH_AND, ~NEXT, 0);
            amo(me, off, AmoOp.FETCH_OR, WAITING, 0);
            long prev = swapTail(off, mine) & TAIL;
            if (prev == 0) {
                amo(me, off, AmoOp.FETCH_AND, ~WAITING, 0);
            } else {
                amo(peOf(prev), off, AmoOp.FETCH_OR, mine << 32, 0);
                long v;
                for (long w = 0; ((v = read(me, off)) & WAITING) != 0; ) {
                    w = waiter.idle(w, comm.direct(me), off, 8, v);
                }
            }
            won = true;
        } finally {
            settle(off, won);
        }
    }

    boolean test(long off) {
        if (!claimForAcquire(off, false)) {
            return false; // this PE holds it, or another of its threads is taking it
        }
        boolean won = false;
        try {
            won = tryAcquire(off);
            return won;
        } finally {
            settle(off, won);
        }
    }

    private boolean tryAcquire(long off) {
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
        synchronized (this) {
            int i = claimAt(off);
            if (i < 0 || states[i] != HELD) {
                throw st.error("clear_lock of a lock this PE does not hold (it would wait for a successor that never comes)");
            }
            states[i] = RELEASING; // any thread of the PE may clear it; one at a time
        }
        try {
            release(off);
        } finally {
            unclaim(off);
        }
    }

    private void release(long off) {
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
