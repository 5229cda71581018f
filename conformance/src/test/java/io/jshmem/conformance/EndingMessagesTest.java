/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The reason a job ended is the real one ({@link EndingScenarios}, 3 PEs through the real launcher). */
class EndingMessagesTest {
    private static final String SCENARIOS = "io.jshmem.conformance.EndingScenarios";

    @Test
    void aSigtermToAPeIsReportedAsSuch() throws Exception {
        Oshrun.Result r = Oshrun.run(3, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "sigterm");
        assertEquals(143, r.exitCode(), r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.matches("oshrun: PE 1 \\(pid \\d+\\) was killed by signal 15 \\(SIGTERM\\)"
                + " before finalize; ending the job")), r.tail());
        assertFalse(r.stderr().contains("do not match"), "the SIGTERM passed for a mismatched collective" + r.tail());
    }

    /** System.exit(3) before finalize ends the job with that status, naming the PE. */
    @Test
    void aPeThatExitsWithAStatusEndsTheJobWithIt() throws Exception {
        exitsWithItsStatus(List.of());
    }

    /** The same over UCX, where the peers' operations to the exiting PE fail at once: its own report must come first. */
    @Test
    void overUcxAPeThatExitsWithAStatusIsStillTheCause() throws Exception {
        io.jshmem.conformance.spawn.Jobs.assumeUcx("EndingMessagesTest.overUcxAPeThatExitsWithAStatusIsStillTheCause");
        exitsWithItsStatus(List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self"));
    }

    /** Without a launcher (plain java, one PE) System.exit(3) exits with 3: the exit hook must not block on an abort. */
    @Test
    void aSingletonThatExitsWithAStatusExitsWithIt() throws Exception {
        Oshrun.Result r = Oshrun.runPlainJava(SCENARIOS, "exit-3");
        assertEquals(3, r.exitCode(), r.tail());
    }

    private static void exitsWithItsStatus(List<String> options) throws Exception {
        Oshrun.Result r = Oshrun.run(3, options, Oshrun.conformanceClasses(), SCENARIOS, "exit-while-peers-wait");
        assertEquals(3, r.exitCode(), r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.equals("oshrun: PE 1 aborted the job with status 3: PE 1 exited with status 3"
                + " (System.exit) before finalize")), r.tail());
        assertFalse(r.stderr().contains("do not match"), "the exit passed for a mismatched collective" + r.tail());
    }

    @Test
    void aSigtermToAPeWaitingInABarrierEndsItWithTheSignalsStatus() throws Exception {
        Oshrun.Result r = Oshrun.run(3, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "sigterm-while-waiting");
        assertEquals(143, r.exitCode(), r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.matches("oshrun: PE 1 \\(pid \\d+\\) was killed by signal 15 \\(SIGTERM\\)"
                + " before finalize; ending the job")), r.tail());
    }

    /**
     * Issue 31: a PE's abort that follows another PE's death by a signal (over UCX, "Endpoint timeout"
     * naming the dead PE) does not hide it: the killed PE is named, with its signal, and oshrun exits
     * 128 + 9, the abort coming after as what followed. Here the abort is sent just before the PE dies.
     */
    @Test
    void aPeKilledBySignalIsTheCauseNotThePeerThatReportsItFirst() throws Exception {
        Oshrun.Result r = Oshrun.run(3, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "sigkill-and-report");
        assertEquals(137, r.exitCode(), r.tail());
        List<String> lines = r.stderr().lines().filter(l -> l.startsWith("oshrun:")).toList();
        assertTrue(!lines.isEmpty() && lines.get(0).matches("oshrun: PE 0 \\(pid \\d+\\) was killed by signal 9 \\(SIGKILL\\)"
                + " before finalize; ending the job"), r.tail());
        // The abort follows: said as such when it was what the launcher read first, else not at all.
        assertTrue(lines.stream().skip(1).allMatch(l -> l.startsWith("oshrun: (then: PE 1 aborted the job with status 1:"
                + " PE 1 failed before finalize: ") && l.contains("Endpoint timeout")), r.tail());
    }

    @Test
    void busyPesEndedByTheLauncherDoNotFailWithAlreadyClosed() throws Exception {
        Oshrun.Result r = Oshrun.run(3, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "halt-while-busy");
        assertEquals(3, r.exitCode(), r.tail());
        assertTrue(r.stderr().contains("oshrun: PE 1 "), r.tail());
        assertFalse(r.stderr().contains("Already closed"), r.tail());
    }
}
