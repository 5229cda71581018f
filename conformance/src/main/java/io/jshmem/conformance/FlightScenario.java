/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A job that makes one of each kind of jshmem flight-recorder event, for FlightRecordingTest (run
 * with {@code oshrun --jfr}): a barrier, a team sync, an 8-long broadcast and a 4-long sum
 * reduction on the world team, a lock, a wait that has to wait, quiet, fence, a 128 KiB put and
 * symmetric allocations.
 */
public final class FlightScenario {
    private FlightScenario() {
    }

    /** With the argument {@code exit-without-close} main returns without close(): finalize happens at exit. */
    public static void main(String[] args) {
        Shmem shmem = Shmem.init();
        events(shmem);
        if (args.length == 0 || !args[0].equals("exit-without-close")) {
            shmem.close();
        }
    }

    private static void events(Shmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        SymLongArray src = shmem.calloc(SymType.LONG, 8);
        SymLongArray dst = shmem.calloc(SymType.LONG, 8);
        SymLongArray lock = shmem.calloc(SymType.LONG, 1);
        SymLongArray flag = shmem.calloc(SymType.LONG, 1);
        SymLongArray big = shmem.malloc(SymType.LONG, 16384);
        shmem.barrierAll();
        shmem.teamWorld().sync();
        shmem.teamWorld().broadcast(dst, src, 8, 0);
        shmem.teamWorld().sumReduce(dst, src, 4);
        // PE 1 tells PE 0 it is about to wait; PE 0 answers 200 ms later, so PE 1's wait lasts
        // about that long whatever delayed either PE before (only the few instructions between
        // PE 1's p and its wait could shorten it).
        if (me == 0 && n > 1) {
            shmem.waitUntil(flag, 0, Cmp.EQ, 2L);
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            shmem.p(flag, 0, 1L, 1);
        }
        if (me == 1) {
            shmem.p(flag, 0, 2L, 0);
            shmem.waitUntil(flag, 0, Cmp.EQ, 1L);
        }
        shmem.setLock(lock, 0);
        shmem.clearLock(lock, 0);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment block = arena.allocate(big.byteSize(), 8);
            shmem.put(big, 0, block, (me + 1) % n);
        }
        shmem.fence();
        shmem.quiet();
        shmem.barrierAll();
        shmem.free(big);
        Out.line("DONE " + me);
    }
}
