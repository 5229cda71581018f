/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The report test's job (4 PEs), with outcomes known in advance: {@value #BARRIERS} barriers, before
 * the first {@value #LATE_BY_2} of which PE 2 sleeps and before the others PE 1; puts of
 * {@value #PUT_BYTES} bytes, {@value #PUTS} times to the right neighbour, and one get of
 * {@value #GET_BYTES} bytes from the PE two places on; {@value #REDUCTIONS} sum reductions and a lock.
 * These are its only barriers, so PE 2 is last at exactly LATE_BY_2 of BARRIERS.
 */
public final class ReportJob {
    static final int BARRIERS = 20;
    static final int LATE_BY_2 = 15;
    /** Long enough that no other PE arrives later on a loaded machine. */
    static final long SLEEP_MS = 200;
    static final int PUTS = 3;
    static final long PUT_BYTES = 128 * 1024;
    static final long GET_BYTES = 256 * 1024;
    static final int REDUCTIONS = 3;

    private ReportJob() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length > 0 && args[0].equals("halt")) {
            halt();
            return;
        }
        try (Shmem shmem = Shmem.init(); Arena arena = Arena.ofConfined()) {
            int me = shmem.myPe();
            int npes = shmem.nPes();
            SymLongArray buffer = shmem.calloc(SymType.LONG, GET_BYTES / 8);
            SymLongArray lock = shmem.calloc(SymType.LONG, 1);
            SymLongArray entering = shmem.calloc(SymType.LONG, 1);
            SymLongArray sums = shmem.calloc(SymType.LONG, 1);
            SymLongArray ones = shmem.calloc(SymType.LONG, 1);
            MemorySegment out = arena.allocate(PUT_BYTES);
            MemorySegment in = arena.allocate(GET_BYTES);
            for (int i = 0; i < PUTS; i++) {
                shmem.put(buffer, 0, out, (me + 1) % npes);
            }
            shmem.get(in, buffer, 0, (me + 2) % npes);
            // The late PE waits until the others say they are entering the barrier, then sleeps: a PE
            // that the loaded machine stalls before it gets there cannot arrive after it.
            long[] signals = new long[npes];
            for (int b = 0; b < BARRIERS; b++) {
                int late = b < LATE_BY_2 ? 2 : 1;
                if (me == late) {
                    signals[me] += npes - 1;
                    shmem.waitUntil(entering, 0, Cmp.GE, signals[me]);
                    Thread.sleep(SLEEP_MS);
                } else {
                    shmem.atomicInc(entering, 0, late);
                }
                shmem.barrierAll();
            }
            ones.set(0, 1);
            for (int r = 0; r < REDUCTIONS; r++) {
                shmem.teamWorld().sumReduce(sums, ones, 1);
            }
            if (sums.get(0) != npes) {
                throw new IllegalStateException("PE " + me + ": sum_reduce gave " + sums.get(0) + ", not " + npes);
            }
            shmem.setLock(lock, 0);
            shmem.clearLock(lock, 0);
            shmem.quiet();
        }
    }

    /** A failed job: after a barrier PE 1 halts (status 3) without writing its recording. */
    private static void halt() {
        Shmem shmem = Shmem.init();
        shmem.barrierAll();
        if (shmem.myPe() == 1) {
            Runtime.getRuntime().halt(3);
        }
        shmem.barrierAll(); // the others wait here until oshrun ends the job
        shmem.close();
    }
}
