/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A PE whose close() runs while an exception unwinds does not finalize: no other PE gets past the
 * barrier it never reached, and oshrun reports the exception (class, message, PE) as the reason the
 * job ended ({@link FailingCloseScenarios}, 4 PEs through the real launcher).
 */
class FailingCloseTest {
    private static final String SCENARIOS = "io.jshmem.conformance.FailingCloseScenarios";

    @Test
    void anExceptionThroughTryWithResourcesEndsTheJobAndIsReported() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "throw-in-try");
        assertNotEquals(0, r.exitCode(), r.tail());
        assertFalse(r.stdout().contains("PAST"), "a PE got past the barrier the failing PE never reached" + r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun: PE 3 aborted the job")
                && l.contains("PE 3 failed before finalize: java.lang.IllegalStateException: thrown on purpose by PE 3")),
                "oshrun does not report the exception as the reason" + r.tail());
    }

    @Test
    void anExceptionCaughtAfterCloseStillEndsTheJob() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "caught-runs-on");
        assertNotEquals(0, r.exitCode(), r.tail());
        assertNotEquals(124, r.exitCode(), "ended only by --timeout" + r.tail());
        assertFalse(r.stdout().contains("PAST"), "a PE got past the barrier the failing PE never reached" + r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun: PE 3 aborted the job")
                && l.contains("closed jshmem while an exception unwound")), r.tail());
    }

    @Test
    void closeInFinallyOrCatchOnTheNormalPathFinalizes() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "finally-normal");
        assertEquals(0, r.exitCode(), r.tail());
        assertEquals(4, r.stdout().lines().filter(l -> l.startsWith("PAST")).count(), r.tail());
    }
}
