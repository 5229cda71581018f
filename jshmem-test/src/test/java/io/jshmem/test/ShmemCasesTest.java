/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/** {@link ShmemCases}: one real 2-PE job through bin/oshrun, its four cases reported one test each. */
class ShmemCasesTest {

    @Test
    void eachCaseIsATestWithItsOutcome() {
        Events tests = EngineTestKit.engine("junit-jupiter").selectors(selectClass(SampleCases.class)).execute().testEvents();
        Map<String, String> outcome = new TreeMap<>();
        Map<String, String> message = new TreeMap<>();
        for (Event e : tests.finished().list()) {
            TestExecutionResult r = e.getRequiredPayload(TestExecutionResult.class);
            String name = e.getTestDescriptor().getDisplayName();
            outcome.put(name, r.getStatus().name());
            r.getThrowable().ifPresent(t -> message.put(name, t.getMessage()));
        }
        assertEquals(Map.of("sample.pass @ 2 PEs", "SUCCESSFUL", "sample.fail @ 2 PEs", "FAILED",
                "sample.skip @ 2 PEs", "ABORTED", "sample.missing @ 2 PEs", "FAILED",
                "job exit status @ 2 PEs", "SUCCESSFUL"), outcome, message::toString);
        assertTrue(message.get("sample.fail @ 2 PEs").startsWith("case sample.fail at 2 PEs: PE 1 FAIL: boom on PE 1"),
                message::toString);
        assertTrue(message.get("sample.skip @ 2 PEs").equals("case sample.skip skipped at 2 PEs on PE 0 SKIP: no widget"),
                message::toString);
        assertTrue(message.get("sample.missing @ 2 PEs").startsWith("case sample.missing at 2 PEs: PE 1 reported nothing"),
                message::toString);
    }
}
