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
 * Monte Carlo estimate of pi: every PE throws darts and adds its hits to a counter on PE 0 with
 * an atomic add; PE 0 prints the estimate.
 */
public final class Pi {
    public static void main(String[] args) {
        long dartsPerPe = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
        try (Shmem shmem = Shmem.init()) {
            SymLongArray counts = shmem.calloc(SymType.LONG, 2); // [hits, darts]
            SplittableRandom rnd = new SplittableRandom(42 + shmem.myPe());
            long hits = 0;
            for (long i = 0; i < dartsPerPe; i++) {
                double x = rnd.nextDouble();
                double y = rnd.nextDouble();
                if (x * x + y * y <= 1.0) {
                    hits++;
                }
            }
            shmem.atomicAdd(counts, 0, hits, 0);
            shmem.atomicAdd(counts, 1, dartsPerPe, 0);
            shmem.barrierAll();
            if (shmem.myPe() == 0) {
                double pi = 4.0 * counts.get(0) / counts.get(1);
                System.out.println(String.format("pi ~= %.6f from %d darts on %d PEs (error %.2e)", pi, counts.get(1), shmem.nPes(),
                        Math.abs(pi - Math.PI)));
            }
        }
    }
}
