/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Report writes every plot there are rows for, from a small CSV, and leaves out those there are none for. */
class ChartsTest {
    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    /** Runs Report on these rows (with the rounds header); returns the PNG files it wrote, sorted. */
    private static List<String> report(Path dir, String header, String... rows) throws IOException {
        Path csv = dir.resolve("results.csv");
        Files.writeString(csv, header + "\n" + String.join("\n", rows) + "\n");
        Report.main(new String[] {"--csv", csv.toString(), "--out", dir.toString()});
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".png")).sorted().toList();
        }
    }

    /** Both implementations' row of this op, bytes and metric, on shm at this PE count (OSHMEM's twice jshmem's). */
    private static List<String> both(int pes, String op, long bytes, String metric, double jshmem) {
        return List.of("jshmem,shm,%d,%s,%d,%s,%s,us,1".formatted(pes, op, bytes, metric, jshmem),
                "oshmem,shm,%d,%s,%d,%s,%s,us,1".formatted(pes, op, bytes, metric, 2 * jshmem));
    }

    private static void assertNonEmptyPng(Path png) throws IOException {
        byte[] head;
        try (InputStream in = Files.newInputStream(png)) {
            head = in.readNBytes(PNG_MAGIC.length);
        }
        assertArrayEquals(PNG_MAGIC, head, png.toString());
        var image = ImageIO.read(png.toFile());
        assertTrue(image.getWidth() > 100 && image.getHeight() > 100, png.toString());
        // Not blank: more than the background's colour.
        int first = image.getRGB(0, 0);
        boolean drawn = false;
        for (int y = 0; y < image.getHeight() && !drawn; y += 3) {
            for (int x = 0; x < image.getWidth() && !drawn; x += 3) {
                drawn = image.getRGB(x, y) != first;
            }
        }
        assertTrue(drawn, png + " is blank");
    }

    @Test
    void writesCollectiveBarrierPingPongStartUpAndSteadyPlots(@TempDir Path dir) throws IOException {
        List<String> rows = new ArrayList<>();
        rows.addAll(both(2, "put", 8, "lat_us", 0.01));
        rows.addAll(both(2, "put", 64, "lat_us", 0.02));
        for (String op : List.of("broadcast", "broadcast+barrier_all", "sum_reduce", "alltoall+barrier_all")) {
            for (long bytes : List.of(8L, 65536L)) {
                rows.addAll(both(4, op, bytes, "lat_p50_us", bytes == 8 ? 0.5 : 20));
                rows.addAll(both(4, op, bytes, "lat_p99_us", bytes == 8 ? 2 : 60));
            }
        }
        rows.add("jshmem,shm,4,fcollect,8,lat_p50_us,0.7,us,1"); // OSHMEM's missing, and jshmem's p99
        for (int pes : List.of(2, 4)) {
            rows.addAll(both(pes, "barrier_all", 0, "lat_p50_us", 0.3 * pes));
            rows.addAll(both(pes, "barrier_all", 0, "lat_p99_us", 0.9 * pes));
            rows.addAll(both(pes, "pingpong", 8, "lat_p50_us", 0.2 * pes));
        }
        rows.addAll(List.of("jshmem,shm,4,startup,0,lat_p50_us,600000,us,1", "jshmem,shm,4,startup,0,lat_p99_us,700000,us,1",
                "jshmem,shm,4,startup,0,cpu_p50_s,1.1,s,1", "jshmem,shm,4,startup_src,0,cpu_p50_s,1.3,s,1",
                "oshmem,shm,4,startup,0,lat_p50_us,650000,us,1", "oshmem,shm,4,startup,0,cpu_p99_s,0.8,s,1"));
        for (String op : List.of("put", "sum_reduce")) {
            rows.addAll(both(2, op, 8, "first1000_us", 900));
            rows.addAll(both(2, op, 8, "first100_p50_us", 3));
            rows.addAll(both(2, op, 8, "steady_p50_us", 0.2));
        }
        rows.add("jshmem,shm,2,barrier_all,0,first1000_us,2000,us,1"); // the rest of barrier_all's steady rows missing

        List<String> pngs = report(dir, Row.HEADER, rows.toArray(String[]::new));

        assertEquals(List.of("barrier_pingpong.png", "coll_64KiB_4pe.png", "coll_8B_4pe.png", "put_lat_2pe.png",
                "startup.png", "steady_2pe.png"), pngs);
        for (String png : pngs) {
            assertNonEmptyPng(dir.resolve(png));
        }
        String md = Files.readString(dir.resolve("summary.md"));
        for (String png : pngs) {
            assertTrue(md.contains("![" + png + "](" + png + ")"), png + " not linked from summary.md:\n" + md);
        }
    }

    @Test
    void olderFilesAndMissingRowsDoNotBreakTheReport(@TempDir Path dir) throws IOException {
        // Before rounds, quantiles and startup_src: start-up has only its median wall time (lat_us)
        // and the job's CPU-seconds; OSHMEM's ucx-tcp barrier only; no collectives, no steady rows.
        List<String> pngs = report(dir, Row.HEADER_ONE_ROUND, "jshmem,shm,4,startup,0,lat_us,625590.000,us",
                "oshmem,shm,4,startup,0,lat_us,672695.000,us", "jshmem,shm,4,job_startup,0,cpu_s,1.070,s",
                "oshmem,shm,4,job_startup,0,cpu_s,0.750,s", "oshmem,ucx-tcp,2,barrier_all,0,lat_p50_us,16.4,us");
        assertEquals(List.of("barrier_pingpong_ucx-tcp.png", "startup.png"), pngs);
        for (String png : pngs) {
            assertNonEmptyPng(dir.resolve(png));
        }
        // No row any plot could use: no plot, and still a summary.
        Path none = Files.createDirectory(dir.resolve("none"));
        assertEquals(List.of(), report(none, Row.HEADER, "jshmem,shm,2,swap,8,lat_us,0.05,us,1"));
        assertTrue(Files.readString(none.resolve("summary.md")).contains("## Plots"));
    }
}
