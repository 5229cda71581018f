/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** A PE stuck in a step fails it, named with where it is, instead of hanging the test. */
class PeThreadsTest {
    @Test
    void aStuckPeFailsTheStepNamingItAndWhereItIs() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        try (PeThreads threads = new PeThreads("job x", 3, Duration.ofSeconds(1))) {
            assertEquals(List.of(0, 1, 2), threads.all(pe -> pe));
            assertFalse(threads.stuck());
            AssertionError e = assertThrows(AssertionError.class, () -> threads.all(pe -> {
                if (pe == 1) {
                    awaitForever(never);
                }
                return pe;
            }));
            assertTrue(e.getMessage().startsWith("job x: PE [1] of 3 did not finish within 1 s (a hang)"), e.getMessage());
            assertTrue(e.getMessage().contains("PE 1 is at: ") && e.getMessage().contains("awaitForever"), e.getMessage());
            assertTrue(threads.stuck());
        } finally {
            never.countDown();
        }
    }

    @Test
    void theFirstFailureOfAStepIsRethrown() throws Exception {
        try (PeThreads threads = new PeThreads("job y", 2)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> threads.all(pe -> {
                if (pe == 1) {
                    throw new IllegalStateException("PE 1 failed");
                }
                return pe;
            }));
            assertEquals("PE 1 failed", e.getMessage());
            assertFalse(threads.stuck());
        }
    }

    private static void awaitForever(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // a stuck PE ignores interrupts too
            }
        }
    }
}
