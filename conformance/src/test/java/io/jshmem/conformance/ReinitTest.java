/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jshmem.conformance.spawn.Jobs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Re-initialization after finalize (OpenSHMEM 1.6), through {@link Reinit}: three generations in
 * one job, at 2 and 4 PEs, on shared memory and over UCX (tcp), and in a program of one PE started
 * with plain java; and the launcher's report when a PE exits instead of initializing again.
 */
class ReinitTest {
    private static final String REINIT = "io.jshmem.conformance.Reinit";
    private static final int GENERATIONS = 3;
    private static final List<String> EVERY_GENERATION = List.of("init", "thread-level", "fresh-heap", "put-barrier", "get",
            "atomic", "reduce", "broadcast", "team-and-context", "no-segment-files", "finalized");
    private static final List<String> AFTER_THE_FIRST = List.of("stale.shmem-handle", "stale.shmem-malloc", "stale.shmem-put",
            "stale.object-local", "stale.object-put", "stale.object-get", "stale.object-atomic", "stale.object-free",
            "stale.world-team", "stale.team-as-argument", "stale.context", "stale.context-quiet", "stale.new-heap-untouched");

    @ParameterizedTest(name = "{0} PEs, {1}")
    @CsvSource({"2, shm", "4, shm", "2, ucx", "4, ucx"})
    void threeGenerationsInOneJob(int npes, String transport) throws Exception {
        List<String> options = new ArrayList<>(List.of("-x", "SHMEM_TRANSPORT=" + transport));
        if (transport.equals("ucx")) {
            Jobs.assumeUcx("ReinitTest over UCX");
            options.addAll(List.of("-x", "UCX_TLS=tcp,self"));
        }
        Oshrun.Result r = Oshrun.run(npes, options, Oshrun.conformanceClasses(), REINIT, Integer.toString(GENERATIONS));
        assertAllPassed(r, npes);
        assertEquals(0, r.exitCode(), "job re-initializing jshmem " + (GENERATIONS - 1) + " times" + r.tail());
        Matcher m = Pattern.compile("(?m)^JOBID (\\S+)$").matcher(r.stdout());
        assertTrue(m.find(), "PE 0 printed no job id" + r.tail());
        assertNoSegmentFiles(m.group(1), r);
    }

    @Test
    void threeGenerationsWithPlainJava() throws Exception {
        Oshrun.Result r = Oshrun.runPlainJava(REINIT, Integer.toString(GENERATIONS));
        assertAllPassed(r, 1);
        assertEquals(0, r.exitCode(), "Reinit run with plain java (1 PE)" + r.tail());
    }

    /** A PE that exits after finalize while the others initialize again: the job ends at once, naming both. */
    @Test
    void aPeExitingInsteadOfReinitializingEndsTheJob() throws Exception {
        Oshrun.Result r = Oshrun.run(3, List.of(), Oshrun.conformanceClasses(), REINIT, "2", "quit", "1");
        assertEquals(1, r.exitCode(), "status of a job whose PE 1 exited instead of initializing again" + r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("initialized jshmem again")
                && l.contains("PE 1 (pid") && l.contains("exited after finalize")),
                "oshrun does not say that PE 1 exited while the others initialized again" + r.tail());
        assertTrue(!r.stdout().contains("CASE reinit.init.g2 PE 1"), "PE 1 initialized again" + r.tail());
    }

    private static void assertAllPassed(Oshrun.Result r, int npes) {
        List<String> expected = new ArrayList<>();
        for (int g = 1; g <= GENERATIONS; g++) {
            for (String c : EVERY_GENERATION) {
                expected.add("reinit." + c + ".g" + g);
            }
            if (g > 1) {
                for (String c : AFTER_THE_FIRST) {
                    expected.add("reinit." + c + ".g" + g);
                }
            }
        }
        expected.addAll(List.of("reinit.nested-init.g2", "reinit.nested-close.g2", "reinit.after-last.stale-handle.g" + GENERATIONS));
        List<Oshrun.CaseLine> lines = r.caseLines();
        List<String> problems = new ArrayList<>();
        for (String name : expected) {
            for (int pe = 0; pe < npes; pe++) {
                int p = pe;
                List<Oshrun.CaseLine> mine = lines.stream().filter(l -> l.name().equals(name) && l.pe() == p).toList();
                if (mine.size() != 1) {
                    problems.add(name + ": PE " + pe + " reported it " + mine.size() + " times");
                } else if (!mine.getFirst().result().equals("PASS")) {
                    problems.add(mine.getFirst().toString());
                }
            }
        }
        lines.stream().filter(l -> !l.result().equals("PASS") && !expected.contains(l.name())).forEach(l -> problems.add(l.toString()));
        if (!problems.isEmpty()) {
            fail(String.join("\n  ", problems) + r.tail());
        }
    }

    private static void assertNoSegmentFiles(String jobId, Oshrun.Result r) throws Exception {
        Path shmDir = Path.of(System.getenv().getOrDefault("JSHMEM_SHM_DIR", "/dev/shm"));
        if (Files.isDirectory(shmDir)) {
            try (Stream<Path> files = Files.list(shmDir)) {
                List<String> left = files.map(p -> p.getFileName().toString()).filter(n -> n.contains(jobId)).toList();
                assertTrue(left.isEmpty(), "shared-memory files of job " + jobId + " left in " + shmDir + ": " + left + r.tail());
            }
        }
    }
}
