/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** KernelCharts reads kernels.sh's CSV, counts only verified runs, and writes one chart per transport. */
class KernelChartsTest {
    private static final String HEADER = "kernel,pes,transport,impl,round,position,verified,time_s,rate,rate_unit,wall_s,cpu_s,load_avg,other_cpu,bind_core";

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private static Path csv(Path dir, String... rows) throws IOException {
        Path csv = dir.resolve("results.csv");
        Files.writeString(csv, HEADER + "\n" + String.join("\n", rows) + "\n");
        return csv;
    }

    private static String run(String kernel, int pes, String transport, String impl, int round, int verified, String time) {
        return "%s,%d,%s,%s,%d,1,%d,%s,1.0,MFlops/s,2.0,1.5,0.5,0.0,1".formatted(kernel, pes, transport, impl, round, verified, time);
    }

    @Test
    void theMedianCountsOnlyVerifiedRuns(@TempDir Path dir) throws IOException {
        List<KernelCharts.Run> runs = KernelCharts.read(csv(dir,
                run("stencil", 2, "shm", "java", 1, 1, "0.010"),
                run("stencil", 2, "shm", "java", 2, 1, "0.030"),
                run("stencil", 2, "shm", "java", 3, 0, "0.001"), // failed verification: not counted
                run("stencil", 2, "shm", "java", 4, 1, "0.020"),
                run("stencil", 2, "shm", "c", 1, 0, "")));
        assertEquals(0.020, KernelCharts.median(runs, "stencil", 2, "shm", "java"), 1e-12);
        assertTrue(Double.isNaN(KernelCharts.median(runs, "stencil", 2, "shm", "c")), "no verified C run");
        assertTrue(Double.isNaN(KernelCharts.median(runs, "stencil", 4, "shm", "java")), "no such row");
    }

    @Test
    void writesOneChartPerTransport(@TempDir Path dir) throws IOException {
        Path csv = csv(dir,
                run("stencil", 1, "shm", "c", 1, 1, "0.011"), run("stencil", 1, "shm", "java", 1, 1, "0.019"),
                run("isx", 2, "shm", "c", 1, 1, "0.40"), run("isx", 2, "shm", "java", 1, 1, "0.39"),
                run("p2p", 2, "ucx", "c", 1, 1, "0.026"), run("p2p", 2, "ucx", "java", 1, 1, "0.045"));
        KernelCharts.main(new String[] {"--csv", csv.toString(), "--out", dir.toString()});
        for (String name : List.of("kernels_shm.png", "kernels_ucx.png")) {
            var image = ImageIO.read(dir.resolve(name).toFile());
            assertTrue(image != null && image.getWidth() > 100 && image.getHeight() > 200, name);
        }
        // two kernels on shm: two panels, so a taller image than ucx's one
        assertTrue(ImageIO.read(dir.resolve("kernels_shm.png").toFile()).getHeight()
                > ImageIO.read(dir.resolve("kernels_ucx.png").toFile()).getHeight());
    }

    @Test
    void aFileWithoutTheColumnsIsAClearError(@TempDir Path dir) throws IOException {
        Path other = dir.resolve("latest.csv");
        Files.writeString(other, "impl,transport,pes,op,bytes,metric,value,unit,round\n");
        IOException e = assertThrows(IOException.class, () -> KernelCharts.read(other));
        assertTrue(e.getMessage().contains("no column kernel"), e.getMessage());
    }
}
