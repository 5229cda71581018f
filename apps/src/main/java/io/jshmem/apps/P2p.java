/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymType;

/**
 * The Parallel Research Kernels' SHMEM Synch_p2p ({@code SHMEM/Synch_p2p/p2p.c}) in Java, as its
 * Makefile builds it by default (no handshake). A pipelined wavefront on an m x n grid split into
 * vertical slices: for each row j a PE waits for its left neighbour's flag, takes the value the
 * neighbour put, computes its part of the row and passes its last value on with a put, a fence and
 * a flag put; the top right corner is fed back to PE 0 to chain the iterations. The flag value
 * meaning "data here" alternates between iterations. Timed from the second iteration; verified
 * by the corner value.
 *
 * <p>Usage (the original's): {@code P2p <#iterations> <1st array dimension> <2nd array dimension>}.
 */
public final class P2p {
    private static final double EPSILON = 1.e-8;

    private P2p() {
    }

    public static void main(String[] args) {
        Prk.exit(Prk.run(shmem -> p2p(shmem, args)));
    }

    private static void p2p(Shmem shmem, String[] argv) {
        int myId = shmem.myPe();
        int numProcs = shmem.nPes();
        int root = numProcs - 1; // the highest rank, which also reports the verification value
        if (myId == root) {
            Prk.printf("Parallel Research Kernels version %s%n", Prk.VERSION);
            Prk.printf("SHMEM pipeline execution on 2D grid%n");
        }
        int error = 0;
        int iterations = 0;
        long m = 0;
        long n = 0;
        tests:
        {
            if (argv.length != 3) {
                if (myId == root) {
                    Prk.printf("Usage: %s  <#iterations> <1st array dimension> <2nd array dimension>%n", P2p.class.getName());
                }
                error = 1;
                break tests;
            }
            iterations = Prk.atoi(argv[0]);
            if (iterations < 1) {
                if (myId == root) Prk.printf("ERROR: iterations must be >= 1 : %d %n", iterations);
                error = 1;
                break tests;
            }
            m = Prk.atol(argv[1]);
            n = Prk.atol(argv[2]);
            if (m < 1 || n < 1) {
                if (myId == root) Prk.printf("ERROR: grid dimensions must be positive: %d, %d %n", m, n);
                error = 1;
                break tests;
            }
            if (m <= numProcs) {
                if (myId == root) Prk.printf("ERROR: First grid dimension %d must be > #ranks %d%n", m, numProcs);
                error = 1;
            }
        }
        Prk.bailOut(shmem, error);
        shmem.barrierAll();

        if (myId == root) {
            Prk.printf("Number of ranks            = %d%n", numProcs);
            Prk.printf("Grid sizes                 = %d, %d%n", m, n);
            Prk.printf("Number of iterations       = %d%n", iterations);
            Prk.printf("No handshake between neighbor threads%n");
        }

        int rows = Math.toIntExact(n);
        SymIntArray flagLeft = shmem.align(Prk.ALIGNMENT, SymType.INT, rows);
        SymDoubleArray dst = shmem.align(Prk.ALIGNMENT, SymType.DOUBLE, rows);
        double[] src = new double[rows];
        Prk.bailOut(shmem, error);

        int[] start = new int[numProcs];
        int[] end = new int[numProcs];
        start[0] = 0;
        for (int id = 0; id < numProcs; id++) {
            long segmentSize = m / numProcs;
            if (id < m % numProcs) segmentSize++;
            if (id > 0) start[id] = end[id - 1] + 1;
            end[id] = (int) (start[id] + segmentSize - 1);
        }
        int segmentSize = end[myId] - start[myId] + 1;
        // one ghost column on the left of the slice: ARRAY(i,j) = vector[i+1+j*(segment_size+1)]
        int stride = segmentSize + 1;
        double[] vector = new double[Math.multiplyExact(stride, rows)];
        Prk.bailOut(shmem, error);

        for (int j = 0; j < rows; j++) {
            for (int i = start[myId] - 1; i <= end[myId]; i++) {
                vector[i - start[myId] + 1 + j * stride] = 0.0;
            }
        }
        // boundary values: bottom and left side of the grid
        if (myId == 0) {
            for (int j = 0; j < rows; j++) vector[1 + j * stride] = j;
        }
        for (int i = start[myId] - 1; i <= end[myId]; i++) vector[i - start[myId] + 1] = i;

        // start and end in local indices from here on
        int first = myId == 0 ? 1 : 0;
        int last = segmentSize - 1;

        int yes = 1;
        int no = 0;
        for (int j = 0; j < rows; j++) flagLeft.set(j, no);
        shmem.barrierAll();

        double localPipelineTime = 0;
        for (int iter = 0; iter <= iterations; iter++) {
            yes = (iter + 1) % 2; // "true" and "false" toggle each iteration
            no = yes == 0 ? 1 : 0;
            if (iter == 1) {
                shmem.barrierAll();
                localPipelineTime = Prk.wtime();
            }
            if (myId == 0 && numProcs > 1) { // PE 0 waits for the corner value to be copied
                shmem.waitUntil(flagLeft, 0, Cmp.EQ, no);
                if (iter > 0) vector[first - 1 + 1] = dst.get(0);
            }
            for (int j = 1; j < rows; j++) {
                if (myId > 0) { // wait for the left neighbour's value
                    shmem.waitUntil(flagLeft, j, Cmp.EQ, yes);
                    vector[first - 1 + 1 + j * stride] = dst.get(j);
                }
                int row = j * stride + 1;
                int up = row - stride;
                for (int i = first; i <= last; i++) {
                    vector[row + i] = vector[row + i - 1] + vector[up + i] - vector[up + i - 1];
                }
                if (myId != numProcs - 1) {
                    src[j] = vector[row + last];
                    shmem.p(dst, j, src[j], myId + 1);
                    shmem.fence();
                    shmem.p(flagLeft, j, yes, myId + 1); // the right neighbour's data is there
                }
            }
            // copy the top right corner value to the bottom left corner: a dependency between iterations
            if (numProcs > 1) {
                if (myId == root) {
                    double cornerVal = -vector[last + 1 + (rows - 1) * stride];
                    src[0] = cornerVal;
                    shmem.p(dst, 0, src[0], 0);
                    shmem.fence();
                    shmem.p(flagLeft, 0, yes, 0);
                }
            } else {
                vector[1] = -vector[last + 1 + (rows - 1) * stride];
            }
        }
        localPipelineTime = Prk.wtime() - localPipelineTime;
        double pipelineTime = shmem.teamWorld().maxReduce(localPipelineTime);

        // verify correctness, using the top right value
        double cornerVal = (double) ((iterations + 1) * (m + n - 2));
        if (myId == root) {
            double corner = vector[last + 1 + (rows - 1) * stride];
            if (Math.abs(corner - cornerVal) / cornerVal >= EPSILON) {
                Prk.printf("ERROR: checksum %f does not match verification value %f%n", corner, cornerVal);
                error = 1;
            }
        }
        Prk.bailOut(shmem, error);

        if (myId == root) {
            double avgtime = pipelineTime / iterations;
            Prk.printf("Solution validates%n");
            Prk.printf("Rate (MFlops/s): %f Avg time (s): %f%n", 1.0E-06 * 2 * ((double) ((m - 1) * (n - 1))) / avgtime, avgtime);
        }
        shmem.free(dst);
        shmem.free(flagLeft);
    }
}
