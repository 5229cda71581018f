/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A fault on the heap in a CPU atomic (the PE's segment truncated behind the library's back, then a
 * fetching atomic on it), called cold and from a compiled loop: the PE reports a ShmemException
 * naming it and the cause, never a bare InternalError, and the job ends naming the PE. Called cold,
 * the call itself throws that ShmemException, naming the routine; once it is compiled into a hot
 * caller the JVM raises the fault at its next safepoint poll, in the caller's code, where no
 * handler of the library can see it (see Comm's "Faults"): then only the report is checked.
 * Skips, saying why, where the mapping cannot be opened for writing (not root).
 */
class HeapFaultTest {
    @ParameterizedTest
    @ValueSource(strings = {"atomic-cold", "atomic-hot"})
    void aFaultInAnAtomicIsReportedAsAShmemExceptionNamingThePe(String scenario) throws Exception {
        Oshrun.Result r = Oshrun.run(1, List.of(), Oshrun.conformanceClasses(), "io.jshmem.conformance.HeapFaultScenarios",
                scenario);
        Assumptions.assumeFalse(r.stdout().contains("SKIP"), () -> r.stdout().strip());
        assertNotEquals(0, r.exitCode(), r.tail());
        assertFalse(r.stdout().contains("RETURNED"), r.tail());
        assertTrue(r.stdout().contains("THREW "), r.tail());
        if (scenario.equals("atomic-cold")) {
            // Not yet compiled into its caller: the call itself throws, naming the routine.
            assertTrue(r.stdout().contains("THREW io.jshmem.ShmemException: PE 0: atomicFetchAdd: a memory fault"), r.tail());
        }
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("Exception in thread \"main\" io.jshmem.ShmemException: PE 0: ")
                && l.contains("a memory fault on the symmetric heap") && l.contains("a heap segment was truncated")), r.tail());
        assertFalse(r.stderr().lines().anyMatch(l -> l.startsWith("Exception in thread") && l.contains("InternalError")), r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun: PE 0 aborted the job")
                && l.contains("a memory fault on the symmetric heap")), r.tail());
    }
}
