/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** How jobs start and end: a killed PE, SHMEM_DEBUG, a small heap, finalize, global exit, crashes, examples. */
class JobLevelTest {
    private static final String SCENARIOS = "io.jshmem.conformance.JobScenarios";
    private static final String RUNNER = "io.jshmem.conformance.CaseRunner";
    private static final String AFTER_FINALIZE = "io.jshmem.conformance.AfterFinalize";

    // ---------------------------------------------------------------- (a) a PE killed with SIGKILL

    @Test
    void killedPeEndsTheJob() throws Exception {
        Pattern pidLine = Pattern.compile("(?m)^PID (\\d+) (\\d+)$");
        Pattern jobIdLine = Pattern.compile("(?m)^JOBID (\\S+)$");
        try (Oshrun.Job job = Oshrun.start(4, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "barrier-loop", "240")) {
            Map<Integer, Long> pids = new HashMap<>();
            String jobId = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (true) {
                String out = job.stdout();
                Matcher m = pidLine.matcher(out);
                while (m.find()) {
                    pids.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
                }
                Matcher j = jobIdLine.matcher(out);
                if (j.find()) {
                    jobId = j.group(1);
                }
                if (pids.size() == 4 && jobId != null && out.contains("LOOPING")) {
                    break;
                }
                if (!job.process.isAlive()) {
                    fail("the job ended before PE 2 could be killed" + Oshrun.tail(out, job.stderr()));
                }
                if (System.nanoTime() > deadline) {
                    fail("the PEs did not all report their pids within 120 s" + Oshrun.tail(out, job.stderr()));
                }
                Thread.sleep(100);
            }
            assertTrue(jobId.matches("[a-z0-9]+"), "job id " + jobId);
            long victim = pids.get(2);
            assertTrue(job.process.descendants().anyMatch(h -> h.pid() == victim),
                    "PE 2's pid " + victim + " is not a descendant of oshrun (pid " + job.process.pid() + ")");
            ProcessHandle handle = ProcessHandle.of(victim).orElseThrow(() -> new AssertionError("PE 2 (pid " + victim + ") is gone"));
            handle.info().commandLine().ifPresent(cl -> assertTrue(cl.contains(SCENARIOS), "pid " + victim + " runs " + cl));
            assertTrue(handle.destroyForcibly(), "could not send SIGKILL to PE 2");

            boolean ended = job.process.waitFor(20, TimeUnit.SECONDS);
            assertTrue(ended, "oshrun did not end within 20 s of PE 2 being killed" + Oshrun.tail(job.stdout(), job.stderr()));
            int status = job.process.exitValue();
            String err = job.stderr();
            String context = "\n  exit status " + status + Oshrun.tail(job.stdout(), err);
            assertNotEquals(0, status, "status of a job whose PE 2 was killed" + context);
            assertTrue(err.lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("PE 2") && l.contains(Long.toString(victim))
                    && l.toLowerCase(Locale.ROOT).contains("killed")),
                    "oshrun's stderr does not say that PE 2 (pid " + victim + ") was killed" + context);

            List<String> survivors = new ArrayList<>();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            do {
                survivors.clear();
                for (Map.Entry<Integer, Long> e : pids.entrySet()) {
                    ProcessHandle.of(e.getValue()).filter(ProcessHandle::isAlive)
                            .filter(h -> h.info().commandLine().map(cl -> cl.contains(SCENARIOS)).orElse(true))
                            .ifPresent(h -> survivors.add("PE " + e.getKey() + " (pid " + h.pid() + ")"));
                }
                if (!survivors.isEmpty()) {
                    Thread.sleep(100);
                }
            } while (!survivors.isEmpty() && System.nanoTime() < until);
            assertTrue(survivors.isEmpty(), "PE JVMs still alive after oshrun ended: " + survivors + context);

            Path shmDir = Path.of(System.getenv().getOrDefault("JSHMEM_SHM_DIR", "/dev/shm"));
            if (Files.isDirectory(shmDir)) {
                String id = jobId;
                try (Stream<Path> files = Files.list(shmDir)) {
                    List<String> left = files.map(p -> p.getFileName().toString()).filter(n -> n.contains(id)).toList();
                    assertTrue(left.isEmpty(), "shared-memory files of job " + id + " left in " + shmDir + ": " + left);
                }
            }
        }
    }

    // ---------------------------------------------------------------- (b) SHMEM_DEBUG

    @Test
    void debugReportsMismatchedCollectiveArguments() throws Exception {
        int npes = 4;
        Oshrun.Result r = Oshrun.run(npes, List.of("-x", "SHMEM_DEBUG=1"), Oshrun.conformanceClasses(), RUNNER,
                "bad.debug-collective-mismatch", "memory.");
        assertAllPassed(r, npes, List.of("bad.debug-collective-mismatch", "memory.malloc", "memory.realloc", "memory.free",
                "memory.cycles-no-leak"), false);
        assertEquals(0, r.exitCode(), "job with SHMEM_DEBUG=1" + r.tail());
    }

    // ---------------------------------------------------------------- (c) heap exhausted with a small heap

    @Test
    void smallHeapIsExhaustedCleanly() throws Exception {
        int npes = 2;
        Oshrun.Result r = Oshrun.run(npes, List.of("-x", "SHMEM_SYMMETRIC_SIZE=1m"), Oshrun.conformanceClasses(), RUNNER,
                "bad.heap-exhausted", "memory.cycles-no-leak", "memory.realloc");
        assertAllPassed(r, npes, List.of("bad.heap-exhausted", "memory.cycles-no-leak", "memory.realloc"), false);
        assertEquals(0, r.exitCode(), "job with SHMEM_SYMMETRIC_SIZE=1m" + r.tail());
    }

    // ---------------------------------------------------------------- (d) use after finalize

    private static final List<String> AFTER_FINALIZE_CASES = List.of(
            "before-close", "close-twice", "query-initialized", "put", "get", "p", "g", "atomic", "malloc", "free",
            "barrier-all", "sync-all", "local-get", "local-set", "local-segment", "wait-until", "ptr", "addr-accessible",
            "pe-accessible", "init-again");

    @Test
    void useAfterFinalizeThrows() throws Exception {
        int npes = 2;
        Oshrun.Result r = Oshrun.run(npes, List.of(), Oshrun.conformanceClasses(), AFTER_FINALIZE);
        assertAllPassed(r, npes, AFTER_FINALIZE_CASES.stream().map(n -> "after-finalize." + n).toList(), false);
        assertEquals(0, r.exitCode(), "AfterFinalize job" + r.tail());
    }

    @Test
    void useAfterFinalizeThrowsInSinglePeProgram() throws Exception {
        Oshrun.Result r = Oshrun.runPlainJava(AFTER_FINALIZE);
        assertAllPassed(r, 1, AFTER_FINALIZE_CASES.stream().map(n -> "after-finalize." + n).toList(), false);
        assertEquals(0, r.exitCode(), "AfterFinalize run with plain java (1 PE)" + r.tail());
    }

    // ---------------------------------------------------------------- (e) global exit

    @Test
    void globalExitEndsTheJobWithItsStatus() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "global-exit", "3", "5");
        assertEquals(5, r.exitCode(), "status of a job whose PE 3 called globalExit(5)" + r.tail());
        assertTrue(r.stdout().contains("PE 3 calls globalExit(5)"), "PE 3 did not get to globalExit" + r.tail());
        assertTrue(!r.stdout().contains("globalExit returned"), "globalExit returned" + r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("PE 3")),
                "oshrun's stderr does not name PE 3" + r.tail());
        assertNoStackTraces(r);
    }

    /** A global exit with status 0 is a clean end of the job: the PEs it ends print no stack traces, nor anything else. */
    @Test
    void globalExitZeroEndsTheJobQuietly() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "global-exit", "1", "0");
        assertEquals(0, r.exitCode(), "status of a job whose PE 1 called globalExit(0)" + r.tail());
        assertTrue(r.stdout().contains("PE 1 calls globalExit(0)"), "PE 1 did not get to globalExit" + r.tail());
        assertNoStackTraces(r);
        assertTrue(r.stderr().lines().allMatch(l -> l.startsWith("oshrun: PE 1 aborted the job with status 0")),
                "more on stderr than oshrun's line" + r.tail());
    }

    /** The PEs a global exit ends print no stack trace (oshrun's line says why the job ended). */
    private static void assertNoStackTraces(Oshrun.Result r) {
        assertTrue(r.stderr().lines().noneMatch(l -> l.contains("JobAbortedException") || l.startsWith("\tat ")),
                "a PE printed a JobAbortedException or a stack trace" + r.tail());
    }

    // ---------------------------------------------------------------- (f) an uncaught exception

    @Test
    void uncaughtExceptionEndsTheJob() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.conformanceClasses(), SCENARIOS, "uncaught", "1");
        assertNotEquals(0, r.exitCode(), "status of a job whose PE 1 threw an uncaught exception" + r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun:") && l.matches(".*\\bPE 1\\b.*")),
                "oshrun's stderr does not name PE 1" + r.tail());
        assertTrue(r.stderr().contains("deliberate uncaught exception on PE 1"), "PE 1's exception is not on stderr" + r.tail());
    }

    // ---------------------------------------------------------------- (g) the examples

    @Test
    void helloExample() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.examplesClasses(), "io.jshmem.examples.Hello");
        assertEquals(0, r.exitCode(), "Hello" + r.tail());
        for (int pe = 0; pe < 4; pe++) {
            String prefix = "Hello from PE " + pe + " of 4";
            assertEquals(1, r.stdout().lines().filter(l -> l.startsWith(prefix)).count(), "lines '" + prefix + "'" + r.tail());
        }
    }

    @Test
    void ringPutExample() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.examplesClasses(), "io.jshmem.examples.RingPut");
        assertEquals(0, r.exitCode(), "RingPut" + r.tail());
        for (int pe = 0; pe < 4; pe++) {
            String line = "PE " + pe + ": received 1024 values from PE " + (pe + 3) % 4 + ", all correct";
            assertTrue(r.stdout().lines().anyMatch(line::equals), "no line '" + line + "'" + r.tail());
        }
    }

    @Test
    void piExample() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.examplesClasses(), "io.jshmem.examples.Pi", "250000");
        assertEquals(0, r.exitCode(), "Pi" + r.tail());
        Matcher m = Pattern.compile("(?m)^pi ~= (\\d+[.,]\\d+) from (\\d+) darts on 4 PEs").matcher(r.stdout());
        assertTrue(m.find(), "no 'pi ~= ...' line" + r.tail());
        assertEquals(1_000_000L, Long.parseLong(m.group(2)), "darts counted over 4 PEs" + r.tail());
        double pi = Double.parseDouble(m.group(1).replace(',', '.'));
        assertTrue(Math.abs(pi - Math.PI) < 0.02, "pi estimate " + pi + r.tail());
    }

    @Test
    void flagHandoffExample() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.examplesClasses(), "io.jshmem.examples.FlagHandoff");
        assertEquals(0, r.exitCode(), "FlagHandoff" + r.tail());
        assertTrue(r.stdout().lines().anyMatch("PE 1: received 100 batches of 256 values, all correct"::equals),
                "no 'PE 1: received 100 batches ...' line" + r.tail());
    }

    @Test
    void heat2dExample() throws Exception {
        for (int npes : new int[] {4, 6}) {
            Oshrun.Result r = Oshrun.run(npes, List.of(), Oshrun.examplesClasses(), "io.jshmem.examples.Heat2D", "48", "60");
            assertEquals(0, r.exitCode(), "Heat2D at " + npes + " PEs" + r.tail());
            long ok = r.stdout().lines().filter(l -> l.matches("PE \\d+: block \\(\\d+,\\d+\\) of \\d+x\\d+ grid, 60 steps, max error vs serial .* OK")).count();
            assertEquals(npes, ok, "PEs whose block matches the serial run" + r.tail());
        }
    }

    @Test
    void histogramExample() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of(), Oshrun.examplesClasses(), "io.jshmem.examples.Histogram", "20000", "24");
        assertEquals(0, r.exitCode(), "Histogram" + r.tail());
        assertEquals(4, r.stdout().lines().filter(l -> l.matches("PE \\d: bins and total correct")).count(), "PEs with correct bins" + r.tail());
        assertTrue(r.stdout().contains("histogram of 80000 samples in 24 bins"), "PE 0's histogram" + r.tail());
    }

    // ---------------------------------------------------------------- helpers

    /** Every named case reported PASS (or SKIP if allowed) exactly once by each of the job's PEs. */
    private static void assertAllPassed(Oshrun.Result r, int npes, List<String> cases, boolean skipAllowed) {
        List<Oshrun.CaseLine> lines = r.caseLines();
        List<String> problems = new ArrayList<>();
        for (String name : cases) {
            for (int pe = 0; pe < npes; pe++) {
                int p = pe;
                List<Oshrun.CaseLine> mine = lines.stream().filter(l -> l.name().equals(name) && l.pe() == p).toList();
                if (mine.size() != 1) {
                    problems.add(name + ": PE " + pe + " reported it " + mine.size() + " times");
                } else if (!(mine.getFirst().result().equals("PASS") || skipAllowed && mine.getFirst().result().equals("SKIP"))) {
                    problems.add(mine.getFirst().toString());
                }
            }
        }
        lines.stream().filter(l -> l.result().equals("FAIL") && !cases.contains(l.name())).forEach(l -> problems.add(l.toString()));
        if (!problems.isEmpty()) {
            fail(String.join("\n  ", problems) + r.tail());
        }
    }
}
