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

    @Test
    void busyPesEndedByTheLauncherDoNotFailWithAlreadyClosed() throws Exception {
        Oshrun.Result r = Oshrun.run(3, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "halt-while-busy");
        assertEquals(3, r.exitCode(), r.tail());
        assertTrue(r.stderr().contains("oshrun: PE 1 "), r.tail());
        assertFalse(r.stderr().contains("Already closed"), r.tail());
    }
}
