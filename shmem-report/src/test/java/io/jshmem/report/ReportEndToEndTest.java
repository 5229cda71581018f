/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The report of a real 4-PE job ({@link ReportJob}, through {@code oshrun --jfr --report}): the late
 * PE and its share, the traffic matrix, the routine table and the page itself.
 */
class ReportEndToEndTest {
    private static JobFixture job;
    private static Page page;
    private static String html;

    @BeforeAll
    static void runJob() throws Exception {
        job = JobFixture.get();
        page = new Page(Recordings.read(List.of(job.dir), null));
        html = Files.readString(job.report, StandardCharsets.UTF_8);
    }

    @Test
    void oshrunReportWritesThePage() throws IOException {
        assertTrue(job.oshrun.out().contains("shmem-report: " + job.report + " ("), job.oshrun.out());
        assertTrue(job.oshrun.out().contains("job " + job.id + ", 4 PEs"), job.oshrun.out());
        long size = Files.size(job.report);
        assertTrue(size > 10_000 && size < 1024 * 1024, "page of " + size + " bytes");
        assertTrue(html.startsWith("<!DOCTYPE html>"), html.substring(0, 40));
        assertFalse(html.contains("/*DATA*/"), "the data went in");
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(job.report)),
                "as private as the recordings");
    }

    @Test
    void namesPe2AsTheLatePeWithItsShare() {
        LateArrivals late = page.late();
        assertEquals(ReportJob.BARRIERS, late.syncs, "every barrier matched across the 4 PEs");
        int late2 = ReportJob.LATE_BY_2;
        assertArrayEquals(new int[] {0, ReportJob.BARRIERS - late2, late2, 0}, late.lastSyncs);
        assertEquals(ReportJob.REDUCTIONS, late.collectives);
        assertEquals(ReportJob.REDUCTIONS, java.util.Arrays.stream(late.lastCollectives).sum());
        for (LateArrivals.Instance i : late.instances) {
            assertEquals(JobFixture.NPES, i.members(), i.toString());
            assertEquals("SHMEM_TEAM_WORLD", i.team(), i.toString());
            assertTrue(i.margin() >= 0 && i.waited() >= i.margin(), i.toString());
        }
        // sequence numbers: the barriers and reductions of the world team in program order
        List<String> routines = late.instances.stream().map(LateArrivals.Instance::routine).toList();
        assertEquals(ReportJob.BARRIERS, routines.indexOf("sum_reduce"), routines.toString());
        assertTrue(late.waitedFor[2] > late.waitedFor[1] && late.waitedFor[1] > 0, java.util.Arrays.toString(late.waitedFor));
        String expected = "PE 2 was last at 75% of barriers/syncs (15 of 20); the others waited ";
        assertTrue(late.summary().startsWith(expected), late.summary());
        assertTrue(html.contains(expected), "the page's summary");
        assertTrue(job.oshrun.out().contains(expected), job.oshrun.out());
    }

    @Test
    void trafficMatrixHasTheJobsTransfers() {
        Traffic t = page.traffic();
        int n = JobFixture.NPES;
        for (int from = 0; from < n; from++) {
            for (int to = 0; to < n; to++) {
                boolean put = to == (from + 1) % n;
                boolean get = to == (from + 2) % n;
                String cell = "PE " + from + " -> PE " + to;
                assertEquals(put ? ReportJob.PUTS * ReportJob.PUT_BYTES : get ? ReportJob.GET_BYTES : 0, t.bytes[from][to], cell);
                assertEquals(put ? ReportJob.PUTS : get ? 1 : 0, t.ops[from][to], cell);
                assertEquals(put ? ReportJob.PUTS * ReportJob.PUT_BYTES : 0, t.putBytes[from][to], cell);
                assertEquals(get ? ReportJob.GET_BYTES : 0, t.getBytes[from][to], cell);
            }
        }
        assertTrue(html.contains("\"traffic\":{\"bytes\":[[0,393216,262144,0],"), "the matrix in the page's data");
    }

    @Test
    void routineTableCountsEachPesCalls() {
        List<RoutineStats.Row> rows = page.routines();
        assertRoutine(rows, "sync", "barrier_all", ReportJob.BARRIERS);
        assertRoutine(rows, "collective", "sum_reduce", ReportJob.REDUCTIONS);
        assertRoutine(rows, "transfer", "put", ReportJob.PUTS);
        assertRoutine(rows, "transfer", "get", 1);
        assertRoutine(rows, "lock", "lock", 1);
        for (RoutineStats.Row r : rows) {
            assertTrue(r.p50() <= r.p99() && r.p99() <= r.max() && r.max() <= r.total(), r.toString());
        }
        // PE 2 slept before most barriers, so it waited least in them
        long p50of2 = row(rows, "sync", "barrier_all", 2).p50();
        long p50of0 = row(rows, "sync", "barrier_all", 0).p50();
        assertTrue(p50of2 < p50of0, p50of2 + " vs " + p50of0);
    }

    private static void assertRoutine(List<RoutineStats.Row> rows, String kind, String routine, int perPe) {
        assertEquals(perPe * JobFixture.NPES, row(rows, kind, routine, -1).count(), kind + " " + routine + " all PEs");
        for (int pe = 0; pe < JobFixture.NPES; pe++) {
            assertEquals(perPe, row(rows, kind, routine, pe).count(), kind + " " + routine + " PE " + pe);
        }
    }

    private static RoutineStats.Row row(List<RoutineStats.Row> rows, String kind, String routine, int pe) {
        return rows.stream().filter(r -> r.kind().equals(kind) && r.routine().equals(routine) && r.pe() == pe).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + kind + " " + routine + " PE " + pe + " in " + rows));
    }

    @Test
    void pageIsSelfContained() {
        // nothing fetched: no external script, style, image or font
        assertFalse(Pattern.compile("(?i)(src|href)\\s*=\\s*[\"']?\\s*(https?:|//)").matcher(html).find(), "an external reference");
        assertFalse(Pattern.compile("(?i)<link\\b|@import|url\\(").matcher(html).find(), "a linked resource");
        assertTrue(html.contains("\"npes\":4"), "data");
        assertTrue(html.contains("\"JSHMEM_NPES\":\"4\""), "the PEs' settings");
        // 4 PEs on one node: linear barriers (JSHMEM_BARRIER_ALGORITHM auto), with the algorithms of the
        // job's collectives, which the Collective events name too
        assertTrue(Pattern.compile("\"algorithms\":\\{\"SHMEM_TEAM_WORLD\":\"[^\"]*sync: linear").matcher(html).find(),
                "the algorithm chosen");
        assertFalse(html.contains("SECRET"), "no secret-bearing variable");
        String host;
        try {
            host = Files.readString(java.nio.file.Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertTrue(html.contains("\"nodes\":[\"" + host + "\"],\"peNode\":[0,0,0,0]"), "the PEs' host, from jshmem.Host events");
    }
}
