/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * The clock of a collective wait that may be a hang in the making: a wait loop keeps a {@code long}
 * (0 at its start) and calls {@link #tick} once its wait has spun out; the call that finds the wait
 * older than {@link #REPORT_NANOS} returns {@link #REPORTED}, once, and the loop then reports what
 * it waits for ({@link SlotProtocol#reportLongWait}: the words of both sides, so that the log of a
 * hung job says which word is stale, and a merely slow job gets one line per waiting PE).
 * Allocation-free; a clock read per call, past the spin only.
 */
final class LongWait {
    /** How long a collective wait lasts before it is reported: far beyond any wait of a working job's. */
    static final long REPORT_NANOS = 20_000_000_000L;
    /** The state after the report: never reported again in the same wait. */
    static final long REPORTED = Long.MIN_VALUE;

    private LongWait() {
    }

    /** The next state of a wait's clock {@code t} (0: not started); {@link #REPORTED} the first time the wait is too old. */
    static long tick(long t) {
        return tick(t, System.nanoTime());
    }

    static long tick(long t, long now) {
        if (t == REPORTED) {
            return REPORTED;
        }
        if (t == 0) {
            return now == 0 || now == REPORTED ? 1 : now;
        }
        return now - t > REPORT_NANOS ? REPORTED : t;
    }
}
