/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.examples;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemTeam;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymType;
import io.jshmem.TeamPair;

/**
 * 2-D heat diffusion (Jacobi) on a grid of PEs made by split_2d. Each PE owns a block with a halo
 * of one cell; every step it puts its edge rows and columns into the neighbours' halos through
 * contexts on its row team (x) and column team (y), so neighbours are addressed by team PE
 * numbers. The result is checked against a serial computation of the whole grid.
 *
 * <p>Arguments: [grid size (default 96)] [steps (default 200)].
 */
public final class Heat2D {
    public static void main(String[] args) {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 96;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        try (Shmem shmem = Shmem.init()) {
            int n = shmem.nPes();
            int px = 1;
            for (int d = 1; d * d <= n; d++) {
                if (n % d == 0) {
                    px = d;
                }
            }
            int py = n / px;
            TeamPair grid = shmem.teamWorld().split2d(px, null, 0, null, 0);
            ShmemTeam row = grid.xTeam();
            ShmemTeam col = grid.yTeam();
            int x = row.myPe();
            int y = col.myPe();
            int x0 = x * size / px;
            int w = (x + 1) * size / px - x0;
            int y0 = y * size / py;
            int h = (y + 1) * size / py - y0;
            int stride = size / px + 3; // widest block + 2 halo columns, the same on every PE
            int rows = size / py + 3;
            SymDoubleArray u = shmem.calloc(SymType.DOUBLE, (long) stride * rows);
            SymDoubleArray next = shmem.calloc(SymType.DOUBLE, (long) stride * rows);
            for (int i = 1; i <= h; i++) {
                for (int j = 1; j <= w; j++) {
                    u.set((long) i * stride + j, initial(y0 + i - 1, x0 + j - 1, size));
                }
            }
            try (ShmemContext xc = row.createCtx(0); ShmemContext yc = col.createCtx(0)) {
                double[] edge = new double[Math.max(w, h)];
                for (int s = 0; s < steps; s++) {
                    shmem.barrierAll(); // neighbours are done reading their halos
                    if (x > 0) { // my first column -> left neighbour's right halo column
                        column(u, stride, 1, h, edge);
                        int lw = x * size / px - (x - 1) * size / px;
                        xc.iput(u, stride + lw + 1, stride, edge, 0, 1, h, x - 1);
                    }
                    if (x < px - 1) { // my last column -> right neighbour's left halo column
                        column(u, stride, w, h, edge);
                        xc.iput(u, stride, stride, edge, 0, 1, h, x + 1);
                    }
                    if (y > 0) { // my first row -> upper neighbour's bottom halo row
                        int uh = y * size / py - (y - 1) * size / py;
                        yc.put(u, (long) (uh + 1) * stride + 1, rowOf(u, stride, 1, w, edge), 0, w, y - 1);
                    }
                    if (y < py - 1) { // my last row -> lower neighbour's top halo row
                        yc.put(u, 1, rowOf(u, stride, h, w, edge), 0, w, y + 1);
                    }
                    xc.quiet();
                    yc.quiet();
                    shmem.barrierAll(); // halos complete everywhere
                    for (int i = 1; i <= h; i++) {
                        for (int j = 1; j <= w; j++) {
                            long c = (long) i * stride + j;
                            next.set(c, 0.25 * (u.get(c - 1) + u.get(c + 1) + u.get(c - stride) + u.get(c + stride)));
                        }
                    }
                    SymDoubleArray t = u;
                    u = next;
                    next = t;
                }
            }
            double[][] ref = serial(size, steps);
            double maxErr = 0;
            for (int i = 1; i <= h; i++) {
                for (int j = 1; j <= w; j++) {
                    maxErr = Math.max(maxErr, Math.abs(u.get((long) i * stride + j) - ref[y0 + i - 1][x0 + j - 1]));
                }
            }
            boolean ok = maxErr < 1e-12;
            // One println per line: PEs share the output stream, and a line must not be split.
            System.out.println(String.format("PE %d: block (%d,%d) of %dx%d grid, %d steps, max error vs serial %.1e %s",
                    shmem.myPe(), x, y, px, py, steps, maxErr, ok ? "OK" : "WRONG"));
            if (!ok) {
                shmem.globalExit(1);
            }
            row.close();
            col.close();
        }
    }

    private static double initial(int i, int j, int size) {
        return Math.abs(i - size / 2) < size / 8 && Math.abs(j - size / 3) < size / 8 ? 100.0 : 0.0;
    }

    private static void column(SymDoubleArray u, int stride, int j, int h, double[] out) {
        for (int i = 1; i <= h; i++) {
            out[i - 1] = u.get((long) i * stride + j);
        }
    }

    private static double[] rowOf(SymDoubleArray u, int stride, int i, int w, double[] out) {
        for (int j = 1; j <= w; j++) {
            out[j - 1] = u.get((long) i * stride + j);
        }
        return out;
    }

    /** The same computation on one PE, with a zero boundary around the grid. */
    private static double[][] serial(int size, int steps) {
        double[][] a = new double[size + 2][size + 2];
        double[][] b = new double[size + 2][size + 2];
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                a[i + 1][j + 1] = initial(i, j, size);
            }
        }
        for (int s = 0; s < steps; s++) {
            for (int i = 1; i <= size; i++) {
                for (int j = 1; j <= size; j++) {
                    b[i][j] = 0.25 * (a[i][j - 1] + a[i][j + 1] + a[i - 1][j] + a[i + 1][j]);
                }
            }
            double[][] t = a;
            a = b;
            b = t;
        }
        double[][] out = new double[size][size];
        for (int i = 0; i < size; i++) {
            System.arraycopy(a[i + 1], 1, out[i], 0, size);
        }
        return out;
    }
}
