/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code oshrun --jfr}: one recording per PE, holding jshmem's events with the right teams and sizes. */
class FlightRecordingTest {

    @Test
    void eachPeWritesARecordingWithJshmemEvents(@TempDir Path dir) throws Exception {
        Oshrun.Result r = Oshrun.run(2, List.of("--jfr", "--jfr-dir", dir.toString()), Oshrun.conformanceClasses(),
                "io.jshmem.conformance.FlightScenario");
        assertEquals(0, r.exitCode(), r.tail());
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        assertEquals(2, files.size(), "one recording per PE: " + files);
        for (int pe = 0; pe < 2; pe++) {
            int p = pe;
            Path file = files.stream().filter(f -> f.getFileName().toString().endsWith("-pe" + p + ".jfr")).findFirst()
                    .orElseThrow(() -> new AssertionError("no recording of PE " + p + " in " + files));
            List<RecordedEvent> events = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().startsWith("jshmem.")).toList();
            String what = "PE " + pe + " (" + file.getFileName() + "): ";
            has(events, what + "barrier_all on the world team", "jshmem.Sync",
                    e -> e.getString("routine").equals("barrier_all") && e.getString("team").equals("SHMEM_TEAM_WORLD"));
            has(events, what + "team_sync", "jshmem.Sync", e -> e.getString("routine").equals("team_sync"));
            has(events, what + "broadcast of 64 bytes over 2 PEs", "jshmem.Collective",
                    e -> e.getString("routine").equals("broadcast") && e.getLong("bytes") == 64 && e.getInt("teamSize") == 2
                            && e.getString("team").equals("SHMEM_TEAM_WORLD"));
            has(events, what + "sum_reduce of 32 bytes", "jshmem.Collective",
                    e -> e.getString("routine").equals("sum_reduce") && e.getLong("bytes") == 32);
            for (RecordedEvent e : events) {
                if (e.getEventType().getName().equals("jshmem.Collective")) {
                    String algorithm = e.getString("algorithm");
                    assertTrue(algorithm != null && !algorithm.isEmpty() && !algorithm.equals("none"),
                            what + "a collective names its algorithm: " + e);
                }
            }
            has(events, what + "calloc of 64 bytes", "jshmem.Allocation",
                    e -> e.getString("routine").equals("calloc") && e.getLong("bytes") == 64);
            has(events, what + "free of 128 KiB", "jshmem.Allocation",
                    e -> e.getString("routine").equals("free") && e.getLong("bytes") == 131072);
            has(events, what + "a 128 KiB put to the next PE", "jshmem.Transfer",
                    e -> e.getString("routine").equals("put") && e.getLong("bytes") == 131072 && e.getInt("pe") == (p + 1) % 2);
            has(events, what + "set_lock", "jshmem.Lock", e -> true);
            has(events, what + "quiet", "jshmem.Quiet", e -> true);
            has(events, what + "fence", "jshmem.Fence", e -> true);
            if (pe == 1) {
                has(events, what + "a wait_until that waited", "jshmem.Wait",
                        e -> e.getString("routine").equals("wait_until") && e.getDuration().toMillis() >= 10);
            }
        }
    }

    /**
     * A program that returns from main without close() finalizes at exit, in a shutdown hook that ran
     * beside JFR's own: each PE's recording is still whole (it was empty for one PE in most runs when
     * the hook stopped the recording while JFR wrote it on exit).
     */
    @Test
    void aProgramThatEndsWithoutCloseStillWritesEachRecording(@TempDir Path dir) throws Exception {
        Oshrun.Result r = Oshrun.run(2, List.of("--jfr", "--jfr-dir", dir.toString()), Oshrun.conformanceClasses(),
                "io.jshmem.conformance.FlightScenario", "exit-without-close");
        assertEquals(0, r.exitCode(), r.tail());
        assertTrue(r.stdout().contains("DONE 0") && r.stdout().contains("DONE 1"), r.tail());
        for (int pe = 0; pe < 2; pe++) {
            String suffix = "-pe" + pe + ".jfr";
            Path file;
            try (Stream<Path> s = Files.list(dir)) {
                file = s.filter(f -> f.getFileName().toString().endsWith(suffix)).findFirst()
                        .orElseThrow(() -> new AssertionError("no recording ending in " + suffix + r.tail()));
            }
            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            has(events, "PE " + pe + " (" + file.getFileName() + ", " + Files.size(file) + " bytes): barrier_all",
                    "jshmem.Sync", e -> e.getString("routine").equals("barrier_all"));
        }
    }

    /**
     * A PE killed by a signal leaves JFR's chunks in the recordings' private repository: oshrun
     * removes them after the job, and the repository with them.
     */
    @Test
    void aKilledPesChunksGoWithTheJob(@TempDir Path dir) throws Exception {
        Oshrun.Result r = Oshrun.run(3, List.of("--jfr", "--jfr-dir", dir.toString()), Oshrun.conformanceClasses(),
                "io.jshmem.conformance.EndingScenarios", "sigkill-and-report");
        assertEquals(137, r.exitCode(), r.tail());
        assertFalse(Files.exists(dir.resolve(".jfr-repository")), "JFR's repository is left after the job" + r.tail());
    }

    /** Over UCX the recordings also hold the progress thread's busy periods. */
    @Test
    void overUcxTheProgressThreadIsRecorded(@TempDir Path dir) throws Exception {
        io.jshmem.conformance.spawn.Jobs.assumeUcx("FlightRecordingTest.overUcxTheProgressThreadIsRecorded");
        Oshrun.Result r = Oshrun.run(2, List.of("--jfr", "--jfr-dir", dir.toString(), "-x", "SHMEM_TRANSPORT=ucx",
                "-x", "UCX_TLS=tcp,self"), Oshrun.conformanceClasses(), "io.jshmem.conformance.FlightScenario");
        assertEquals(0, r.exitCode(), r.tail());
        long progress = 0;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.toList()) {
                progress += RecordingFile.readAllEvents(f).stream()
                        .filter(e -> e.getEventType().getName().equals("jshmem.UcxProgress") && e.getLong("completions") > 0)
                        .count();
            }
        }
        assertTrue(progress > 0, "no jshmem.UcxProgress event with completions in the recordings of " + dir);
    }

    /**
     * The job secret (issue 31): no PE has it in its environment, so no recording holds it (JFR records
     * the whole environment as jdk.InitialEnvironmentVariable events); the recordings are 0600 in a
     * directory of 0700 (which the PEs create); the secret's file is gone after the job. Two
     * initializations per PE: the second gets the secret from memory, and writes a -g1 recording.
     */
    @Test
    void theJobSecretIsInNoEnvironmentAndNoRecording(@TempDir Path dir) throws Exception {
        Path recordings = dir.resolve("recordings");
        Oshrun.Result r = Oshrun.run(2, List.of("--jfr", "--jfr-dir", recordings.toString()), Oshrun.conformanceClasses(),
                "io.jshmem.conformance.SecretScenario");
        assertEquals(0, r.exitCode(), r.tail());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^SECRET ([0-9a-f]{64}) FILE (\\S+)$").matcher(r.stdout());
        List<String> secrets = new java.util.ArrayList<>();
        while (m.find()) {
            secrets.add(m.group(1));
            Path file = Path.of(m.group(2));
            assertTrue(!Files.exists(file) && !Files.exists(file.getParent()),
                    "the secret's file " + file + " or its directory is left after the job" + r.tail());
        }
        assertEquals(2, secrets.size(), "each PE read its secret's file" + r.tail());
        assertEquals(secrets.get(0), secrets.get(1), "one secret per job" + r.tail());
        String secret = secrets.get(0);
        for (int pe = 0; pe < 2; pe++) {
            for (int init = 1; init <= 2; init++) {
                assertTrue(r.stdout().contains("CHECK PE " + pe + " INIT " + init + " clean\n"),
                        "PE " + pe + ", initialization " + init + r.tail());
            }
        }
        assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(recordings)), "the recordings' directory");
        List<Path> files;
        try (Stream<Path> s = Files.list(recordings)) {
            files = s.sorted().toList();
        }
        assertEquals(4, files.size(), "a recording per PE and initialization: " + files);
        byte[] needle = secret.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        for (Path f : files) {
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(f)),
                    f.getFileName().toString());
            List<RecordedEvent> env = RecordingFile.readAllEvents(f).stream()
                    .filter(e -> e.getEventType().getName().equals("jdk.InitialEnvironmentVariable")).toList();
            assertTrue(env.stream().anyMatch(e -> e.getString("key").equals("JSHMEM_PE")),
                    f.getFileName() + " records the environment (else this test proves nothing)");
            for (RecordedEvent e : env) {
                assertTrue(!e.getString("key").equals("JSHMEM_SECRET") && !String.valueOf(e.getString("value")).contains(secret),
                        f.getFileName() + " records the secret: " + e.getString("key"));
            }
            byte[] bytes = Files.readAllBytes(f);
            for (int i = 0; i + needle.length <= bytes.length; i++) {
                if (java.util.Arrays.equals(bytes, i, i + needle.length, needle, 0, needle.length)) {
                    throw new AssertionError(f.getFileName() + " holds the secret at byte " + i);
                }
            }
        }
    }

    private static void has(List<RecordedEvent> events, String what, String type, Predicate<RecordedEvent> p) {
        assertTrue(events.stream().anyMatch(e -> e.getEventType().getName().equals(type) && p.test(e)),
                "missing " + type + ": " + what + "; jshmem events: " + events.stream()
                        .map(e -> e.getEventType().getName()).distinct().toList());
    }
}
