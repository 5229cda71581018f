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
 * The Parallel Research Kernels' SHMEM Stencil ({@code SHMEM/Stencil/stencil.c}) in Java, built as
 * its Makefile's defaults build it: double precision, star stencil of radius 2, compact loop
 * body, one fence for all four halo puts. A 2-D grid of PEs; each iteration every PE puts its
 * edge rows and columns into its neighbours' double-buffered symmetric halo buffers, increments
 * their flag, waits for its own flag to count all neighbours, unpacks the halos and applies the
 * stencil. Timed from the second iteration on; verified by the L1 norm of the result.
 *
 * <p>Usage (the original's): {@code Stencil <# iterations> <array dimension>}.
 *
 * <p>The port keeps the original's quirks that affect the work done: a tile's width and height
 * count one column and row more than it owns (the C code's {@code iend - istart + 1} with an
 * exclusive {@code iend}), and the halo loops run over them. The outgoing halo buffers are plain
 * Java arrays (the C code allocates them on the symmetric heap, but only ever uses them as a
 * put's local source, which {@code put} accepts from any array).
 */
public final class Stencil {
    static final int RADIUS = 2;
    private static final double EPSILON = 1.e-8;
    private static final double COEFX = 1.0;
    private static final double COEFY = 1.0;

    private Stencil() {
    }

    public static void main(String[] args) {
        Prk.exit(Prk.run(shmem -> stencil(shmem, args)));
    }

    private static void stencil(Shmem shmem, String[] argv) {
        final int root = 0;
        int myId = shmem.myPe();
        int numProcs = shmem.nPes();
        SymIntArray arguments = shmem.align(Prk.ALIGNMENT, SymType.INT, 2);
        SymIntArray received = shmem.align(Prk.ALIGNMENT, SymType.INT, 2);
        int iterations = 0;
        int n = 0;
        int error = 0;

        if (myId == root) {
            // goto ENDOFTESTS: the first failed check ends the tests.
            tests:
            {
                if (argv.length != 2) {
                    Prk.printf("Usage: %s <# iterations> <array dimension> %n", Stencil.class.getName());
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
                n = Prk.atoi(argv[1]);
                arguments.set(1, n);
                long nsquare = (long) n * (long) n;
                if (nsquare < numProcs) {
                    Prk.printf("ERROR: grid size must be at least # ranks: %d%n", nsquare);
                    error = 1;
                    break tests;
                }
                if (2 * RADIUS + 1 > n) {
                    Prk.printf("ERROR: Stencil radius %d exceeds grid size %d%n", RADIUS, n);
                    error = 1;
                    break tests;
                }
            }
        }
        Prk.bailOut(shmem, error);

        int[] f = Prk.factor(numProcs);
        int numProcsx = f[0];
        int numProcsy = f[1];
        int myIdx = myId % numProcsx;
        int myIdy = myId / numProcsx;
        int rightNbr = myId + 1;
        int leftNbr = myId - 1;
        int topNbr = myId + numProcsx;
        int bottomNbr = myId - numProcsx;
        SymIntArray iterflag = shmem.align(Prk.ALIGNMENT, SymType.INT, 2);
        iterflag.set(0, 0);
        iterflag.set(1, 0);
        int countCase = 4;
        if (myIdx == 0) countCase--;
        if (myIdx == numProcsx - 1) countCase--;
        if (myIdy == 0) countCase--;
        if (myIdy == numProcsy - 1) countCase--;

        if (myId == root) {
            Prk.printf("Parallel Research Kernels version %s%n", Prk.VERSION);
            Prk.printf("SHMEM stencil execution on 2D grid%n");
            Prk.printf("Number of ranks        = %d%n", numProcs);
            Prk.printf("Grid size              = %d%n", n);
            Prk.printf("Radius of stencil      = %d%n", RADIUS);
            Prk.printf("Tiles in x/y-direction = %d/%d%n", numProcsx, numProcsy);
            Prk.printf("Type of stencil        = star%n");
            Prk.printf("Data type              = double precision%n");
            Prk.printf("Compact representation of stencil loop body%n");
            Prk.printf("Split fence            = OFF%n");
            Prk.printf("Number of iterations   = %d%n", iterations);
        }

        shmem.teamWorld().broadcast(received, arguments, 2, root);
        shmem.barrierAll();
        iterations = received.get(0);
        n = received.get(1);
        shmem.barrierAll();
        shmem.free(received);
        shmem.free(arguments);

        int[] xs = split(n, numProcsx, myIdx);
        int istart = xs[0];
        int iend = xs[1];
        int width = iend - istart + 1;
        if (width == 0) {
            Prk.printf("ERROR: rank %d has no work to do%n", myId);
            error = 1;
        }
        Prk.bailOut(shmem, error);

        int[] ys = split(n, numProcsy, myIdy);
        int jstart = ys[0];
        int jend = ys[1];
        int height = jend - jstart + 1;
        // (The C program's "height == 0" test compares a pointer and never fires: left out.)
        Prk.bailOut(shmem, error);

        if (width < RADIUS || height < RADIUS) {
            Prk.printf("ERROR: rank %d has work tile smaller then stencil radius%n", myId);
            error = 1;
        }
        Prk.bailOut(shmem, error);

        Tile t = new Tile(n, istart, iend, jstart, jend, width, height);
        Prk.bailOut(shmem, error);

        // C: shmem_int_max_to_all through two symmetric ints; here the team's scalar reduction.
        int maxwidth = shmem.teamWorld().maxReduce(width);
        int maxheight = shmem.teamWorld().maxReduce(height);

        double fActivePoints = (double) (n - 2 * RADIUS) * (double) (n - 2 * RADIUS);
        t.init(COEFX, COEFY);

        // Outgoing halos: local arrays (see the class comment). Incoming: one symmetric block per
        // direction pair, [top_in[0] | top_in[1] | bottom_in[0] | bottom_in[1]] as in C.
        double[] topBufOut = new double[RADIUS * maxwidth];
        double[] bottomBufOut = new double[RADIUS * maxwidth];
        SymDoubleArray yBufIn = shmem.align(Prk.ALIGNMENT, SymType.DOUBLE, 4L * RADIUS * maxwidth);
        long[] topBufIn = {0, (long) RADIUS * maxwidth};
        long[] bottomBufIn = {2L * RADIUS * maxwidth, 3L * RADIUS * maxwidth};
        double[] rightBufOut = new double[RADIUS * maxheight];
        double[] leftBufOut = new double[RADIUS * maxheight];
        SymDoubleArray xBufIn = shmem.align(Prk.ALIGNMENT, SymType.DOUBLE, 4L * RADIUS * maxheight);
        long[] rightBufIn = {0, (long) RADIUS * maxheight};
        long[] leftBufIn = {2L * RADIUS * maxheight, 3L * RADIUS * maxheight};

        shmem.barrierAll(); // all symmetric buffers exist before anyone puts into them

        double localStencilTime = 0;
        for (int iter = 0; iter <= iterations; iter++) {
            if (iter == 1) { // start the timer after a warm-up iteration
                shmem.barrierAll();
                localStencilTime = Prk.wtime();
            }
            int sw = iter % 2; // which incoming buffer

            if (myIdy < numProcsy - 1) {
                t.packRows(jend - RADIUS, topBufOut);
                shmem.put(yBufIn, bottomBufIn[sw], topBufOut, 0, RADIUS * width, topNbr);
            }
            if (myIdy > 0) {
                t.packRows(jstart, bottomBufOut);
                shmem.put(yBufIn, topBufIn[sw], bottomBufOut, 0, RADIUS * width, bottomNbr);
            }
            if (myIdx < numProcsx - 1) {
                t.packColumns(iend - RADIUS, rightBufOut);
                shmem.put(xBufIn, leftBufIn[sw], rightBufOut, 0, RADIUS * height, rightNbr);
            }
            if (myIdx > 0) {
                t.packColumns(istart, leftBufOut);
                shmem.put(xBufIn, rightBufIn[sw], leftBufOut, 0, RADIUS * height, leftNbr);
            }

            shmem.fence(); // SPLITFENCE=0: one fence orders all four puts before the flags
            if (myIdy < numProcsy - 1) shmem.atomicInc(iterflag, sw, topNbr);
            if (myIdy > 0) shmem.atomicInc(iterflag, sw, bottomNbr);
            if (myIdx < numProcsx - 1) shmem.atomicInc(iterflag, sw, rightNbr);
            if (myIdx > 0) shmem.atomicInc(iterflag, sw, leftNbr);

            shmem.waitUntil(iterflag, sw, Cmp.EQ, countCase * (iter / 2 + 1));

            if (myIdy < numProcsy - 1) t.unpackRows(jend, yBufIn, topBufIn[sw]);
            if (myIdy > 0) t.unpackRows(jstart - RADIUS, yBufIn, bottomBufIn[sw]);
            if (myIdx < numProcsx - 1) t.unpackColumns(iend, xBufIn, rightBufIn[sw]);
            if (myIdx > 0) t.unpackColumns(istart - RADIUS, xBufIn, leftBufIn[sw]);

            t.apply();
            t.addOne(); // forces a refresh of the neighbours' data, if any
        }
        localStencilTime = Prk.wtime() - localStencilTime;

        shmem.barrierAll();
        double stencilTime = shmem.teamWorld().maxReduce(localStencilTime);
        double localNorm = t.norm();
        shmem.barrierAll();
        double norm = shmem.teamWorld().sumReduce(localNorm);

        if (myId == root) {
            norm /= fActivePoints;
            double referenceNorm = (iterations + 1) * (COEFX + COEFY);
            if (Math.abs(norm - referenceNorm) > EPSILON) {
                Prk.printf("ERROR: L1 norm = %f, Reference L1 norm = %f%n", norm, referenceNorm);
                error = 1;
            } else {
                Prk.printf("Solution validates%n");
            }
        }
        Prk.bailOut(shmem, error);

        if (myId == root) {
            // flops/stencil: 2 (fma) per stencil point, plus one for the update of the input
            double flops = (2 * (4 * RADIUS + 1) + 1) * fActivePoints;
            double avgtime = stencilTime / iterations;
            Prk.printf("Rate (MFlops/s): %f  Avg time (s): %f%n", 1.0E-06 * flops / avgtime, avgtime);
        }
        shmem.free(xBufIn);
        shmem.free(yBufIn);
        shmem.free(iterflag);
    }

    /**
     * The tile of coordinate {@code id} of {@code parts} along a side of {@code n} points:
     * {start, end} with end exclusive, the first {@code n % parts} tiles one point wider.
     */
    private static int[] split(int n, int parts, int id) {
        int size = n / parts;
        int leftover = n % parts;
        int start = id < leftover ? (size + 1) * id : (size + 1) * leftover + size * (id - leftover);
        int end = id < leftover ? start + size + 1 : start + size;
        return new int[] {start, end};
    }

    /**
     * One PE's tile: the private input array with a ghost frame of RADIUS cells ({@code IN(i,j)})
     * and the output array ({@code OUT(i,j)}), indexed by global coordinates as in C.
     */
    private static final class Tile {
        final int n;
        final int istart;
        final int iend;
        final int jstart;
        final int jend;
        final int width;
        final int height;
        final int inStride;
        final double[] in;
        final double[] out;
        final double[] weight = new double[(2 * RADIUS + 1) * (2 * RADIUS + 1)];

        Tile(int n, int istart, int iend, int jstart, int jend, int width, int height) {
            this.n = n;
            this.istart = istart;
            this.iend = iend;
            this.jstart = jstart;
            this.jend = jend;
            this.width = width;
            this.height = height;
            this.inStride = width + 2 * RADIUS;
            this.in = new double[inStride * (height + 2 * RADIUS)];
            this.out = new double[width * height];
            // a discrete divergence operator: star weights +-1/(2 ii R) on the axes
            for (int ii = 1; ii <= RADIUS; ii++) {
                weight[w(0, ii)] = weight[w(ii, 0)] = 1.0 / (2.0 * ii * RADIUS);
                weight[w(0, -ii)] = weight[w(-ii, 0)] = -(1.0 / (2.0 * ii * RADIUS));
            }
        }

        /** WEIGHT(ii,jj): weight[ii+RADIUS][jj+RADIUS]. */
        private static int w(int ii, int jj) {
            return (ii + RADIUS) * (2 * RADIUS + 1) + jj + RADIUS;
        }

        /** IN(i,j) with global i, j. */
        int in(int i, int j) {
            return i - istart + RADIUS + (j - jstart + RADIUS) * inStride;
        }

        /** OUT(i,j) with global i, j. */
        int out(int i, int j) {
            return i - istart + (j - jstart) * width;
        }

        void init(double coefx, double coefy) {
            for (int j = jstart; j < jend; j++) {
                for (int i = istart; i < iend; i++) {
                    in[in(i, j)] = coefx * i + coefy * j;
                    out[out(i, j)] = 0.0;
                }
            }
        }

        /** RADIUS rows from row j0, columns istart..iend, into buf. */
        void packRows(int j0, double[] buf) {
            int kk = 0;
            for (int j = j0; j <= j0 + RADIUS - 1; j++) {
                System.arraycopy(in, in(istart, j), buf, kk, width);
                kk += width;
            }
        }

        /** RADIUS columns from column i0, rows jstart..jend, into buf (row by row). */
        void packColumns(int i0, double[] buf) {
            int kk = 0;
            for (int j = jstart; j <= jend; j++) {
                for (int i = i0; i <= i0 + RADIUS - 1; i++) {
                    buf[kk++] = in[in(i, j)];
                }
            }
        }

        /** RADIUS rows from row j0 (columns istart..iend) out of the symmetric buffer at element off. */
        void unpackRows(int j0, SymDoubleArray buf, long off) {
            long kk = off;
            for (int j = j0; j <= j0 + RADIUS - 1; j++) {
                buf.get(kk, in, in(istart, j), width);
                kk += width;
            }
        }

        /**
         * RADIUS columns from column i0 (rows jstart..jend) out of the symmetric buffer at element
         * off: per row, RADIUS consecutive elements of both.
         */
        void unpackColumns(int i0, SymDoubleArray buf, long off) {
            long kk = off;
            for (int j = jstart; j <= jend; j++) {
                buf.get(kk, in, in(i0, j), RADIUS);
                kk += RADIUS;
            }
        }

        /** The compact star stencil over this tile's part of the interior. */
        void apply() {
            for (int j = Math.max(jstart, RADIUS); j <= Math.min(n - RADIUS - 1, jend); j++) {
                for (int i = Math.max(istart, RADIUS); i <= Math.min(n - RADIUS - 1, iend); i++) {
                    int o = out(i, j);
                    int c = in(i, j);
                    for (int jj = -RADIUS; jj <= RADIUS; jj++) out[o] += weight[w(0, jj)] * in[c + jj * inStride];
                    for (int ii = -RADIUS; ii < 0; ii++) out[o] += weight[w(ii, 0)] * in[c + ii];
                    for (int ii = 1; ii <= RADIUS; ii++) out[o] += weight[w(ii, 0)] * in[c + ii];
                }
            }
        }

        void addOne() {
            for (int j = jstart; j < jend; j++) {
                for (int i = istart; i < iend; i++) {
                    in[in(i, j)] += 1.0;
                }
            }
        }

        /** This tile's part of the L1 norm of the interior. */
        double norm() {
            double s = 0.0;
            for (int j = Math.max(jstart, RADIUS); j < Math.min(n - RADIUS, jend); j++) {
                for (int i = Math.max(istart, RADIUS); i < Math.min(n - RADIUS, iend); i++) {
                    s += Math.abs(out[out(i, j)]);
                }
            }
            return s;
        }
    }
}
