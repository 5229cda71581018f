/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;

/** The clock of {@link LongWait}: started by the first tick, due once past the limit, then quiet. */
class LongWaitTest {
    @Test
    void startsThenReportsOnceWhenTheWaitIsTooOld() {
        long start = 5_000_000_000L;
        long t = LongWait.tick(0, start);
        assertEquals(start, t, "the first tick starts the clock");
        assertEquals(t, LongWait.tick(t, start + LongWait.REPORT_NANOS), "a wait of exactly the limit is not due yet");
        assertEquals(LongWait.REPORTED, LongWait.tick(t, start + LongWait.REPORT_NANOS + 1), "one older than the limit is");
        assertEquals(LongWait.REPORTED, LongWait.tick(LongWait.REPORTED, start + 10 * LongWait.REPORT_NANOS),
                "and it is reported only once");
    }

    @Test
    void aClockThatReadsZeroOrTheMarkerStillStarts() {
        assertNotEquals(0, LongWait.tick(0, 0));
        assertNotEquals(LongWait.REPORTED, LongWait.tick(0, LongWait.REPORTED));
        long t = LongWait.tick(0); // the real clock
        assertNotEquals(0, t);
        assertNotEquals(LongWait.REPORTED, t);
        assertEquals(t, LongWait.tick(t, t + 1), "a young wait keeps its start");
    }
}
