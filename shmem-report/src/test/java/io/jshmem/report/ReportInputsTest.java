/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import jdk.jfr.Recording;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * shmem-report's command line and its messages for missing, foreign, truncated and mixed
 * recordings, made from the real recordings of {@link JobFixture}'s job.
 */
class ReportInputsTest {
    private static JobFixture job;
    @TempDir
    Path tmp;

    record Run(int status, String out, String err) {
    }

    @BeforeAll
    static void runJob() throws Exception {
        job = JobFixture.get();
    }

    private static Run report(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = ShmemReport.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** A copy of the job's recordings (without its report). */
    private Path copy(String name) throws IOException {
        Path d = Files.createDirectories(tmp.resolve(name));
        for (int pe = 0; pe < JobFixture.NPES; pe++) {
            String f = job.id + "-pe" + pe + ".jfr";
            Files.copy(job.dir.resolve(f), d.resolve(f));
        }
        return d;
    }

    private static void assertError(Run r, String message) {
        assertEquals(1, r.status(), r.err());
        assertEquals("", r.out());
        assertEquals("shmem-report: " + message + "\n", r.err());
    }

    @Test
    void missingInputs() throws IOException, InterruptedException {
        Path nowhere = tmp.resolve("nowhere");
        assertError(report(nowhere.toString()), nowhere + ": no such file or directory");
        Path fifo = tmp.resolve("fifo.jfr");
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) { // read for ever before
            assertError(report(fifo.toString()), fifo + ": not a regular file (a recording is a .jfr file)");
        }
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertError(report(empty.toString()), empty + ": no recordings of a jshmem job (<job id>-pe<N>.jfr) in this directory;"
                + " record one with oshrun --jfr --jfr-dir " + empty);
        Path d = copy("missing-pe");
        Files.delete(d.resolve(job.id + "-pe3.jfr"));
        assertError(report(d.toString()), d + ": job " + job.id + " had 4 PEs but there is no recording of " + job.id
                + "-pe3.jfr (a PE that was killed writes none)");
        Path zero = copy("empty-file");
        Files.write(zero.resolve(job.id + "-pe1.jfr"), new byte[0]);
        assertError(report(zero.toString()), zero.resolve(job.id + "-pe1.jfr")
                + ": empty: the PE ended before it wrote its recording (killed?)");
        assertError(report("--job", "nosuchjob", job.dir.toString()), job.dir + ": no recordings of job nosuchjob (found: " + job.id + ")");
    }

    @Test
    void foreignFiles() throws IOException {
        Path text = copy("text");
        Files.writeString(text.resolve(job.id + "-pe2.jfr"), "not a recording\n");
        assertError(report(text.toString()), text.resolve(job.id + "-pe2.jfr") + ": not a JDK Flight Recorder file");
        // a real recording, but of this test's JVM: no JSHMEM_JOBID, no jshmem events
        Path jfr = copy("other-jvm");
        Path other = jfr.resolve(job.id + "-pe0.jfr");
        try (Recording r = new Recording()) {
            r.start();
            r.stop();
            r.dump(other);
        }
        assertError(report(jfr.toString()), other + ": a flight recording, but not of a jshmem PE (no JSHMEM_JOBID in its"
                + " environment, no jshmem events); record jobs with oshrun --jfr");
        Path named = tmp.resolve("trace.jfr");
        Files.copy(job.dir.resolve(job.id + "-pe0.jfr"), named);
        assertError(report(named.toString()), named + ": not a recording of a jshmem PE by its name (oshrun --jfr writes <job id>-pe<N>.jfr)");
    }

    @Test
    void truncatedFile() throws IOException {
        Path d = copy("truncated");
        Path f = d.resolve(job.id + "-pe1.jfr");
        byte[] all = Files.readAllBytes(f);
        Files.write(f, java.util.Arrays.copyOf(all, all.length / 2));
        Run r = report(d.toString());
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().startsWith("shmem-report: " + f + ": truncated or corrupt flight recording ("), r.err());
        assertTrue(r.err().endsWith("); was the PE killed while writing it?\n"), r.err());
    }

    @Test
    void mixedJobs() throws IOException {
        Path d = copy("mixed");
        Files.copy(d.resolve(job.id + "-pe0.jfr"), d.resolve("zzzzother-pe0.jfr"));
        java.time.Instant older = java.time.Instant.parse("2026-01-02T03:04:05Z");
        for (int pe = 0; pe < JobFixture.NPES; pe++) {
            Files.setLastModifiedTime(d.resolve(job.id + "-pe" + pe + ".jfr"), java.nio.file.attribute.FileTime.from(older));
        }
        java.time.Instant newer = older.plusSeconds(3600);
        Files.setLastModifiedTime(d.resolve("zzzzother-pe0.jfr"), java.nio.file.attribute.FileTime.from(newer));
        java.time.format.DateTimeFormatter local = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
                .withZone(java.time.ZoneId.systemDefault());
        assertError(report(d.toString()), d + ": recordings of 2 jobs: zzzzother (1 PE, " + local.format(newer) + "), " + job.id
                + " (4 PEs, " + local.format(older) + "); choose one with --job ID");
        assertError(report("--job", "zzzzother", d.toString()), d.resolve("zzzzother-pe0.jfr") + ": the recording of a PE of job "
                + job.id + ", not of job zzzzother as its name says (renamed, or files of different jobs mixed?)");
        Path swapped = copy("swapped");
        Files.move(swapped.resolve(job.id + "-pe1.jfr"), swapped.resolve("x.tmp"));
        Files.move(swapped.resolve(job.id + "-pe2.jfr"), swapped.resolve(job.id + "-pe1.jfr"));
        Files.move(swapped.resolve("x.tmp"), swapped.resolve(job.id + "-pe2.jfr"), StandardCopyOption.ATOMIC_MOVE);
        Run r = report(swapped.toString());
        assertEquals(1, r.status(), r.err());
        assertTrue(r.err().matches("shmem-report: .*-pe[12]\\.jfr: the recording of PE [12], not of PE [12] as its name says\n"), r.err());
        // the job's directory chosen with --job, the page written elsewhere with -o, files given one by one
        Path page = tmp.resolve("page.html");
        Run ok = report("--job", job.id, "-o", page.toString(), d.toString());
        assertEquals(0, ok.status(), ok.err());
        assertTrue(ok.out().startsWith("shmem-report: " + page + " ("), ok.out());
        Run files = report("-q", "-o", page.toString(), job.dir.resolve(job.id + "-pe0.jfr").toString(),
                job.dir.resolve(job.id + "-pe1.jfr").toString(), job.dir.resolve(job.id + "-pe2.jfr").toString(),
                job.dir.resolve(job.id + "-pe3.jfr").toString());
        assertEquals(new Run(0, "", ""), files);
    }

    @Test
    void partialReportsLeaveOutWhatCannotBeRead() throws Exception {
        Path d = copy("partial");
        Files.delete(d.resolve(job.id + "-pe3.jfr"));
        Path f = d.resolve(job.id + "-pe1.jfr");
        byte[] all = Files.readAllBytes(f);
        Files.write(f, java.util.Arrays.copyOf(all, all.length / 2));
        Run r = report("--partial", d.toString());
        assertEquals(0, r.status(), r.err());
        String[] warnings = r.err().split("\n");
        assertEquals(2, warnings.length, r.err());
        assertTrue(warnings[0].startsWith("shmem-report: warning: " + f + ": truncated or corrupt flight recording ("), r.err());
        assertEquals("shmem-report: warning: " + d + ": job " + job.id + " had 4 PEs but there is no recording of " + job.id
                + "-pe3.jfr (a PE that was killed writes none)", warnings[1]);
        Recordings.Job partial = Recordings.read(java.util.List.of(d), null, true);
        assertEquals(4, partial.pes().size(), "a lane for every PE");
        assertTrue(partial.pes().get(1).ops().isEmpty() && partial.pes().get(3).ops().isEmpty());
        assertEquals(ReportJob.BARRIERS, new LateArrivals(partial).syncs, "PEs 0 and 2 still meet at every barrier");
        String html = Files.readString(d.resolve(job.id + "-report.html"));
        assertTrue(html.contains("\"notes\":[\"" + f), "the page lists what was left out");
        // nothing readable: still an error
        Path none = Files.createDirectories(tmp.resolve("none"));
        Files.write(none.resolve("abc-pe0.jfr"), new byte[0]);
        assertError(report("--partial", none.toString()), none.resolve("abc-pe0.jfr")
                + ": empty: the PE ended before it wrote its recording (killed?)");
    }

    /** oshrun --report after a PE died: the job's status, and a report of the others with a warning. */
    @Test
    void failedJobGetsAPartialReport() throws Exception {
        Path dir = tmp.resolve("failed");
        Commands.Result r = Commands.run(tmp, 300, Commands.bin("oshrun", "-np", "3", "--jfr", "--jfr-dir", dir.toString(), "--report",
                "-cp", Path.of("target/test-classes").toAbsolutePath().toString(), ReportJob.class.getName(), "halt"));
        assertEquals(3, r.status(), r.err());
        assertTrue(r.err().matches("(?s).*shmem-report: warning: " + java.util.regex.Pattern.quote(dir.toString())
                + "/[a-z0-9]+-pe1\\.jfr: empty: the PE ended before it wrote its recording \\(killed\\?\\)\n.*"), r.err());
        assertTrue(r.out().matches("(?s).*shmem-report: " + java.util.regex.Pattern.quote(dir.toString())
                + "/[a-z0-9]+-report\\.html \\(.*"), r.out());
    }

    @Test
    void usage() {
        Run help = report("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: shmem-report [-o FILE] [--job ID] [-q] DIR|FILE...\n"), help.out());
        assertEquals(new Run(2, "", "shmem-report: missing the recordings: a directory (oshrun --jfr-dir, default ./jshmem-jfr)"
                + " or .jfr files\nsee shmem-report --help\n"), report());
        assertEquals(new Run(2, "", "shmem-report: unknown option --bogus\nsee shmem-report --help\n"), report("--bogus", "x"));
        assertEquals(new Run(2, "", "shmem-report: -o needs a file\nsee shmem-report --help\n"), report("x", "-o"));
    }

    @Test
    void theScriptPassesTheStatusOn() throws Exception {
        Commands.Result help = Commands.run(tmp, 120, Commands.bin("shmem-report", "--help"));
        assertEquals(0, help.status(), help.err());
        assertTrue(help.out().startsWith("Usage: shmem-report"), help.out());
        Path nowhere = tmp.resolve("nowhere");
        Commands.Result missing = Commands.run(tmp, 120, Commands.bin("shmem-report", nowhere.toString()));
        assertEquals(1, missing.status(), missing.err());
        assertEquals("shmem-report: " + nowhere + ": no such file or directory\n", missing.err());
        Commands.Result usage = Commands.run(tmp, 120, Commands.bin("oshrun", "-np", "2", "--report", "Foo"));
        assertEquals(2, usage.status(), usage.err());
        assertEquals("oshrun: --report reports the job's flight recordings: use it with --jfr\nsee oshrun --help\n", usage.err());
    }
}
