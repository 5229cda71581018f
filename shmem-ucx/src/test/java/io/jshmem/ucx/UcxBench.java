/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import io.jshmem.Shmem;
import io.jshmem.SymByteArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * A measurement, not a test: PE 0 drives, PE 1 is the target and waits in a barrier (as the
 * OSHMEM figures in the notes were taken). Prints the median and best per-operation time over
 * repetitions for 8-byte put+quiet, get, fetch_add, and 1 MiB put+quiet / get bandwidth.
 *
 * <pre>bin/oshrun -np 2 -x SHMEM_TRANSPORT=ucx -x UCX_TLS=tcp,self -cp shmem-ucx/target/test-classes io.jshmem.ucx.UcxBench [reps]</pre>
 */
public final class UcxBench {
    public static void main(String[] args) {
        int reps = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
            int me = shmem.myPe();
            int mib = 1 << 20;
            SymLongArray word = shmem.calloc(SymType.LONG, 8);
            SymByteArray big = shmem.calloc(SymType.BYTE, mib);
            MemorySegment small = arena.allocate(8, 8);
            MemorySegment local = arena.allocate(mib, 4096);
            byte[] array = new byte[mib];
            run(shmem, "put 8 B + quiet", reps, 2000, 1, i -> {
                shmem.putmem(word, 0, small, 1);
                shmem.quiet();
            });
            run(shmem, "get 8 B", reps, 2000, 1, i -> shmem.getmem(small, word, 0, 1));
            run(shmem, "p 8 B + quiet", reps, 2000, 1, i -> {
                shmem.p(word, 0, i, 1);
                shmem.quiet();
            });
            run(shmem, "g 8 B", reps, 2000, 1, i -> shmem.g(word, 0, 1));
            run(shmem, "fetch_add 8 B", reps, 2000, 1, i -> shmem.atomicFetchAdd(word, 1, 1, 1));
            run(shmem, "add 8 B + quiet", reps, 2000, 1, i -> {
                shmem.atomicAdd(word, 1, 1, 1);
                shmem.quiet();
            });
            run(shmem, "put 1 MiB + quiet (native)", reps, 30, mib, i -> {
                shmem.putmem(big, 0, local, 1);
                shmem.quiet();
            });
            run(shmem, "get 1 MiB (native)", reps, 30, mib, i -> shmem.getmem(local, big, 0, 1));
            run(shmem, "put 1 MiB + quiet (byte[])", reps, 30, mib, i -> {
                shmem.put(big, 0, array, 0, mib, 1);
                shmem.quiet();
            });
            run(shmem, "get 1 MiB (byte[])", reps, 30, mib, i -> shmem.get(array, 0, big, 0, mib, 1));
            if (me == 0) {
                System.out.flush();
            }
        }
    }

    private static void run(Shmem shmem, String name, int reps, int iters, long bytes, LongConsumer op) {
        int me = shmem.myPe();
        double[] us = new double[reps];
        for (int r = -2; r < reps; r++) { // two warm-up repetitions
            shmem.barrierAll();
            if (me == 0) {
                long t0 = System.nanoTime();
                for (int i = 0; i < iters; i++) {
                    op.accept(i);
                }
                long t = System.nanoTime() - t0;
                if (r >= 0) {
                    us[r] = t / 1e3 / iters;
                }
            }
            shmem.barrierAll();
        }
        if (me == 0) {
            Arrays.sort(us);
            double median = us[reps / 2];
            String extra = bytes > 1 ? String.format("  %.3f GB/s (best %.3f)", bytes / median / 1e3, bytes / us[0] / 1e3) : "";
            System.out.printf("%-28s median %9.2f us  best %9.2f us%s%n", name, median, us[0], extra);
        }
    }
}
