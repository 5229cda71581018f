/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every kernel's own verification, at small sizes, in real jobs of 2 and 4 PEs through
 * {@code bin/oshrun} (several kernels per job through {@link KernelBatch}). Correctness only:
 * the kernels print their rate, which is never asserted.
 */
class KernelsTest {
    private static final String RATE = "Rate \\((MFlops/s|MB/s)\\): \\d+\\.\\d{6} +Avg time \\(s\\): \\d+\\.\\d{6}";
    /** ISx's receive buffer is 1 GiB per PE (the C program's size): the heap must hold it. */
    static final List<String> ISX_HEAP = List.of("-x", "SHMEM_SYMMETRIC_SIZE=1100m");

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 4})
    void prkKernelsValidate(int npes) throws Exception {
        // Sizes with uneven tiles (Stencil 30 over 2 and 4 PEs), tiled and untiled transposes,
        // and a pipeline with more columns than rows.
        Job job = Job.run(npes, List.of(), "io.jshmem.apps.KernelBatch",
                "Stencil", "4", "30", "--", "Transpose", "4", "24", "5", "--", "Transpose", "3", "24", "0", "--",
                "P2p", "4", "30", "12");
        assertEquals(0, job.exitCode(), "job status" + job.describe());
        assertEquals(4, job.count("Solution validates"), "kernels that validated" + job.describe());
        assertEquals(4, job.count(RATE), "rate lines in the originals' format" + job.describe());
        assertEquals(1, job.count("Tile size            = 5"), job.describe());
        assertEquals(1, job.count("Untiled"), job.describe());
        // Transpose's default build (-DVERBOSE=0 under #ifdef VERBOSE) also prints its error sum.
        assertEquals(2, job.count("Summed errors: +0\\.0{15} "), job.describe());
        assertEquals(1, job.count("Number of ranks            = " + npes), "p2p's header" + job.describe());
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {2, 4})
    void isxVerifiesAndLogs(int npes, @TempDir Path dir) throws Exception {
        Path strong = dir.resolve("strong.log");
        Job job = Job.run(npes, ISX_HEAP, "io.jshmem.apps.KernelBatch",
                "IsxStrong", "10001", "2", strong.toString(), "--",
                "IsxWeak", "3000", dir.resolve("weak.log").toString(), "--",
                "IsxWeakIso", "3000", "2", dir.resolve("iso.log").toString());
        // ISx prints nothing when it verifies: a failed verification is a message and status 1.
        assertEquals(0, job.exitCode(), "job status" + job.describe());
        assertFalse(job.stdout().contains("Verification"), job.describe());
        assertEquals(3, job.count("Average total time \\(per PE\\): \\d+\\.\\d{6} seconds"), job.describe());
        assertEquals(3, job.count("Average all2all time \\(per PE\\): \\d+\\.\\d{6} seconds"), job.describe());
        long perPe = (10001 + npes - 1) / npes;
        assertEquals(1, job.count("  Number of Keys per PE: " + perPe), "strong scaling divides the keys" + job.describe());
        assertEquals(1, job.count("  Max Key Value: " + 8192 * npes), "weak iso-bucket's key range" + job.describe());
        // The log: run info, timer names, then 2 iterations of every PE; the keys each PE sent add
        // up to the keys that left their PE (ATA_KEYS_COUNTS).
        List<String> log = Files.readAllLines(strong);
        assertEquals(2 + 2 * npes, log.size(), "log lines: " + log);
        assertTrue(log.get(0).startsWith("SHMEM\tNUM_PES " + npes + "\tMax_Key 268435456\tNum_Iters 2\tStrong Scaling: "
                + perPe * npes + " total keys\t"), log.get(0));
        assertEquals("TOTAL (sec)\tATA_KEYS (sec)\tATA_KEYS_COUNTS\tMAKE_INPUT (sec)\tCOUNT_BUCKET_SIZES (sec)\t"
                + "BUCKETIZE (sec)\tCOMPUTE_OFFSETS (sec)\tLOCAL_SORT (sec)\t", log.get(1));
        for (String row : log.subList(2, log.size())) {
            String[] f = row.split("\t");
            assertEquals(8, f.length, row);
            long sent = Long.parseLong(f[2]);
            assertTrue(sent > 0 && sent < perPe, "keys sent to other PEs: " + row);
        }
    }
}
