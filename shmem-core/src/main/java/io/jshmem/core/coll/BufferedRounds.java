/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import java.lang.foreign.MemorySegment;

/**
 * The step of the Bruck schedules across nodes ({@link BruckAlltoall}, {@link BruckFcollect}): in
 * a round each member sends a run of bytes to one member and receives as many from another,
 * through the receivers' push buffers, {@link TeamSlots#BUF_BYTES} (a chunk) per epoch. Every
 * member takes the same steps, so each starts its epochs with {@link SlotProtocol#beginPush}, which
 * syncs first where a buffer is not known to be free (every {@code PUSH_BUFFERS - 1} epochs at the
 * latest), and a buffer gets exactly one push per epoch: its counter then says which chunk came.
 * A chunk is copied out of the buffer before the next one is sent, so that a sync between two
 * epochs finds this PE done with every earlier buffer.
 */
final class BufferedRounds {
    private BufferedRounds() {
    }

    /**
     * Sends {@code len} bytes at this PE's heap offset {@code from} to team PE {@code to} and
     * receives as many from team PE {@code src} into {@code into} at {@code at}, chunk by chunk;
     * returns the first epoch it used, or {@code first} if that is not 0 (0: none used yet; so a
     * caller that threads it through its rounds ends with the first epoch of all of them). A round
     * of no bytes (a call of 0 bytes) still takes an epoch and an empty push, as other algorithms
     * do, so that every member's epochs name the same operations and a mismatch is caught.
     */
    static long sendReceive(SlotProtocol team, int to, long from, int src, MemorySegment into, long at, long len, long first) {
        long off = 0;
        do {
            long c = Math.min(TeamSlots.BUF_BYTES, len - off);
            long e = team.beginPush();
            first = first == 0 ? e : first;
            team.pushTo(to, e, 0, from + off, c);
            team.awaitPushes(e, 1, src, src + 1);
            MemorySegment.copy(team.st.self, team.buffer(e), into, at + off, c);
            off += TeamSlots.BUF_BYTES;
        } while (off < len);
        return first;
    }

    /**
     * After the last round: every member's data reached this PE through chains of pushes, each
     * sent after its member had entered epoch {@code first} (the call's first), so every member
     * has finished all operations before it (unless a sync in the call told more already).
     */
    static void finished(SlotProtocol team, long first) {
        if (first > team.allFinishedBefore) {
            team.receivedFromAll(first);
        }
    }
}
