/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.slurmtests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The {@code CASE <name> PE <k> PASS|FAIL|SKIP} lines of a CaseRunner job, checked. */
final class CaseReport {
    private static final Pattern LINE = Pattern.compile("^(?:\\d+: )?CASE (\\S+) PE (\\d+) (PASS|FAIL|SKIP)(.*)$");

    /** Outcome by case name, then PE. */
    final Map<String, Map<Integer, String>> outcomes = new TreeMap<>();
    final List<String> failures = new ArrayList<>();

    CaseReport(String stdout) {
        for (String l : stdout.lines().toList()) {
            Matcher m = LINE.matcher(l);
            if (m.matches()) {
                outcomes.computeIfAbsent(m.group(1), k -> new TreeMap<>()).put(Integer.parseInt(m.group(2)), m.group(3));
                if (m.group(3).equals("FAIL")) {
                    failures.add(l.length() > 400 ? l.substring(0, 400) + "..." : l);
                }
            }
        }
    }

    /** Every PE ran every case it printed, none failed, and the job ended well. */
    static CaseReport check(Run run, int npes, String what) {
        CaseReport r = new CaseReport(run.stdout());
        System.out.printf("[slurm-tests] %s: %d cases x %d PEs, exit %d, %.1f s%n", what, r.outcomes.size(), npes,
                run.exit(), run.seconds());
        assertFalse(run.timedOut(), what + ": the job did not end in time" + run.tail());
        assertFalse(r.outcomes.isEmpty(), what + ": no CASE lines" + run.tail());
        if (!r.failures.isEmpty()) {
            fail(what + ": " + r.failures.size() + " case(s) failed:\n" + String.join("\n", r.failures) + run.tail());
        }
        r.outcomes.forEach((name, byPe) ->
                assertEquals(npes, byPe.size(), what + ": case " + name + " reported by PEs " + byPe.keySet() + run.tail()));
        assertTrue(run.stdout().contains("SUMMARY passed="), what + ": no SUMMARY line" + run.tail());
        assertEquals(0, run.exit(), what + ": exit status" + run.tail());
        return r;
    }
}
