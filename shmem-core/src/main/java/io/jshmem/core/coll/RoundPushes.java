/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * Pushes signalled by round, for algorithms whose rounds each bring one push from a partner fixed
 * for the team (recursive doubling and halving, the fold's pair): a partner of a later round may
 * push before the partner of an earlier one, so a count of pushes cannot tell which has come.
 * Each round has its own word in every member's slot, written only by that member's partner of
 * the round: the push puts the data, then adds to the word what takes it to the operation's epoch
 * and identity ({@code e << 24 | ident}, as an arrival word; the sender keeps what it has added,
 * so it knows the word's value), ordered after the data ({@link io.jshmem.core.comm.Comm#pushCounted}).
 * The receiver waits until the word reaches its epoch; the same epoch with another identity is a
 * call that does not match, and ends the job. A word only grows, so a partner already in a later
 * operation leaves it past the epoch, which still says the data came, but not that the partner's
 * operation there matched: so the receiver also checks that nothing came into the push counter
 * of the epoch, where these algorithms push nothing (a broadcast's root, say, would have).
 *
 * <p>The first {@link #SPARE} words are the seven spare ones of each push buffer's counter line (a
 * line each, of which the counter takes the first; {@link TeamSlots}): word w is word
 * {@code 1 + w % 7} of line {@code w / 7}; the rest, up to {@link #WORDS}, are the slot's round
 * words ({@link TeamSlots#ROUND_WORDS}). An algorithm takes its own range ({@code first}), so
 * that each word keeps one writer per receiver. Nothing is allocated per call.
 */
final class RoundPushes {
    /** Spare words in a slot's counter lines. */
    static final int SPARE = TeamSlots.PUSH_BUFFERS * 7;
    /** Words in all: the spare ones, then the slot's round words. */
    static final int WORDS = SPARE + TeamSlots.ROUND_WORDS;

    private final SlotProtocol team;
    private final int first;
    /** What this PE has added so far to each of its words at the partner it pushes that word to. */
    private final long[] sent;

    /** The words {@code [first, first + count)} of the spare words, for one algorithm of {@code team}. */
    RoundPushes(SlotProtocol team, int first, int count) {
        if (first < 0 || first + count > WORDS) {
            throw new IllegalArgumentException("round words " + first + "+" + count + " outside the " + WORDS + " spare words");
        }
        this.team = team;
        this.first = first;
        this.sent = new long[count];
    }

    /** Heap offset of round word {@code w} (of this range) in every member's slot. */
    private long word(int w) {
        int i = first + w;
        return i < SPARE ? team.words.pushCounter(i / 7) + 8L * (1 + i % 7) : team.words.roundWord(i - SPARE);
    }

    /**
     * Puts {@code n} bytes at this PE's heap offset {@code from} into team PE {@code pe}'s heap at
     * {@code off} (a place the algorithm knows to be free there), then raises round word {@code w}
     * there to epoch {@code e}. Every push of word {@code w} from this PE goes to the same partner.
     */
    void push(int pe, long e, int w, long off, long from, long n) {
        long value = e << SlotProtocol.IDENT_BITS | team.ident;
        team.st.comm.pushCounted(team.members[pe], off, from, n, word(w), value - sent[w]);
        sent[w] = value; // after the push: one that throws (a timeout) did not add
    }

    /**
     * Waits until round word {@code w} of this PE has reached epoch {@code e} (raised by team PE
     * {@code from}, whose arrival word is checked for another operation while waiting); the data
     * pushed with it is then in place.
     */
    void await(long e, int w, int from) {
        long v = reach(e, w, from, true);
        // A member in another operation at e may have pushed into e's counter (a broadcast's root)
        // and gone on, leaving this word past e; nobody else pushes there.
        team.checkNoPushes(e);
        if (v >>> SlotProtocol.IDENT_BITS == e && (int) (v & SlotProtocol.IDENT_MASK) != team.ident) {
            team.mismatch(from, e, (int) (v & SlotProtocol.IDENT_MASK));
        }
    }

    /**
     * Waits until round word {@code w} of this PE has reached epoch {@code e} (raised by team PE
     * {@code from}, whose arrival word is checked while waiting; and, if {@code noPushes}, this
     * PE's push counter of {@code e}, see {@link SlotProtocol#checkNoPushes}); returns the word,
     * which the caller checks.
     */
    long reach(long e, int w, int from, boolean noPushes) {
        long off = word(w);
        long v = team.words.ownWordAcquire(off);
        if (v >>> SlotProtocol.IDENT_BITS < e) {
            team.startWait();
            for (long t = 0; (v = team.words.ownWordAcquire(off)) >>> SlotProtocol.IDENT_BITS < e; ) {
                t = team.words.idleOnOwnWord(off, v, t);
                if (team.checkWhileWaiting(t, e, from, from + 1) && noPushes) {
                    team.checkNoPushes(e);
                }
            }
        }
        return v;
    }
}
