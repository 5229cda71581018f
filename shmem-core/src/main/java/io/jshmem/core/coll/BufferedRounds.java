/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import java.lang.foreign.MemorySegment;

/**
 * The step of the Bruck schedules across nodes ({@link BruckAlltoall}, {@link BruckFcollect}): in
 * a round each member sends a run of bytes to one member and receives as many from another.
 *
 * <p>A run that fits a push buffer goes through the receiver's push buffer of an epoch. Every
 * member takes the same steps, so each starts its epochs with {@link SlotProtocol#beginPush},
 * which syncs first where a buffer is not known to be free (every {@code PUSH_BUFFERS - 1} epochs
 * at the latest), and a buffer gets exactly one push per epoch: its counter then says which came.
 * The run is copied out of the buffer before the next one is sent, so that a sync between two
 * epochs finds this PE done with every earlier buffer.
 *
 * <p>A larger run (of many members' blocks: from about 2,048 members for 8 B blocks) would take
 * a push buffer per {@link TeamSlots#BUF_BYTES}, O(N) messages in all again. It goes whole into a
 * place in the receiver's dest that the algorithm keeps free for it, once the receiver has said
 * that place is free: in the round the receiver tells its own sender so ({@link RoundPushes}, a
 * word per round, no data), and the sender waits for that word, then pushes the run with the
 * round's data word. Three messages a round whatever the size, no push buffer and so no sync.
 */
final class BufferedRounds {
    /** Round words of each kind (up to 31 rounds: any team). */
    private static final int ROUNDS = 32;

    private final SlotProtocol team;
    /** Word r: the receiver of this PE's run in round r has its landing place free (raised by that receiver). */
    private final RoundPushes ready;
    /** Word r: the run of round r has landed here (raised by its sender). */
    private final RoundPushes data;

    /**
     * For one algorithm of {@code team}, whose sender and receiver of each round are fixed for
     * the team: round words {@code [first, first + 64)} ({@link RoundPushes}).
     */
    BufferedRounds(SlotProtocol team, int first) {
        this.team = team;
        this.ready = new RoundPushes(team, first, ROUNDS);
        this.data = new RoundPushes(team, first + ROUNDS, ROUNDS);
    }

    /**
     * Round {@code round}: sends {@code len} bytes at this PE's heap offset {@code from} to team PE
     * {@code to} and receives as many from team PE {@code src} into {@code into} at {@code at};
     * returns the first epoch it used, or {@code first} if that is not 0 (0: none used yet; so a
     * caller that threads it through its rounds ends with the first epoch of all of them). A run
     * larger than a push buffer lands at heap offset {@code land} (on every member the same place,
     * free once the member has entered the call and taken the previous round's run), whence it is
     * copied to {@code into} unless that is where it landed. A round of no bytes (a call of 0
     * bytes) still takes an epoch and an empty push, as other algorithms do, so that every
     * member's epochs name the same operations and a mismatch is caught.
     */
    long sendReceive(int round, int to, long from, int src, MemorySegment into, long at, long land, long len, long first) {
        MemorySegment self = team.st.self;
        if (len > TeamSlots.BUF_BYTES) {
            long e = team.beginEntered(); // no push buffer: no sync
            tellReady(round, src, e);
            pushWhenReady(round, to, from, src, land, len, e);
            if (into != self || at != land) {
                MemorySegment.copy(self, land, into, at, len);
            }
            return first == 0 ? e : first;
        }
        long e = team.beginPush();
        team.pushTo(to, e, 0, from, len);
        team.awaitPushes(e, 1, src, src + 1);
        MemorySegment.copy(self, team.buffer(e), into, at, len);
        return first == 0 ? e : first;
    }

    /**
     * Tells team PE {@code src}, this PE's sender in round {@code round}, that the place where its
     * run of that round lands here is free, at epoch {@code e} (a round word, no data).
     */
    void tellReady(int round, int src, long e) {
        ready.push(src, e, round, 0, 0, 0);
    }

    /**
     * A round past a push buffer whose readiness this PE has told at epoch {@code e}: waits until
     * team PE {@code to} has told its own, pushes {@code len} bytes at this PE's heap offset
     * {@code from} to heap offset {@code land} there, and waits for the run from team PE
     * {@code src} to have landed here at {@code land}.
     */
    void pushWhenReady(int round, int to, long from, int src, long land, long len, long e) {
        ready.await(e, round, to);
        data.push(to, e, round, land, from, len);
        data.await(e, round, src);
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
