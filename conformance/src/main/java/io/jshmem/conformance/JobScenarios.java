/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Small jshmem programs for the job-level tests (how the launcher ends jobs):
 * <ul>
 * <li>{@code barrier-loop SECONDS}: every PE prints {@code PID <pe> <pid>}, PE 0 prints
 *     {@code JOBID <id>}, then all loop on barrierAll for up to SECONDS (someone kills one of them);
 * <li>{@code traffic-loop SECONDS}: the same with a get from the right neighbour and a fetching
 *     atomic on PE 0 in every iteration (a killed PE's peers then also see failed gets and atomics);
 * <li>{@code global-exit PE STATUS}: PE PE calls globalExit(STATUS) while the others wait in barriers;
 * <li>{@code uncaught PE}: PE PE throws an uncaught exception while the others wait in barriers.
 * </ul>
 */
public final class JobScenarios {
    private JobScenarios() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            System.err.println("usage: JobScenarios barrier-loop SECONDS | traffic-loop SECONDS | global-exit PE STATUS | uncaught PE");
            System.exit(2);
        }
        // No try-with-resources: an uncaught exception must leave this PE without finalizing.
        Shmem shmem = Shmem.init();
        {
            int me = shmem.myPe();
            switch (args[0]) {
                case "barrier-loop" -> barrierLoop(shmem, Long.parseLong(args[1]), false);
                case "traffic-loop" -> barrierLoop(shmem, Long.parseLong(args[1]), true);
                case "global-exit" -> {
                    int who = Integer.parseInt(args[1]);
                    shmem.barrierAll();
                    if (me == who) {
                        Out.line("PE " + me + " calls globalExit(" + args[2] + ")");
                        shmem.globalExit(Integer.parseInt(args[2]));
                        Out.line("PE " + me + ": globalExit returned");
                    }
                    waitForever(shmem);
                }
                case "uncaught" -> {
                    int who = Integer.parseInt(args[1]);
                    shmem.barrierAll();
                    if (me == who) {
                        throw new IllegalStateException("deliberate uncaught exception on PE " + me);
                    }
                    waitForever(shmem);
                }
                default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
            }
        }
        shmem.close();
    }

    private static void barrierLoop(Shmem shmem, long seconds, boolean traffic) {
        int me = shmem.myPe();
        Out.line("PID " + me + " " + ProcessHandle.current().pid());
        if (me == 0) {
            Out.line("JOBID " + System.getenv("JSHMEM_JOBID"));
        }
        SymLongArray a = shmem.calloc(SymType.LONG, 1);
        SymLongArray counter = shmem.calloc(SymType.LONG, 1);
        shmem.barrierAll();
        if (me == 0) {
            Out.line("LOOPING");
        }
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long i = 0;
        // Every PE checks the clock in the same iteration pattern, so they all stop together.
        while (true) {
            shmem.p(a, 0, ++i, (me + 1) % shmem.nPes());
            if (traffic) {
                shmem.g(a, 0, (me + 1) % shmem.nPes());
                shmem.atomicFetchAdd(counter, 0, 1, 0);
            }
            shmem.barrierAll();
            if (i % 1000 == 0) {
                long stop = me == 0 && System.nanoTime() > end ? 1 : 0;
                if (me == 0) { // PE 0 decides for everyone
                    for (int pe = 0; pe < shmem.nPes(); pe++) {
                        shmem.p(a, 0, stop == 1 ? -1 : i, pe);
                    }
                }
                shmem.barrierAll();
                if (a.get(0) == -1) {
                    break;
                }
                shmem.barrierAll();
            }
        }
        Out.line("PE " + me + " finished the barrier loop");
    }

    /** Waits in barriers until the job is ended from outside (bounded, in case nothing ends it). */
    private static void waitForever(Shmem shmem) throws InterruptedException {
        long end = System.nanoTime() + 120_000_000_000L;
        while (System.nanoTime() < end) {
            shmem.barrierAll();
            Thread.sleep(10);
        }
    }
}
