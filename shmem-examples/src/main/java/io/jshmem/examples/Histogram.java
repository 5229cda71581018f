/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.examples;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.SplittableRandom;

/**
 * A distributed histogram: the bins are spread over the PEs (bin b lives on PE b % nPes) and
 * every PE counts its samples with remote atomic increments. Each PE then checks its own bins
 * against a recount of every PE's (seeded, reproducible) samples, and a sum reduction checks the
 * total.
 *
 * <p>Arguments: [samples per PE (default 100000)] [bins (default 64)].
 */
public final class Histogram {
    public static void main(String[] args) {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int bins = args.length > 1 ? Integer.parseInt(args[1]) : 64;
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            int perPe = (bins + n - 1) / n;
            SymLongArray counts = shmem.calloc(SymType.LONG, perPe);
            SplittableRandom rnd = new SplittableRandom(1000 + me);
            for (int i = 0; i < samples; i++) {
                int b = bin(rnd, bins);
                shmem.atomicInc(counts, b / n, b % n);
            }
            shmem.barrierAll();

            long[] expected = new long[bins];
            for (int pe = 0; pe < n; pe++) {
                SplittableRandom r = new SplittableRandom(1000 + pe);
                for (int i = 0; i < samples; i++) {
                    expected[bin(r, bins)]++;
                }
            }
            int wrong = 0;
            for (int b = me; b < bins; b += n) {
                if (counts.get(b / n) != expected[b]) {
                    wrong++;
                }
            }
            SymLongArray mine = shmem.calloc(SymType.LONG, 1);
            SymLongArray total = shmem.calloc(SymType.LONG, 1);
            for (int k = 0; k < perPe; k++) {
                mine.set(0, mine.get(0) + counts.get(k));
            }
            shmem.teamWorld().sumReduce(total, mine, 1);
            if (me == 0) {
                StringBuilder sb = new StringBuilder("histogram of " + (long) samples * n + " samples in " + bins + " bins:\n");
                for (int b = 0; b < bins; b++) {
                    long c = shmem.g(counts, b / n, b % n);
                    sb.append(String.format("%3d %7d %s%n", b, c, "#".repeat((int) (c * 40 / Math.max(1, expected[bins / 2])))));
                }
                System.out.print(sb);
            }
            boolean ok = wrong == 0 && total.get(0) == (long) samples * n;
            System.out.println("PE " + me + ": " + (ok ? "bins and total correct" : wrong + " bins WRONG, total " + total.get(0)));
            shmem.barrierAll();
            if (!ok) {
                shmem.globalExit(1);
            }
        }
    }

    /** Roughly normal: the sum of four uniform numbers, scaled to the bins. */
    private static int bin(SplittableRandom r, int bins) {
        double v = (r.nextDouble() + r.nextDouble() + r.nextDouble() + r.nextDouble()) / 4;
        return Math.min(bins - 1, (int) (v * bins));
    }
}
