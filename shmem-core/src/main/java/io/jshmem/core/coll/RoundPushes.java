/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * Pushes counted by round, for algorithms whose rounds each bring one push from a different
 * partner (recursive doubling, recursive halving): a partner of a later round may push before the
 * partner of an earlier one, so a plain count ({@link SlotProtocol#awaitPushes}) cannot tell which
 * has come. Here the push of round {@code bit} adds {@code 1 << bit} (plus the operation's
 * identity in the high half, as every push does) to the receiver's counter of the epoch: the low
 * half, less what the counter held before the operation, is the set of rounds received.
 *
 * <p>Each round pushes to a PE at most once per epoch, up to 31 rounds an epoch; a receiver awaits
 * every round pushed to it and then declares them ({@link #received}), which keeps the counter's
 * expected value ({@link SlotProtocol#pushCounterExpected}) what {@link SlotProtocol#awaitPushes}
 * and later operations on that counter rely on. Calls that do not match show as an identity that
 * is not this operation's, and end the job as theirs do.
 */
final class RoundPushes {
    private RoundPushes() {
    }

    /** The increment of round {@code bit}'s push at this PE's current operation. */
    private static long increment(SlotProtocol t, int bit) {
        return (1L << bit) + ((long) t.ident << 32);
    }

    /**
     * Puts {@code n} bytes at this PE's heap offset {@code from} into team PE {@code pe}'s heap at
     * {@code off} (a place the algorithm knows to be free there), then counts it as round
     * {@code bit} of epoch {@code e} on {@code pe}'s counter of that epoch.
     */
    static void push(SlotProtocol t, int pe, long e, int bit, long off, long from, long n) {
        t.words.pushCounted(pe, e, off, from, n, increment(t, bit));
    }

    /**
     * Waits until round {@code bit}'s push of epoch {@code e} has come (from team PE {@code from},
     * whose arrival word is checked for another operation while waiting); its data is then in place.
     */
    static void await(SlotProtocol t, long e, int bit, int from) {
        long base = t.pushCounterExpected[(int) (e & (TeamSlots.PUSH_BUFFERS - 1))];
        long off = t.words.pushCounter(e);
        long v = t.words.ownWordAcquire(off);
        if (((int) (v - base) & 1 << bit) == 0) {
            t.startWait();
            for (long w = 0; ((int) ((v = t.words.ownWordAcquire(off)) - base) & 1 << bit) == 0; ) {
                w = t.words.idleOnOwnWord(off, v, w);
                t.checkWhileWaiting(w, e, from, from + 1);
            }
        }
        long got = v - base;
        // Every push so far carried this operation's identity once per round bit (no bit twice).
        if (got >>> 32 != ((long) Integer.bitCount((int) got) * t.ident & 0xFFFF_FFFFL)) {
            throw t.abortJob("collective calls do not match on " + t.name + " (operation #" + e + "): PE " + t.st.me
                    + " called " + SlotProtocol.opName(t.ident & 0xFF) + ", but a member that sent it data called another"
                    + " collective, or passed other arguments (size, count, root or type)");
        }
    }

    /** Ends this PE's rounds of epoch {@code e}: it awaited the rounds whose bits are set in {@code bits}, and got no other. */
    static void received(SlotProtocol t, long e, int bits) {
        t.pushCounterExpected[(int) (e & (TeamSlots.PUSH_BUFFERS - 1))] += bits + (long) Integer.bitCount(bits) * ((long) t.ident << 32);
    }
}
