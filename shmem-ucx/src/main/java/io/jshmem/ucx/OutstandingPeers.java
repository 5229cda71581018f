/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import java.util.Arrays;

/**
 * Which PEs a {@link Channel}'s next quiet must complete operations to, and what: {@link #DIRTY},
 * puts or non-fetching atomics since the PE's last flush (an endpoint flush completes them);
 * {@link #SIGNALLED}, puts with signal sent as active messages since its last quiet (an endpoint
 * flush does not complete active messages, UCX's flush covers RMA and atomics only, so quiet
 * completes them with a get behind them). The PEs are also listed, each once, so that a quiet
 * visits the peers written since the last one instead of every endpoint (with eager wire-up,
 * every peer's): a quiet with nothing outstanding costs nothing, and one after writes to k peers
 * costs O(k). Guarded by the channel's lock; {@link #dirty} alone may be read without it.
 */
final class OutstandingPeers {
    static final byte DIRTY = 1;
    static final byte SIGNALLED = 2;
    /** The PE is in {@link #listed}. */
    private static final byte LISTED = 4;

    private final byte[] flags;
    /** The PEs marked {@link #LISTED}, the first {@link #count}; grows by doubling, at most to the PEs written between two quiets. */
    private int[] listed = new int[8];
    private int count;

    OutstandingPeers(int npes) {
        this.flags = new byte[npes];
    }

    /** {@code pe} owes {@code what} ({@link #DIRTY} or {@link #SIGNALLED}) to the next quiet. */
    void add(int pe, byte what) {
        byte f = flags[pe];
        if ((f & LISTED) == 0) {
            if (count == listed.length) {
                listed = Arrays.copyOf(listed, 2 * count); // rare: more peers than ever before between two quiets
            }
            listed[count++] = pe;
        }
        flags[pe] = (byte) (f | what | LISTED);
    }

    /** Whether {@code pe} may have puts or posted atomics to complete (a racy read is allowed). */
    boolean dirty(int pe) {
        return (flags[pe] & DIRTY) != 0;
    }

    /** How many PEs are listed (some may owe nothing any more: {@link #clear}). */
    int count() {
        return count;
    }

    /**
     * Unlists the last listed PE and returns it; what it owes stays for {@link #clear}. Last first:
     * if the caller's completion of it throws, the others stay listed.
     */
    int removeLast() {
        int pe = listed[--count];
        flags[pe] &= (byte) ~LISTED;
        return pe;
    }

    /** What {@code pe} owed, now nothing; a listed PE stays listed until {@link #removeLast} reaches it. */
    byte clear(int pe) {
        byte f = flags[pe];
        flags[pe] = (byte) (f & LISTED);
        return (byte) (f & (DIRTY | SIGNALLED));
    }
}
