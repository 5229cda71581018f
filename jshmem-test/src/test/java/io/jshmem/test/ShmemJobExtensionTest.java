/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;
import org.junit.jupiter.api.Test;

/** {@link ShmemTest} jobs through the real bin/oshrun: passing, failing on one PE, skipped. */
class ShmemJobExtensionTest {

    /** The extension used directly: this method runs in 3 PEs. */
    @ShmemTest(npes = 3)
    void sumOfPeNumbers(Shmem shmem) {
        SymLongArray counter = shmem.calloc(SymType.LONG, 1);
        shmem.atomicAdd(counter, 0, shmem.myPe(), 0);
        shmem.barrierAll();
        if (shmem.myPe() == 0) {
            assertEquals(0 + 1 + 2, counter.get(0));
        }
    }

    /**
     * More PEs than oshrun starts on a 2-CPU machine without --oversubscribe (over 8 a CPU): the
     * extension passes it, since tests may run more PEs than a CI machine has CPUs.
     */
    @ShmemTest(npes = 17, timeoutSeconds = 300)
    void manyPesOnFewCpus(Shmem shmem) {
        SymLongArray counter = shmem.calloc(SymType.LONG, 1);
        shmem.atomicInc(counter, 0, 0);
        shmem.barrierAll();
        assertEquals(17, shmem.nPes());
        if (shmem.myPe() == 0) {
            assertEquals(17, counter.get(0));
        }
    }

    @Test
    void passingJob() {
        Events tests = run("ring");
        assertEquals(1, tests.succeeded().count(), () -> describe(tests));
    }

    @Test
    void failingJobNamesThePe() {
        Events tests = run("failsOnPe1");
        assertEquals(1, tests.failed().count(), () -> describe(tests));
        Throwable t = tests.failed().stream().findFirst().orElseThrow()
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        String m = t.getMessage();
        assertTrue(m.startsWith("PE 1 failed: org.opentest4j.AssertionFailedError: boom on PE 1"), m);
        assertTrue(m.contains("--- output of PE 1 ---\nPE 1 before the check"), m);
    }

    @Test
    void skippedJobIsReportedSkipped() {
        Events tests = run("skipped");
        assertEquals(1, tests.aborted().count(), () -> describe(tests));
        Throwable t = tests.aborted().stream().findFirst().orElseThrow()
                .getRequiredPayload(TestExecutionResult.class).getThrowable().orElseThrow();
        assertTrue(t.getMessage().startsWith("skipped on PE ") && t.getMessage().contains("no widget on PE"),
                t.getMessage());
    }

    private static Events run(String method) {
        return EngineTestKit.engine("junit-jupiter")
                .selectors(selectMethod(SampleJobs.class, method, Shmem.class.getName()))
                .execute().testEvents();
    }

    private static String describe(Events events) {
        StringBuilder b = new StringBuilder();
        for (Event e : events.list()) {
            b.append(e).append('\n');
        }
        return b.toString();
    }
}
