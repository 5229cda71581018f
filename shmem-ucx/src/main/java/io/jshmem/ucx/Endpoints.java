/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import java.util.Arrays;

/**
 * The endpoints of one {@link Channel}: made on first use, so a PE holds state only for the peers
 * it talks to. Per PE of the job there is one int (the slot of its endpoint, 0 while it has none:
 * 4 bytes per PE, 256 KiB at 65,536 PEs); the endpoint, the peer's unpacked memory key and heap
 * base live in dense arrays in the order the PEs were connected, and a quiet walks only those.
 *
 * <p>Everything here is guarded by the channel's lock (a PRIVATE context's channel has one thread
 * and no lock), except {@link #index}, which the hot path reads without it only to learn whether
 * it must connect first: a slot is written last, under the lock, after its dense entry, and the
 * caller takes the lock before reading the entry, so it sees it complete. Growing copies the dense
 * arrays under the lock; entries never move, so a reader holding the lock sees the current arrays.
 */
final class Endpoints {
    /** 1 + the dense index of each PE's endpoint; 0: none yet. */
    private final int[] slot;
    private long[] eps = new long[4];
    private long[] rkeys = new long[4];
    private long[] bases = new long[4];
    private int[] pes = new int[4];
    /**
     * Room for a quiet's two requests per endpoint (a flush, and the get that completes its puts
     * with signal), so that a quiet allocates nothing (see {@link Channel#flushAll}).
     */
    private long[] flushRequests = new long[8];
    private int[] flushPes = new int[8];
    private int count;

    Endpoints(int npes) {
        this.slot = new int[npes];
    }

    /** The dense index of {@code pe}'s endpoint, or -1 if it has none (a racy read: see the class comment). */
    int index(int pe) {
        return slot[pe] - 1;
    }

    /** Adds {@code pe}'s endpoint (under the lock, with none yet); returns its dense index. */
    int add(int pe, long ep, long rkey, long base) {
        if (count == eps.length) {
            int n = count * 2;
            eps = Arrays.copyOf(eps, n);
            rkeys = Arrays.copyOf(rkeys, n);
            bases = Arrays.copyOf(bases, n);
            pes = Arrays.copyOf(pes, n);
            flushRequests = Arrays.copyOf(flushRequests, 2 * n);
            flushPes = Arrays.copyOf(flushPes, 2 * n);
        }
        int i = count;
        eps[i] = ep;
        rkeys[i] = rkey;
        bases[i] = base;
        pes[i] = pe;
        count = i + 1;
        slot[pe] = i + 1; // last: see the class comment
        return i;
    }

    int count() {
        return count;
    }

    long ep(int i) {
        return eps[i];
    }

    long rkey(int i) {
        return rkeys[i];
    }

    long base(int i) {
        return bases[i];
    }

    int pe(int i) {
        return pes[i];
    }

    /** The quiet's request slots, at least twice {@link #count} long (read under the lock; the quiet keeps the arrays it read). */
    long[] flushRequests() {
        return flushRequests;
    }

    int[] flushPes() {
        return flushPes;
    }

    /** The PEs with an endpoint, in the order they were connected. */
    int[] connectedPes() {
        return Arrays.copyOf(pes, count);
    }

    /** Forgets every endpoint (under the lock, once they are destroyed). */
    void clear() {
        for (int i = 0; i < count; i++) {
            slot[pes[i]] = 0;
            eps[i] = 0;
            rkeys[i] = 0;
        }
        count = 0;
    }
}
