/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The SUMMARY line counts each case once, by its outcome over all PEs (the worst of theirs). */
class CaseRunnerSummaryTest {
    @Test
    void countsTheJobsOutcomeOfEachCase() {
        // passed, failed (on some PE), skipped, failed
        assertEquals("SUMMARY passed=1 failed=2 skipped=1", CaseRunner.summary(new int[] {0, 2, 1, 2}));
        assertEquals("SUMMARY passed=0 failed=0 skipped=0", CaseRunner.summary(new int[0]));
    }
}
