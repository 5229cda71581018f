/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.List;

/** Ordering and completion: fence, quiet, peQuiet, barrierAll, syncAll, and a long barrier loop. */
final class OrderingCases {
    /** Iterations of the barrier loop. */
    static final int BARRIER_LOOP = 10_000;

    private OrderingCases() {
    }

    static List<Case> cases() {
        return List.of(
                Case.of("order.fence", c -> streamOrdering(c, Mode.FENCE)),
                Case.of("order.quiet", c -> streamOrdering(c, Mode.QUIET)),
                Case.of("order.pe-quiet", c -> streamOrdering(c, Mode.PE_QUIET)),
                Case.of("order.fence-per-context", OrderingCases::fencePerContext),
                Case.of("order.quiet-across-contexts", OrderingCases::quietAcrossContexts),
                Case.of("order.quiet-completes-nbi", OrderingCases::quietCompletesNbi),
                Case.of("order.barrier-visibility", OrderingCases::barrierVisibility),
                Case.of("order.sync-all", OrderingCases::syncAll),
                Case.of("order.barrier-loop", OrderingCases::barrierLoop));
    }

    enum Mode { FENCE, QUIET, PE_QUIET }

    /**
     * Each PE streams rounds to its right neighbour: data (put or putNbi), then an ordering call,
     * then the round number in a flag (p). The receiver reads the flag, then the data: the data
     * must never be older than the flag says. Interleaved so that reads happen while rounds arrive.
     */
    static void streamOrdering(CaseContext c, Mode mode) {
        Shmem s = c.shmem;
        int rounds = 2000;
        int n = 16;
        SymLongArray data = c.calloc(SymType.LONG, n);
        SymLongArray flag = c.calloc(SymType.LONG, 1);
        long[][] blocks = new long[rounds + 1][];
        s.barrierAll();
        int r = c.right();
        int violations = 0;
        long lastSeen = 0;
        long flagWentBack = 0;
        for (int round = 1; round <= rounds; round++) {
            long[] block = new long[n];
            java.util.Arrays.fill(block, round);
            blocks[round] = block; // the nbi source stays untouched until completed
            switch (mode) {
                case FENCE -> {
                    s.put(data, 0, block, 0, n, r);
                    s.fence();
                }
                case QUIET -> {
                    s.putNbi(data, 0, block, 0, n, r);
                    s.quiet();
                }
                case PE_QUIET -> {
                    s.putNbi(data, 0, block, 0, n, r);
                    s.peQuiet(r);
                }
            }
            s.p(flag, 0, round, r);
            long f = s.g(flag, 0, c.me);
            violations += checkData(c, data, f, n);
            if (f < lastSeen) {
                flagWentBack++;
            }
            lastSeen = f;
        }
        s.waitUntil(flag, 0, Cmp.EQ, rounds);
        violations += checkData(c, data, rounds, n);
        c.check(violations == 0, mode + ": " + violations + " times the data read after the flag was older than the flag");
        c.check(flagWentBack == 0, mode + ": the flag went backwards " + flagWentBack + " times");
        // peQuiet with no PE, and with every PE, are fine.
        s.peQuiet();
        int[] everyone = new int[c.npes];
        for (int pe = 0; pe < c.npes; pe++) {
            everyone[pe] = pe;
        }
        s.peQuiet(everyone);
        s.barrierAll();
    }

    /**
     * Fence orders the operations of its own context (1.5 errata): two contexts stream
     * interleaved rounds to the right neighbour, each data then its own fence then its own flag
     * (a put on one, an atomic set on the other). Each stream's data is never older than its
     * flag. Nothing is asserted about order between the two contexts, which the spec leaves open.
     */
    static void fencePerContext(CaseContext c) {
        Shmem s = c.shmem;
        int rounds = 1000;
        int n = 8;
        SymLongArray dataA = c.calloc(SymType.LONG, n);
        SymLongArray dataB = c.calloc(SymType.LONG, n);
        SymLongArray flags = c.calloc(SymType.LONG, 2);
        int r = c.right();
        int violations = 0;
        try (ShmemContext a = s.ctxCreate(0); ShmemContext b = s.ctxCreate(Shmem.CTX_SERIALIZED)) {
            s.barrierAll();
            for (int round = 1; round <= rounds; round++) {
                long[] block = new long[n];
                java.util.Arrays.fill(block, round);
                a.put(dataA, 0, block, 0, n, r);
                b.put(dataB, 0, block, 0, n, r);
                a.fence();
                b.fence();
                a.p(flags, 0, round, r);
                b.atomicSet(flags, 1, round, r);
                violations += checkData(c, dataA, s.g(flags, 0, c.me), n); // flag 0 is put, flag 1 set atomically
                violations += checkData(c, dataB, s.atomicFetch(flags, 1, c.me), n);
            }
            a.quiet();
            b.quiet();
        }
        s.waitUntil(flags, 0, Cmp.EQ, rounds);
        s.waitUntil(flags, 1, Cmp.EQ, rounds);
        violations += checkData(c, dataA, rounds, n) + checkData(c, dataB, rounds, n);
        c.check(violations == 0, violations + " times a context's data read after its flag was older than the flag");
        s.barrierAll();
    }

    /**
     * Quiet completes the context's operations (delivered at the target), so an operation issued
     * afterwards on any other context, or the default one, comes after them: nbi puts on context
     * A, quiet on A, then the flag (an atomic set) through context B or the default context, alternately.
     */
    static void quietAcrossContexts(CaseContext c) {
        Shmem s = c.shmem;
        int rounds = 300;
        int n = 256;
        SymLongArray data = c.calloc(SymType.LONG, n);
        SymLongArray flag = c.calloc(SymType.LONG, 1);
        long[][] blocks = new long[rounds + 1][];
        int r = c.right();
        int violations = 0;
        try (ShmemContext a = s.ctxCreate(0); ShmemContext b = s.ctxCreate(0)) {
            s.barrierAll();
            for (int round = 1; round <= rounds; round++) {
                long[] block = new long[n];
                java.util.Arrays.fill(block, round);
                blocks[round] = block; // the nbi source stays untouched until completed
                a.putNbi(data, 0, block, 0, n, r);
                a.quiet();
                (round % 2 == 0 ? b : s).atomicSet(flag, 0, round, r); // atomic only: the reads below are atomic
                violations += checkData(c, data, s.atomicFetch(flag, 0, c.me), n);
            }
            b.quiet();
        }
        s.waitUntil(flag, 0, Cmp.EQ, rounds);
        violations += checkData(c, data, rounds, n);
        c.check(violations == 0, violations + " times the data read after the flag (set on another context) was older than the flag");
        s.barrierAll();
    }

    private static int checkData(CaseContext c, SymLongArray data, long flag, int n) {
        int bad = 0;
        for (int i = 0; i < n; i++) {
            if (data.get(i) < flag) {
                bad++;
            }
        }
        return bad;
    }

    /** After quiet, a PE's nbi puts to every PE are visible to a g from this PE and, after a sync, to their owners. */
    static void quietCompletesNbi(CaseContext c) {
        Shmem s = c.shmem;
        int n = 4096;
        SymLongArray dest = c.calloc(SymType.LONG, (long) n * c.npes);
        long[][] src = new long[c.npes][];
        s.barrierAll();
        for (int pe = 0; pe < c.npes; pe++) {
            src[pe] = new long[n];
            for (int i = 0; i < n; i++) {
                src[pe][i] = c.me * 100_000_000L + pe * 100_000L + i;
            }
            s.putNbi(dest, (long) c.me * n, src[pe], 0, n, pe);
        }
        s.quiet();
        for (int pe = 0; pe < c.npes; pe++) {
            c.checkEq(src[pe][n - 1], s.g(dest, (long) c.me * n + n - 1, pe), "last element of the nbi put to PE " + pe + ", read back after quiet");
        }
        s.syncAll(); // quiet already completed the puts: syncAll is enough
        for (int pe = 0; pe < c.npes; pe++) {
            for (int i = 0; i < n; i += 511) {
                long expected = pe * 100_000_000L + c.me * 100_000L + i;
                if (!c.checkEq(expected, dest.get((long) pe * n + i), "element " + i + " of the block from PE " + pe)) {
                    break;
                }
            }
        }
        s.barrierAll();
    }

    /** barrierAll makes every put and p issued before it visible everywhere; 20 rounds of all-to-all. */
    static void barrierVisibility(CaseContext c) {
        Shmem s = c.shmem;
        int n = 32;
        SymLongArray blocks = c.calloc(SymType.LONG, (long) n * c.npes);
        SymIntArray marks = c.calloc(SymType.INT, c.npes);
        long[] block = new long[n];
        for (int round = 1; round <= 20; round++) {
            for (int i = 0; i < n; i++) {
                block[i] = round * 1_000_000L + c.me * 1000L + i;
            }
            for (int pe = 0; pe < c.npes; pe++) {
                s.put(blocks, (long) c.me * n, block, 0, n, pe);
                s.p(marks, c.me, round * 100 + c.me, pe);
            }
            s.barrierAll();
            for (int pe = 0; pe < c.npes; pe++) {
                c.checkEq(round * 100 + pe, marks.get(pe), "round " + round + ": mark from PE " + pe);
                c.checkEq(round * 1_000_000L + pe * 1000L + n - 1, blocks.get((long) pe * n + n - 1),
                        "round " + round + ": last element of the block from PE " + pe);
            }
            s.barrierAll();
        }
    }

    /** syncAll: a plain synchronization (with quiet before it to complete puts), and 1000 of them in a row. */
    static void syncAll(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray ctr = c.calloc(SymType.LONG, 2);
        s.barrierAll();
        for (int phase = 1; phase <= 50; phase++) {
            s.atomicInc(ctr, 0, 0);
            s.quiet();
            s.syncAll();
            if (c.me == 0) {
                c.checkEq((long) phase * c.npes, ctr.get(0), "counter on PE 0 after phase " + phase);
            }
            s.syncAll();
        }
        long bad = 0;
        for (int i = 0; i < 1000; i++) {
            s.p(ctr, i % 2, i, c.right());
            s.quiet();
            s.syncAll();
            if (ctr.get(i % 2) != i) {
                bad++;
            }
        }
        c.check(bad == 0, bad + " of 1000 syncAll iterations did not see the left neighbour's value");
        s.barrierAll();
    }

    /**
     * 10,000 barrierAll in a row; each iteration a p to the right neighbour that must be visible after
     * the barrier (alternating slots, so that the next write cannot overtake the read).
     */
    static void barrierLoop(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray slot = c.calloc(SymType.LONG, 2);
        s.barrierAll();
        long bad = 0;
        long firstBad = -1;
        for (int i = 1; i <= BARRIER_LOOP; i++) {
            s.p(slot, i & 1, i, c.right());
            s.barrierAll();
            if (slot.get(i & 1) != i) {
                if (bad++ == 0) {
                    firstBad = i;
                }
            }
            if (i % 500 == 0) {
                CaseRunner.Watchdog.progressed(); // 10,000 barriers over UCX under load: 40 s and more, not stuck
            }
        }
        c.check(bad == 0, bad + " of " + BARRIER_LOOP + " iterations did not see the left neighbour's p after the barrier (first: " + firstBad + ")");
    }
}
