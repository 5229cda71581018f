/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Point-to-point synchronization: wait_until (all forms, every Cmp, masks, vectors), test forms, flag handoff. */
final class SyncCases {
    private SyncCases() {
    }

    private interface TypedBody {
        <S extends SymArray<?>> void run(CaseContext c, SyncOps<S> t) throws Exception;
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        add(cases, "sync.wait-until", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, SyncOps<S> t) throws Exception { waitUntil(c, t); }
        });
        add(cases, "sync.wait-until-set", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, SyncOps<S> t) throws Exception { waitUntilSet(c, t); }
        });
        add(cases, "sync.wait-all-excluded", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, SyncOps<S> t) { allExcluded(c, t); }
        });
        add(cases, "sync.test", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, SyncOps<S> t) { testForms(c, t); }
        });
        cases.add(Case.of("sync.wait-sees-atomics", SyncCases::waitSeesAtomics));
        cases.add(Case.of("sync.flag-handoff", SyncCases::flagHandoff));
        cases.add(Case.atLeast(3, "sync.many-writers", SyncCases::manyWriters));
        cases.add(Case.of("sync.test-any-fair", SyncCases::testAnyFair));
        return cases;
    }

    private static void add(List<Case> cases, String prefix, TypedBody body) {
        for (SyncOps<?> t : SyncOps.ALL) {
            cases.add(Case.of(prefix + "." + t.name, c -> body.run(c, t)));
        }
    }

    /** The comparison, computed here rather than trusting Cmp.test. */
    static boolean holds(Cmp cmp, long value, long operand) {
        return switch (cmp) {
            case EQ -> value == operand;
            case NE -> value != operand;
            case GT -> value > operand;
            case GE -> value >= operand;
            case LT -> value < operand;
            case LE -> value <= operand;
            case UGT -> Long.compareUnsigned(value, operand) > 0;
            case UGE -> Long.compareUnsigned(value, operand) >= 0;
            case ULT -> Long.compareUnsigned(value, operand) < 0;
            case ULE -> Long.compareUnsigned(value, operand) <= 0;
        };
    }

    private interface Action {
        void run() throws Exception;
    }

    /**
     * PEs pair up (k with k^1). In phase 0 the even PE of each pair writes its partner's variables
     * (after a short pause, so that the partner is really waiting) while the odd one waits on its
     * own; in phase 1 the roles swap. An unpaired PE (odd job size) writes its own variables first.
     */
    private static void exchange(CaseContext c, java.util.function.IntConsumer writeTo, Action await) throws Exception {
        int partner = c.me ^ 1;
        if (partner >= c.npes) {
            writeTo.accept(c.me);
            await.run();
            return;
        }
        for (int phase = 0; phase < 2; phase++) {
            if (c.me % 2 == phase) {
                Thread.sleep(3);
                writeTo.accept(partner);
            } else {
                await.run();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** waitUntil for every Cmp: a write that does not satisfy the condition, then one that does. */
    static <S extends SymArray<?>> void waitUntil(CaseContext c, SyncOps<S> t) throws Exception {
        Shmem s = c.shmem;
        long min = t.min;
        long max = t.max;
        // cmp, initial value, operand, a value that does not satisfy, one that does
        Object[][] rows = {
            {Cmp.EQ, 0L, 5L, 4L, 5L},
            {Cmp.NE, 0L, 0L, 0L, -7L},
            {Cmp.GT, 0L, 3L, 3L, 4L},
            {Cmp.GE, min, -4L, -5L, -4L},
            {Cmp.LT, 0L, -1L, -1L, -2L},
            {Cmp.LE, max, -3L, -2L, -3L},
            {Cmp.EQ, 0L, min, 1L, min},
            {Cmp.GT, min, max - 1, max - 1, max},
            {Cmp.LT, max, min + 1, min + 1, min},
            {Cmp.NE, max, max, max, min},
            {Cmp.GE, min, max, max - 1, max},
            {Cmp.LE, max, min, min + 1, min},
        };
        S ivars = c.calloc(t.type, rows.length);
        for (int i = 0; i < rows.length; i++) {
            t.setLocal(ivars, i, (Long) rows[i][1]);
        }
        s.barrierAll();
        for (int i = 0; i < rows.length; i++) {
            Cmp cmp = (Cmp) rows[i][0];
            c.check(!t.test(s, ivars, i, cmp, (Long) rows[i][2]),
                    t.name + ": row " + i + ": test(" + cmp + ", " + rows[i][2] + ") is true on the initial value " + rows[i][1]);
        }
        s.barrierAll();
        exchange(c, pe -> {
            for (int i = 0; i < rows.length; i++) {
                t.p(s, ivars, i, (Long) rows[i][3], pe);
                pause();
                t.p(s, ivars, i, (Long) rows[i][4], pe);
            }
        }, () -> {
            for (int i = 0; i < rows.length; i++) {
                Cmp cmp = (Cmp) rows[i][0];
                long operand = (Long) rows[i][2];
                t.waitUntil(s, ivars, i, cmp, operand);
                long v = t.local(ivars, i);
                c.check(holds(cmp, v, operand), t.name + ": waitUntil(" + cmp + ", " + operand + ") returned while the value is " + v);
                c.checkEq((long) (Long) rows[i][4], v, t.name + ": row " + i + " value after waitUntil(" + cmp + ", " + operand + ")");
            }
        });
        s.barrierAll();
    }

    /** waitUntilAll/Any/Some and their vector forms, with and without status masks. */
    static <S extends SymArray<?>> void waitUntilSet(CaseContext c, SyncOps<S> t) throws Exception {
        Shmem s = c.shmem;
        int n = 8;
        S a = c.calloc(t.type, n);
        S b = c.calloc(t.type, n);
        S d = c.calloc(t.type, n);
        S e = c.calloc(t.type, n);
        S f = c.calloc(t.type, n);
        S g = c.calloc(t.type, n);
        S h = c.calloc(t.type, n);
        long[] ev = new long[n];
        long[] fv = new long[n];
        long[] gv = new long[n];
        for (int i = 0; i < n; i++) {
            ev[i] = i % 2 == 0 ? 100 + 3 * i : -(100 + i);
            fv[i] = 100 + i;
            gv[i] = -10 - i;
        }
        int[] exclLow = {1, 1, 1, 1, 0, 0, 0, 0};
        int[] excl01 = {1, 1, 0, 0, 0, 0, 0, 0};
        int[] excl1 = {0, 1, 0, 0, 0, 0, 0, 0};
        int[] excl0 = {1, 0, 0, 0, 0, 0, 0, 0};
        s.barrierAll();
        exchange(c, pe -> {
            for (int i = n - 1; i >= 0; i--) {
                t.p(s, a, i, 1, pe);
            }
            for (int i = 4; i < n; i++) {
                t.p(s, b, i, 2, pe);
            }
            t.p(s, d, 0, 3, pe);       // excluded by the mask
            pause();
            t.p(s, d, 5, 3, pe);
            t.p(s, e, 1, 4, pe);       // excluded
            t.p(s, e, 2, 4, pe);
            t.p(s, e, 6, 4, pe);
            for (int i = 0; i < n; i++) {
                t.p(s, f, i, ev[i], pe);
            }
            t.p(s, g, 0, 1000, pe);    // excluded
            pause();
            t.p(s, g, 3, fv[3] + 1, pe);
            t.p(s, h, 2, -50, pe);
            t.p(s, h, 7, -50, pe);
        }, () -> {
            t.waitUntilAll(s, a, null, Cmp.EQ, 1);
            for (int i = 0; i < n; i++) {
                c.checkEq(1, t.local(a, i), t.name + ": waitUntilAll(EQ 1): element " + i);
            }
            t.waitUntilAll(s, b, exclLow.clone(), Cmp.EQ, 2);
            for (int i = 4; i < n; i++) {
                c.checkEq(2, t.local(b, i), t.name + ": waitUntilAll(EQ 2) with elements 0-3 excluded: element " + i);
            }
            long any = t.waitUntilAny(s, d, excl01.clone(), Cmp.EQ, 3);
            c.checkEq(5, any, t.name + ": waitUntilAny(EQ 3) with 0 and 1 excluded (element 0 also becomes 3)");
            long[] idx = new long[n];
            Arrays.fill(idx, -99);
            int k = t.waitUntilSome(s, e, idx, excl1.clone(), Cmp.EQ, 4);
            checkSome(c, t.name + ": waitUntilSome(EQ 4), element 1 excluded", idx, k, Set.of(2L, 6L), false);
            t.waitUntil(s, e, 2, Cmp.EQ, 4);
            t.waitUntil(s, e, 6, Cmp.EQ, 4);
            Arrays.fill(idx, -99);
            k = t.waitUntilSome(s, e, idx, excl1.clone(), Cmp.EQ, 4);
            checkSome(c, t.name + ": waitUntilSome(EQ 4) once both arrived", idx, k, Set.of(2L, 6L), true);
            t.waitUntilAllVector(s, f, null, Cmp.EQ, ev.clone());
            for (int i = 0; i < n; i++) {
                c.checkEq(ev[i], t.local(f, i), t.name + ": waitUntilAllVector(EQ): element " + i);
            }
            long anyV = t.waitUntilAnyVector(s, g, excl0.clone(), Cmp.GE, fv.clone());
            c.checkEq(3, anyV, t.name + ": waitUntilAnyVector(GE) with element 0 excluded (element 0 also qualifies)");
            Arrays.fill(idx, -99);
            int kv = t.waitUntilSomeVector(s, h, idx, null, Cmp.LT, gv.clone());
            checkSome(c, t.name + ": waitUntilSomeVector(LT)", idx, kv, Set.of(2L, 7L), false);
        });
        s.barrierAll();
    }

    private static void checkSome(CaseContext c, String what, long[] idx, int k, Set<Long> allowed, boolean exact) {
        if (!c.check(k >= 1 && k <= allowed.size(), what + ": returned " + k)) {
            return;
        }
        Set<Long> got = new TreeSet<>();
        for (int i = 0; i < k; i++) {
            got.add(idx[i]);
        }
        c.check(got.size() == k && allowed.containsAll(got), what + ": indices " + Arrays.toString(Arrays.copyOf(idx, k))
                + " are not distinct elements of " + allowed);
        if (exact) {
            c.check(got.equals(new TreeSet<>(allowed)), what + ": indices " + got + ", expected " + allowed);
        }
    }

    /** Every element excluded: Any returns -1, Some returns 0, All returns at once (all forms, also test). */
    static <S extends SymArray<?>> void allExcluded(CaseContext c, SyncOps<S> t) {
        Shmem s = c.shmem;
        int n = 5;
        S a = c.calloc(t.type, n);
        int[] all = {1, 1, 1, 1, 1};
        int[] allOther = {7, -1, 1, 2, Integer.MIN_VALUE}; // any non-zero value excludes
        long[] idx = new long[n];
        long[] v = {9, 9, 9, 9, 9};
        t.waitUntilAll(s, a, all.clone(), Cmp.EQ, 9);
        c.checkEq(-1, t.waitUntilAny(s, a, all.clone(), Cmp.EQ, 9), t.name + ": waitUntilAny with every element excluded");
        c.checkEq(0, t.waitUntilSome(s, a, idx, all.clone(), Cmp.EQ, 9), t.name + ": waitUntilSome with every element excluded");
        t.waitUntilAllVector(s, a, allOther.clone(), Cmp.EQ, v.clone());
        c.checkEq(-1, t.waitUntilAnyVector(s, a, allOther.clone(), Cmp.EQ, v.clone()), t.name + ": waitUntilAnyVector, every element excluded");
        c.checkEq(0, t.waitUntilSomeVector(s, a, idx, allOther.clone(), Cmp.EQ, v.clone()), t.name + ": waitUntilSomeVector, every element excluded");
        c.check(t.testAll(s, a, all.clone(), Cmp.EQ, 9), t.name + ": testAll with every element excluded is false");
        c.checkEq(-1, t.testAny(s, a, all.clone(), Cmp.EQ, 0), t.name + ": testAny with every element excluded");
        c.checkEq(0, t.testSome(s, a, idx, all.clone(), Cmp.EQ, 0), t.name + ": testSome with every element excluded");
        c.check(t.testAllVector(s, a, allOther.clone(), Cmp.EQ, v.clone()), t.name + ": testAllVector with every element excluded is false");
        c.checkEq(-1, t.testAnyVector(s, a, allOther.clone(), Cmp.NE, v.clone()), t.name + ": testAnyVector with every element excluded");
        c.checkEq(0, t.testSomeVector(s, a, idx, allOther.clone(), Cmp.NE, v.clone()), t.name + ": testSomeVector with every element excluded");
        // An empty ivars array counts as all excluded.
        S empty = c.malloc(t.type, 0);
        t.waitUntilAll(s, empty, null, Cmp.EQ, 9);
        c.checkEq(-1, t.waitUntilAny(s, empty, null, Cmp.EQ, 9), t.name + ": waitUntilAny on an empty array");
        c.checkEq(0, t.waitUntilSome(s, empty, new long[0], null, Cmp.EQ, 9), t.name + ": waitUntilSome on an empty array");
        s.barrierAll();
    }

    /** test/testAll/testAny/testSome (+ vectors), before and after the left neighbour's writes. */
    static <S extends SymArray<?>> void testForms(CaseContext c, SyncOps<S> t) {
        Shmem s = c.shmem;
        int n = 6;
        S a = c.calloc(t.type, n);
        S lim = c.calloc(t.type, 2);
        long[] idx = new long[n];
        s.barrierAll();
        String b = t.name + " before: ";
        c.check(!t.test(s, a, 0, Cmp.EQ, 9), b + "test(EQ 9) on 0");
        c.check(!t.test(s, a, 0, Cmp.NE, 0), b + "test(NE 0) on 0");
        c.check(t.test(s, a, 0, Cmp.EQ, 0), b + "test(EQ 0) on 0 is false");
        c.check(t.test(s, a, 0, Cmp.LE, 0) && t.test(s, a, 0, Cmp.GE, 0) && !t.test(s, a, 0, Cmp.LT, 0) && !t.test(s, a, 0, Cmp.GT, 0),
                b + "LE/GE/LT/GT against an equal value");
        c.check(!t.testAll(s, a, null, Cmp.EQ, 9), b + "testAll(EQ 9)");
        c.check(t.testAll(s, a, null, Cmp.GE, 0), b + "testAll(GE 0) is false on zeros");
        c.checkEq(-1, t.testAny(s, a, null, Cmp.EQ, 9), b + "testAny(EQ 9)");
        long any0 = t.testAny(s, a, null, Cmp.LE, 0);
        c.check(any0 >= 0 && any0 < n, b + "testAny(LE 0) on zeros returned " + any0);
        c.checkEq(0, t.testSome(s, a, idx, null, Cmp.EQ, 9), b + "testSome(EQ 9)");
        c.checkEq(n, t.testSome(s, a, idx, null, Cmp.EQ, 0), b + "testSome(EQ 0) on zeros");
        Set<Long> allIdx = new TreeSet<>();
        for (long i = 0; i < n; i++) {
            allIdx.add(i);
        }
        Set<Long> got = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            got.add(idx[i]);
        }
        c.checkEquals(allIdx, got, b + "indices of testSome(EQ 0) on zeros");
        long[] odd9 = new long[n];
        for (int i = 0; i < n; i++) {
            odd9[i] = i % 2 == 1 ? 9 : 0;
        }
        c.check(!t.testAllVector(s, a, null, Cmp.EQ, odd9.clone()), b + "testAllVector(EQ {0,9,...})");
        c.checkEq(-1, t.testAnyVector(s, a, new int[] {1, 0, 1, 0, 1, 0}, Cmp.EQ, odd9.clone()), b + "testAnyVector(EQ) on the odd elements");
        c.checkEq(0, t.testSomeVector(s, a, idx, new int[] {1, 0, 1, 0, 1, 0}, Cmp.EQ, odd9.clone()), b + "testSomeVector(EQ) on the odd elements");
        s.barrierAll();

        int r = c.right();
        for (int i : new int[] {1, 3, 5}) {
            t.p(s, a, i, 9, r);
        }
        t.p(s, lim, 0, t.min, r);
        t.p(s, lim, 1, t.max, r);
        s.barrierAll();

        String af = t.name + " after: ";
        c.check(t.test(s, a, 1, Cmp.EQ, 9), af + "test(EQ 9) on element 1");
        c.check(!t.test(s, a, 0, Cmp.EQ, 9), af + "test(EQ 9) on element 0 (never written)");
        c.check(t.test(s, a, 3, Cmp.GT, 8) && t.test(s, a, 3, Cmp.GE, 9) && t.test(s, a, 3, Cmp.LT, 10)
                && t.test(s, a, 3, Cmp.LE, 9) && t.test(s, a, 3, Cmp.NE, 0), af + "GT/GE/LT/LE/NE on element 3 = 9");
        c.check(!t.testAll(s, a, null, Cmp.EQ, 9), af + "testAll(EQ 9) while the even elements are 0");
        c.check(t.testAll(s, a, new int[] {1, 0, 1, 0, 1, 0}, Cmp.EQ, 9), af + "testAll(EQ 9) with the even elements excluded");
        long any = t.testAny(s, a, null, Cmp.EQ, 9);
        c.check(any == 1 || any == 3 || any == 5, af + "testAny(EQ 9) returned " + any);
        c.checkEq(5, t.testAny(s, a, new int[] {0, 1, 0, 1, 0, 0}, Cmp.EQ, 9), af + "testAny(EQ 9) with 1 and 3 excluded");
        Arrays.fill(idx, -99);
        int k = t.testSome(s, a, idx, null, Cmp.EQ, 9);
        checkSome(c, af + "testSome(EQ 9)", idx, k, Set.of(1L, 3L, 5L), true);
        Arrays.fill(idx, -99);
        k = t.testSome(s, a, idx, new int[] {0, 0, 0, 1, 0, 0}, Cmp.EQ, 9);
        checkSome(c, af + "testSome(EQ 9) with 3 excluded", idx, k, Set.of(1L, 5L), true);
        c.check(t.testAllVector(s, a, null, Cmp.EQ, odd9.clone()), af + "testAllVector(EQ {0,9,0,9,0,9})");
        c.checkEq(-1, t.testAnyVector(s, a, null, Cmp.NE, odd9.clone()), af + "testAnyVector(NE {0,9,...})");
        c.checkEq(n, t.testSomeVector(s, a, idx, null, Cmp.EQ, odd9.clone()), af + "testSomeVector(EQ {0,9,...})");
        c.checkEq(0, t.testSomeVector(s, a, idx, null, Cmp.GT, odd9.clone()), af + "testSomeVector(GT {0,9,...})");
        long anyV = t.testAnyVector(s, a, new int[] {1, 1, 1, 1, 0, 1}, Cmp.GE, odd9.clone());
        c.checkEq(4, anyV, af + "testAnyVector(GE) with only element 4 included");
        // Limits (signed comparisons).
        c.check(t.test(s, lim, 0, Cmp.LT, t.min + 1) && t.test(s, lim, 0, Cmp.LE, t.min) && !t.test(s, lim, 0, Cmp.GT, t.min)
                && t.test(s, lim, 0, Cmp.LT, 0), af + "comparisons on MIN_VALUE");
        c.check(t.test(s, lim, 1, Cmp.GT, t.max - 1) && t.test(s, lim, 1, Cmp.GE, t.max) && !t.test(s, lim, 1, Cmp.LT, t.max)
                && t.test(s, lim, 1, Cmp.GT, t.min), af + "comparisons on MAX_VALUE");
        c.check(t.testAll(s, lim, null, Cmp.NE, 0) && t.testAllVector(s, lim, null, Cmp.EQ, new long[] {t.min, t.max}),
                af + "testAll on MIN_VALUE and MAX_VALUE");
        s.barrierAll();
    }

    /** waitUntil wakes on a value that atomic adds from every PE build up. */
    static void waitSeesAtomics(CaseContext c) {
        Shmem s = c.shmem;
        SymIntArray ctr = c.calloc(SymType.INT, 1);
        SymLongArray back = c.calloc(SymType.LONG, 1);
        s.barrierAll();
        for (int i = 0; i < 10; i++) {
            s.atomicAdd(ctr, 0, 1, 0);
        }
        if (c.me == 0) {
            s.waitUntil(ctr, 0, Cmp.GE, 10 * c.npes);
            c.checkEq(10L * c.npes, ctr.get(0), "counter after waitUntil(GE " + 10 * c.npes + ")");
            for (int pe = 0; pe < c.npes; pe++) {
                s.atomicSet(back, 0, 1, pe);
            }
        }
        s.waitUntil(back, 0, Cmp.EQ, 1);
        s.barrierAll();
    }

    /** Producer/consumer around the ring: put data, fence, p flag; the consumer waits and checks; ack back. */
    static void flagHandoff(CaseContext c) {
        Shmem s = c.shmem;
        int n = 64;
        int rounds = 200;
        SymLongArray data = c.calloc(SymType.LONG, n);
        SymLongArray flag = c.calloc(SymType.LONG, 1);
        SymLongArray ack = c.calloc(SymType.LONG, 1);
        long[] batch = new long[n];
        s.barrierAll();
        int bad = 0;
        for (long round = 1; round <= rounds; round++) {
            for (int i = 0; i < n; i++) {
                batch[i] = (c.me * 1_000_000L + round) * 1000 + i;
            }
            s.put(data, 0, batch, 0, n, c.right());
            s.fence();
            s.p(flag, 0, round, c.right());
            s.waitUntil(flag, 0, Cmp.GE, round);
            c.checkEq(round, flag.get(0), "flag value in round " + round);
            for (int i = 0; i < n; i++) {
                long expected = (c.left() * 1_000_000L + round) * 1000 + i;
                if (data.get(i) != expected && bad++ < 3) {
                    c.fail("round " + round + ": data[" + i + "] = " + data.get(i) + " after the flag, expected " + expected);
                }
            }
            s.p(ack, 0, round, c.left());
            s.waitUntil(ack, 0, Cmp.GE, round);
        }
        s.barrierAll();
    }

    /**
     * PE 0 collects one flag from each other PE (written at different times) with waitUntilSome,
     * excluding what it already has; every index must come exactly once. Needs 3 PEs or more.
     */
    static void manyWriters(CaseContext c) throws InterruptedException {
        Shmem s = c.shmem;
        int n = c.npes - 1;
        SymLongArray flags = c.calloc(SymType.LONG, n);
        s.barrierAll();
        if (c.me != 0) {
            Thread.sleep(2L * (c.npes - c.me)); // arrive in a staggered order
            s.p(flags, c.me - 1, 100 + c.me, 0);
        } else {
            int[] status = new int[n];
            long[] idx = new long[n];
            int got = 0;
            while (got < n) {
                int k = s.waitUntilSome(flags, idx, status, Cmp.GT, 0);
                if (!c.check(k >= 1, "waitUntilSome returned " + k + " with " + (n - got) + " flags outstanding")) {
                    break;
                }
                for (int i = 0; i < k; i++) {
                    int e = (int) idx[i];
                    if (c.check(e >= 0 && e < n && status[e] == 0, "waitUntilSome returned index " + e + " (excluded or out of range)")) {
                        status[e] = 1;
                        got++;
                        c.checkEq(100 + e + 1, flags.get(e), "flag from PE " + (e + 1));
                    }
                }
            }
            c.checkEq(-1, s.waitUntilAny(flags, status, Cmp.GT, 0), "waitUntilAny once every flag is excluded");
            s.waitUntilAll(flags, null, Cmp.GT, 100);
        }
        s.barrierAll();
    }

    /**
     * OpenSHMEM 1.6, shmem_test_any: "If an entry i in ivars within the test set satisfies the test
     * condition, a series of calls to shmem_test_any must eventually return i." With every entry
     * satisfied, n calls of testAny (and of the vector and waiting forms) return every index of
     * the test set, whatever the earlier calls returned.
     */
    static void testAnyFair(CaseContext c) {
        Shmem s = c.shmem;
        int n = 5;
        SymLongArray a = c.calloc(SymType.LONG, n);
        SymIntArray b = c.calloc(SymType.INT, n);
        for (int i = 0; i < n; i++) {
            a.set(i, 1);
            b.set(i, 1);
        }
        long[] ones = {1, 1, 1, 1, 1};
        int[] intOnes = {1, 1, 1, 1, 1};
        int[] skip2 = {0, 0, 1, 0, 0};
        java.util.Map<String, java.util.function.Function<int[], Long>> forms = new java.util.LinkedHashMap<>();
        forms.put("testAny", st -> s.testAny(a, st, Cmp.EQ, 1));
        forms.put("testAnyVector", st -> s.testAnyVector(a, st, Cmp.EQ, ones));
        forms.put("waitUntilAny", st -> s.waitUntilAny(a, st, Cmp.EQ, 1));
        forms.put("waitUntilAnyVector", st -> s.waitUntilAnyVector(a, st, Cmp.EQ, ones));
        forms.put("testAny(int)", st -> s.testAny(b, st, Cmp.EQ, 1));
        forms.put("waitUntilAnyVector(int)", st -> s.waitUntilAnyVector(b, st, Cmp.EQ, intOnes));
        for (var f : forms.entrySet()) {
            for (int[] status : new int[][] {null, skip2}) {
                int members = status == null ? n : n - 1;
                java.util.Set<Long> seen = new java.util.TreeSet<>();
                java.util.List<Long> order = new ArrayList<>();
                for (int k = 0; k < members; k++) {
                    long i = f.getValue().apply(status);
                    seen.add(i);
                    order.add(i);
                }
                java.util.Set<Long> want = new java.util.TreeSet<>();
                for (long i = 0; i < n; i++) {
                    if (status == null || status[(int) i] == 0) {
                        want.add(i);
                    }
                }
                c.checkEquals(want, seen, f.getKey() + (status == null ? "" : " with index 2 excluded") + ": indices returned by "
                        + members + " calls with every entry satisfied (in order " + order + ")");
            }
        }
        // Each routine's series on its own: waitUntilAny calls with a testAny after each (on the
        // same object) still return every index (one shared cursor gave every other index only).
        java.util.Set<Long> waited = new java.util.TreeSet<>();
        java.util.Set<Long> tested = new java.util.TreeSet<>();
        for (int k = 0; k < n; k++) {
            waited.add(s.waitUntilAny(a, null, Cmp.EQ, 1));
            tested.add(s.testAny(a, null, Cmp.EQ, 1));
        }
        java.util.Set<Long> all = new java.util.TreeSet<>(java.util.List.of(0L, 1L, 2L, 3L, 4L));
        c.checkEquals(all, waited, "waitUntilAny, each call followed by a testAny: indices returned by " + n + " calls");
        c.checkEquals(all, tested, "testAny, each call after a waitUntilAny: indices returned by " + n + " calls");
        s.barrierAll();
    }
}
