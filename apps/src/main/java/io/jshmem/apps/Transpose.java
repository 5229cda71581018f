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
 * The Parallel Research Kernels' SHMEM Transpose ({@code SHMEM/Transpose/transpose.c}) in Java,
 * as its Makefile builds it by default (flag synchronization, not barriers). B = A^T for a
 * matrix distributed in column blocks: each iteration every PE transposes its diagonal block
 * locally, then in N-1 phases transposes the block for PE {@code me - phase} into a work buffer,
 * waits until that PE is ready, puts the block into its phase's symmetric work buffer, fences and
 * increments the receiver's flag; it waits for the block from PE {@code me + phase}, adds it into
 * B and tells the sender it may send again. Timed from the second iteration; verified exactly.
 *
 * <p>Usage (the original's): {@code Transpose <# iterations> <matrix order> [Tile size]}.
 *
 * <p>The outgoing work block is a plain Java array (C: symmetric, used only as a put's local
 * source). The received blocks are copied out of the symmetric work buffers a column at a time
 * (the array's bulk get) and added into B.
 */
public final class Transpose {
    private static final double EPSILON = 1.e-8;

    private Transpose() {
    }

    public static void main(String[] args) {
        Prk.exit(Prk.run(shmem -> transpose(shmem, args)));
    }

    private static void transpose(Shmem shmem, String[] argv) {
        final int root = 0;
        int myId = shmem.myPe();
        int numProcs = shmem.nPes();
        if (myId == root) {
            Prk.printf("Parallel Research Kernels version %s%n", Prk.VERSION);
            Prk.printf("SHMEM matrix transpose: B = A^T%n");
        }
        SymIntArray arguments = shmem.align(Prk.ALIGNMENT, SymType.INT, 3);
        SymIntArray received = shmem.align(Prk.ALIGNMENT, SymType.INT, 3);
        int error = 0;
        int iterations = 0;
        int order = 0;
        int tileOrder = 32;
        if (myId == root) {
            tests:
            {
                if (argv.length != 2 && argv.length != 3) {
                    Prk.printf("Usage: %s <# iterations> <matrix order> [Tile size]%n", Transpose.class.getName());
                    error = 1;
                    break tests;
                }
                iterations = Prk.atoi(argv[0]);
                arguments.set(0, iterations);
                if (iterations < 1) {
                    Prk.printf("ERROR: iterations must be >= 1 : %d %n", iterations);
                    error = 1;
                    break tests;
                }
                order = Prk.atoi(argv[1]);
                arguments.set(1, order);
                if (order < numProcs) {
                    Prk.printf("ERROR: matrix order %d should at least # procs %d%n", order, numProcs);
                    error = 1;
                    break tests;
                }
                if (order % numProcs != 0) {
                    Prk.printf("ERROR: matrix order %d should be divisible by # procs %d%n", order, numProcs);
                    error = 1;
                    break tests;
                }
                if (argv.length == 3) {
                    tileOrder = Prk.atoi(argv[2]);
                }
                arguments.set(2, tileOrder);
            }
        }
        Prk.bailOut(shmem, error);

        if (myId == root) {
            Prk.printf("Number of ranks      = %d%n", numProcs);
            Prk.printf("Matrix order         = %d%n", order);
            Prk.printf("Number of iterations = %d%n", iterations);
            Prk.printf("Synchronization      = flags%n");
            if (tileOrder > 0 && tileOrder < order) {
                Prk.printf("Tile size            = %d%n", tileOrder);
            } else {
                Prk.printf("Untiled%n");
            }
        }
        shmem.teamWorld().broadcast(received, arguments, 3, root);
        shmem.barrierAll();
        iterations = received.get(0);
        order = received.get(1);
        tileOrder = received.get(2);
        shmem.barrierAll();
        shmem.free(received);
        shmem.free(arguments);

        boolean tiling = tileOrder > 0 && tileOrder < order; // non-positive: no tiling
        long bytes = 2L * Double.BYTES * order * order;
        int blockOrder = order / numProcs;
        int colstart = blockOrder * myId;
        int colblockSize = order * blockOrder;
        int blockSize = blockOrder * blockOrder;

        // A(i,j) = A_p[(i+istart) + order*j]: this PE's column block, columns colstart.. of the matrix.
        double[] a = new double[colblockSize];
        double[] b = new double[colblockSize];
        double[] workOut = null;
        double[] workRow = null; // a column of a received block, copied out of the symmetric buffer
        SymDoubleArray[] workIn = null;
        SymIntArray recvFlag = null;
        SymIntArray sendFlag = null;
        if (numProcs > 1) {
            workOut = new double[blockSize];
            workRow = new double[blockOrder];
            recvFlag = shmem.align(Prk.ALIGNMENT, SymType.INT, numProcs - 1);
            sendFlag = shmem.align(Prk.ALIGNMENT, SymType.INT, numProcs);
            workIn = new SymDoubleArray[numProcs - 1];
            for (int i = 0; i < numProcs - 1; i++) {
                workIn[i] = shmem.align(Prk.ALIGNMENT, SymType.DOUBLE, blockSize);
            }
            for (int i = 0; i < numProcs - 1; i++) recvFlag.set(i, 0);
            for (int i = 0; i < numProcs; i++) sendFlag.set(i, 1);
        }

        for (int j = 0; j < blockOrder; j++) {
            for (int i = 0; i < order; i++) {
                a[i + order * j] = (double) ((long) order * (j + colstart) + i);
                b[i + order * j] = 0.0;
            }
        }
        shmem.barrierAll();

        double localTransTime = 0;
        for (int iter = 0; iter <= iterations; iter++) {
            if (iter == 1) { // start the timer after a warm-up iteration
                shmem.barrierAll();
                localTransTime = Prk.wtime();
            }
            // the local transpose of the diagonal block
            localBlock(a, b, order, blockOrder, colstart, tiling, tileOrder);

            for (int phase = 1; phase < numProcs; phase++) {
                int recvFrom = (myId + phase) % numProcs;
                int sendTo = (myId - phase + numProcs) % numProcs;
                toWork(a, workOut, order, blockOrder, sendTo * blockOrder, tiling, tileOrder);

                shmem.waitUntil(sendFlag, sendTo, Cmp.EQ, 1);
                sendFlag.set(sendTo, 0);
                shmem.put(workIn[phase - 1], 0, workOut, 0, blockSize, sendTo);
                shmem.fence();
                shmem.atomicInc(recvFlag, phase - 1, sendTo);
                shmem.waitUntil(recvFlag, phase - 1, Cmp.EQ, iter + 1);

                // scatter the received block into B; no need to tile
                fromWork(workIn[phase - 1], workRow, b, order, blockOrder, recvFrom * blockOrder);
                // tell the sender we are ready for the next iteration
                shmem.p(sendFlag, myId, 1, recvFrom);
            }
        }
        localTransTime = Prk.wtime() - localTransTime;

        shmem.barrierAll();
        double transTime = shmem.teamWorld().maxReduce(localTransTime);

        double abserr = 0.0;
        double addit = 0.5 * ((iterations + 1.) * (double) iterations);
        for (int j = 0; j < blockOrder; j++) {
            for (int i = 0; i < order; i++) {
                abserr += Math.abs(b[i + order * j] - (double) (((long) order * i + j + colstart) * (iterations + 1) + addit));
            }
        }
        shmem.barrierAll();
        double abserrTot = shmem.teamWorld().sumReduce(abserr);

        if (abserrTot <= EPSILON) {
            double avgtime = transTime / (double) iterations;
            if (myId == root) {
                Prk.printf("Solution validates%n");
                Prk.printf("Rate (MB/s): %f Avg time (s): %f%n", 1.0E-06 * bytes / avgtime, avgtime);
                // The Makefile passes -DVERBOSE=0, and the C code tests "#ifdef VERBOSE": printed.
                Prk.printf("Summed errors: %30.15f %n", abserrTot);
            }
        } else {
            error = 1;
            if (myId == root) {
                Prk.printf("ERROR: Aggregate squared error %30.15f exceeds threshold %30.15f%n", abserrTot, EPSILON);
            }
            System.out.flush();
            Prk.printf("ERROR: PE=%d, error = %30.15f%n", myId, abserr);
        }
        Prk.bailOut(shmem, error);

        if (numProcs > 1) {
            shmem.free(recvFlag);
            shmem.free(sendFlag);
            for (int i = 0; i < numProcs - 1; i++) {
                shmem.free(workIn[i]);
            }
        }
    }

    /** B(j,i) += A(i,j); A(i,j) += 1 over the diagonal block (istart = colstart). */
    private static void localBlock(double[] a, double[] b, int order, int bo, int istart, boolean tiling, int tile) {
        if (!tiling) {
            for (int i = 0; i < bo; i++) {
                for (int j = 0; j < bo; j++) {
                    b[j + istart + order * i] += a[i + istart + order * j];
                    a[i + istart + order * j] += 1.0;
                }
            }
        } else {
            for (int i = 0; i < bo; i += tile) {
                for (int j = 0; j < bo; j += tile) {
                    for (int it = i; it < Math.min(bo, i + tile); it++) {
                        for (int jt = j; jt < Math.min(bo, j + tile); jt++) {
                            b[jt + istart + order * it] += a[it + istart + order * jt];
                            a[it + istart + order * jt] += 1.0;
                        }
                    }
                }
            }
        }
    }

    /** Work_out(j,i) = A(i,j); A(i,j) += 1 over the block of rows istart.. (the receiver's columns). */
    private static void toWork(double[] a, double[] work, int order, int bo, int istart, boolean tiling, int tile) {
        if (!tiling) {
            for (int i = 0; i < bo; i++) {
                for (int j = 0; j < bo; j++) {
                    work[j + bo * i] = a[i + istart + order * j];
                    a[i + istart + order * j] += 1.0;
                }
            }
        } else {
            for (int i = 0; i < bo; i += tile) {
                for (int j = 0; j < bo; j += tile) {
                    for (int it = i; it < Math.min(bo, i + tile); it++) {
                        for (int jt = j; jt < Math.min(bo, j + tile); jt++) {
                            work[jt + bo * it] = a[it + istart + order * jt];
                            a[it + istart + order * jt] += 1.0;
                        }
                    }
                }
            }
        }
    }

    /** B(i,j) += Work_in(i,j) over the block of rows istart.. (the sender's columns), a column at a time through {@code row}. */
    private static void fromWork(SymDoubleArray work, double[] row, double[] b, int order, int bo, int istart) {
        for (int j = 0; j < bo; j++) {
            work.get((long) bo * j, row, 0, bo);
            for (int i = 0; i < bo; i++) {
                b[i + istart + order * j] += row[i];
            }
        }
    }
}
