/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymArray;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymFloatArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.ArrayList;
import java.util.List;

/** Atomic memory operations: every int/long operation and nbi form, float/double, and concurrency. */
final class AmoCases {
    private AmoCases() {
    }

    private interface TypedBody {
        <S extends SymArray<?>> void run(CaseContext c, AmoOps<S> t);
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        add(cases, "amo.ops", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, AmoOps<S> t) { ops(c, t); }
        });
        add(cases, "amo.nbi", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, AmoOps<S> t) { nbi(c, t); }
        });
        add(cases, "amo.concurrent-add", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, AmoOps<S> t) { concurrentAdd(c, t); }
        });
        add(cases, "amo.cswap-ticket", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, AmoOps<S> t) { cswapTicket(c, t); }
        });
        add(cases, "amo.bitwise-concurrent", new TypedBody() {
            public <S extends SymArray<?>> void run(CaseContext c, AmoOps<S> t) { bitwiseConcurrent(c, t); }
        });
        cases.add(Case.of("amo.float", AmoCases::floats));
        cases.add(Case.of("amo.double", AmoCases::doubles));
        return cases;
    }

    private static void add(List<Case> cases, String prefix, TypedBody body) {
        for (AmoOps<?> t : AmoOps.ALL) {
            cases.add(Case.of(prefix + "." + t.name, c -> body.run(c, t)));
        }
    }

    /**
     * Every operation in sequence on element 0 of the right neighbour (nobody else touches it), with
     * the returned old values and the final value checked; then the same on this PE itself, and
     * wrap-around at the type's limits.
     */
    static <S extends SymArray<?>> void ops(CaseContext c, AmoOps<S> t) {
        Shmem s = c.shmem;
        S d = c.calloc(t.type, 4);
        s.barrierAll();
        long fin = sequence(c, t, s, d, c.right(), c.me);
        s.barrierAll();
        // The owner sees the final value of the sequence its left neighbour ran.
        long expectedFromLeft = sequence(null, t, null, null, -1, c.left());
        c.checkEq(expectedFromLeft, t.local(d, 0), t.name + ": final value left by the left neighbour's sequence");
        c.checkEq(fin, t.fetch(s, d, 0, c.right()), t.name + ": fetch of the final value on the right neighbour");
        s.barrierAll();
        sequence(c, t, s, d, c.me, c.me + 1000); // on this PE's own copy
        s.barrierAll();

        // Wrap-around at the limits (element 1, own copy).
        long max = t.norm(t.bits == 64 ? Long.MAX_VALUE : Integer.MAX_VALUE);
        long min = t.norm(t.bits == 64 ? Long.MIN_VALUE : Integer.MIN_VALUE);
        int pe = c.right();
        t.set(s, d, 1, max, pe);
        t.inc(s, d, 1, pe);
        c.checkEq(min, t.fetch(s, d, 1, pe), t.name + ": inc of MAX_VALUE wraps to MIN_VALUE");
        c.checkEq(min, t.fadd(s, d, 1, -1, pe), t.name + ": fetch_add(-1) returns MIN_VALUE");
        c.checkEq(max, t.finc(s, d, 1, pe), t.name + ": fetch_inc returns MAX_VALUE");
        c.checkEq(min, t.swap(s, d, 1, -1, pe), t.name + ": swap returns MIN_VALUE");
        c.checkEq(-1, t.cswap(s, d, 1, -1, 0, pe), t.name + ": compare_swap(-1 -> 0) returns -1");
        c.checkEq(0, t.fetch(s, d, 1, pe), t.name + ": value after compare_swap(-1 -> 0)");
        s.barrierAll();
    }

    /**
     * Runs the operation sequence on element 0 of {@code pe} starting from a value derived from
     * {@code seed}; returns the final value. With c == null only computes the final value.
     */
    private static <S extends SymArray<?>> long sequence(CaseContext c, AmoOps<S> t, Shmem s, S d, int pe, int seed) {
        long v0 = t.norm(0x0F0F_0F0F_0F0F_0F0FL ^ (seed * 0x1_0001L));
        long v1 = t.norm(0x1234_5678_9ABC_DEF0L + seed);
        long v2 = t.norm(-77L - seed);
        long andMask = t.norm(0xFFFF_0000_FFFF_0FF0L);
        long orMask = t.norm(0x0000_0F00_0000_0001L);
        long xorMask = t.norm(0x5555_5555_5555_5555L);
        long cur;
        String n = c == null ? "" : t.name + " on PE " + pe + ": ";
        if (c == null) {
            cur = t.norm(v2 + 2);
            cur = t.norm(cur + 5);
            cur = t.norm(cur - 3);
            cur = t.norm(cur & andMask);
            cur = t.norm(cur & ~0xFL);
            cur = t.norm(cur | orMask);
            cur = t.norm(cur | 0x30);
            cur = t.norm(cur ^ xorMask);
            cur = t.norm(cur ^ 0xFF);
            return cur;
        }
        t.set(s, d, 0, v0, pe);
        c.checkEq(v0, t.fetch(s, d, 0, pe), n + "fetch after set");
        c.checkEq(v0, t.swap(s, d, 0, v1, pe), n + "swap returns the old value");
        c.checkEq(v1, t.cswap(s, d, 0, t.norm(v1 + 1), v2, pe), n + "compare_swap with a wrong condition returns the value");
        c.checkEq(v1, t.fetch(s, d, 0, pe), n + "compare_swap with a wrong condition leaves the value");
        c.checkEq(v1, t.cswap(s, d, 0, v1, v2, pe), n + "compare_swap with the right condition returns the old value");
        c.checkEq(v2, t.fetch(s, d, 0, pe), n + "compare_swap with the right condition stores the new value");
        cur = v2;
        c.checkEq(cur, t.finc(s, d, 0, pe), n + "fetch_inc returns the old value");
        t.inc(s, d, 0, pe);
        cur = t.norm(cur + 2);
        c.checkEq(cur, t.fetch(s, d, 0, pe), n + "value after fetch_inc and inc");
        c.checkEq(cur, t.fadd(s, d, 0, 5, pe), n + "fetch_add returns the old value");
        t.add(s, d, 0, -3, pe);
        cur = t.norm(cur + 5 - 3);
        c.checkEq(cur, t.fetch(s, d, 0, pe), n + "value after fetch_add(5) and add(-3)");
        c.checkEq(cur, t.fand(s, d, 0, andMask, pe), n + "fetch_and returns the old value");
        cur = t.norm(cur & andMask);
        t.and(s, d, 0, ~0xFL, pe);
        cur = t.norm(cur & ~0xFL);
        c.checkEq(cur, t.fetch(s, d, 0, pe), n + "value after fetch_and and and");
        c.checkEq(cur, t.f_or(s, d, 0, orMask, pe), n + "fetch_or returns the old value");
        cur = t.norm(cur | orMask);
        t.or(s, d, 0, 0x30, pe);
        cur = t.norm(cur | 0x30);
        c.checkEq(cur, t.fetch(s, d, 0, pe), n + "value after fetch_or and or");
        c.checkEq(cur, t.fxor(s, d, 0, xorMask, pe), n + "fetch_xor returns the old value");
        cur = t.norm(cur ^ xorMask);
        t.xor(s, d, 0, 0xFF, pe);
        cur = t.norm(cur ^ 0xFF);
        c.checkEq(cur, t.fetch(s, d, 0, pe), n + "value after fetch_xor and xor");
        return cur;
    }

    /** Every fetching nbi form, each on its own element of the right neighbour, completed by one quiet. */
    static <S extends SymArray<?>> void nbi(CaseContext c, AmoOps<S> t) {
        Shmem s = c.shmem;
        int ops = 9;
        S d = c.calloc(t.type, ops);
        for (int i = 0; i < ops; i++) {
            t.setLocal(d, i, initial(t, c.me, i));
        }
        s.barrierAll();
        int r = c.right();
        Object f = t.newFetch(ops + 2);
        t.fetchNbi(s, f, 1, d, 0, r);
        t.swapNbi(s, f, 2, d, 1, 555, r);
        t.cswapNbi(s, f, 3, d, 2, initial(t, r, 2), 777, r);       // succeeds
        t.cswapNbi(s, f, 4, d, 3, initial(t, r, 3) + 1, 888, r);   // fails
        t.fincNbi(s, f, 5, d, 4, r);
        t.faddNbi(s, f, 6, d, 5, -40, r);
        t.fandNbi(s, f, 7, d, 6, 0xF0F0, r);
        t.forNbi(s, f, 8, d, 7, 0x0101, r);
        t.fxorNbi(s, f, 9, d, 8, -1, r);
        s.quiet();
        String[] names = {"fetch_nbi", "swap_nbi", "compare_swap_nbi (success)", "compare_swap_nbi (failure)",
                          "fetch_inc_nbi", "fetch_add_nbi", "fetch_and_nbi", "fetch_or_nbi", "fetch_xor_nbi"};
        for (int i = 0; i < ops; i++) {
            c.checkEq(initial(t, r, i), t.fetched(f, i + 1), t.name + ": " + names[i] + " fetched value, after quiet");
        }
        c.checkEq(0, t.fetched(f, 0), t.name + ": fetch array element before the used ones");
        s.barrierAll();
        int m = c.me; // the left neighbour operated on this PE's elements, which started at initial(t, me, i)
        long[] expected = {
            initial(t, m, 0), 555, 777, initial(t, m, 3), t.norm(initial(t, m, 4) + 1), t.norm(initial(t, m, 5) - 40),
            t.norm(initial(t, m, 6) & 0xF0F0), t.norm(initial(t, m, 7) | 0x0101), t.norm(initial(t, m, 8) ^ -1)};
        for (int i = 0; i < ops; i++) {
            c.checkEq(expected[i], t.local(d, i), t.name + ": value after " + names[i] + " by the left neighbour");
        }
        s.barrierAll();
    }

    private static long initial(AmoOps<?> t, int pe, int i) {
        return t.norm(1_000_003L * (i + 1) + 0x10_0000_0000L * pe + pe);
    }

    /**
     * All PEs hammer PE 0's counters: inc, add, fetch_inc (values unique and increasing per PE),
     * fetch_add; and spread incs over every PE. Totals must be exact.
     */
    static <S extends SymArray<?>> void concurrentAdd(CaseContext c, AmoOps<S> t) {
        Shmem s = c.shmem;
        int k = 1000;
        S ctr = c.calloc(t.type, 5);
        SymIntArray seen = c.calloc(SymType.INT, (long) c.npes * k);
        s.barrierAll();
        long last = -1;
        boolean increasing = true;
        for (int i = 0; i < k; i++) {
            t.inc(s, ctr, 0, 0);
            t.add(s, ctr, 1, c.me + 1, 0);
            long ticket = t.finc(s, ctr, 2, 0);
            if (ticket <= last) {
                increasing = false;
            }
            last = ticket;
            if (ticket >= 0 && ticket < (long) c.npes * k) {
                s.atomicInc(seen, ticket, 0);
            } else {
                c.fail(t.name + ": fetch_inc returned " + ticket + ", outside 0.." + ((long) c.npes * k - 1));
            }
            t.fadd(s, ctr, 3, 2, 0);
            t.inc(s, ctr, 4, i % c.npes);
        }
        c.check(increasing, t.name + ": the values one PE got from fetch_inc on one counter are not increasing");
        s.barrierAll();
        if (c.me == 0) {
            c.checkEq((long) c.npes * k, t.local(ctr, 0), t.name + ": total of " + k + " incs by each of " + c.npes + " PEs");
            c.checkEq((long) k * c.npes * (c.npes + 1) / 2, t.local(ctr, 1), t.name + ": total of adds of (myPe+1)");
            c.checkEq((long) c.npes * k, t.local(ctr, 2), t.name + ": total of fetch_incs");
            c.checkEq(2L * c.npes * k, t.local(ctr, 3), t.name + ": total of fetch_adds of 2");
            int dup = 0;
            int missing = 0;
            for (long v = 0; v < (long) c.npes * k; v++) {
                int times = seen.get(v);
                if (times > 1) {
                    dup++;
                } else if (times == 0) {
                    missing++;
                }
            }
            c.check(dup == 0 && missing == 0, t.name + ": fetch_inc tickets: " + dup + " returned twice, " + missing + " never");
        }
        long perTarget = 0;
        for (int i = 0; i < k; i++) {
            if (i % c.npes == c.me) {
                perTarget++;
            }
        }
        c.checkEq(perTarget * c.npes, t.local(ctr, 4), t.name + ": incs spread over every PE, received by this PE");
        s.barrierAll();
    }

    /** compare_swap as a ticket: every PE tries to claim every slot on PE 0; each slot is claimed exactly once. */
    static <S extends SymArray<?>> void cswapTicket(CaseContext c, AmoOps<S> t) {
        Shmem s = c.shmem;
        int slots = 64 * c.npes;
        S owner = c.calloc(t.type, slots);
        SymLongArray claims = c.calloc(SymType.LONG, c.npes);
        s.barrierAll();
        List<Integer> mine = new ArrayList<>();
        for (int j = 0; j < slots; j++) {
            int slot = (j + 64 * c.me) % slots; // start at different places so PEs collide mid-way
            long old = t.cswap(s, owner, slot, 0, c.me + 1, 0);
            if (old == 0) {
                mine.add(slot);
            } else if (old < 1 || old > c.npes) {
                c.fail(t.name + ": compare_swap on slot " + slot + " returned " + old + ", not 0 or a PE number + 1");
            }
        }
        s.p(claims, c.me, mine.size(), 0);
        s.barrierAll();
        for (int slot : mine) {
            long v = t.fetch(s, owner, slot, 0);
            if (v != c.me + 1) {
                c.fail(t.name + ": slot " + slot + " claimed by this PE holds " + v);
                break;
            }
        }
        if (c.me == 0) {
            long[] count = new long[c.npes];
            for (int slot = 0; slot < slots; slot++) {
                long v = t.local(owner, slot);
                if (v >= 1 && v <= c.npes) {
                    count[(int) v - 1]++;
                } else {
                    c.fail(t.name + ": slot " + slot + " is " + v + ": not claimed");
                }
            }
            long total = 0;
            for (int pe = 0; pe < c.npes; pe++) {
                c.checkEq(claims.get(pe), count[pe], t.name + ": slots holding PE " + pe + "'s mark vs the claims it counted");
                total += claims.get(pe);
            }
            c.checkEq(slots, total, t.name + ": claims of all PEs (a slot claimed twice or never?)");
        }
        s.barrierAll();
    }

    /** Each PE sets, toggles and clears its own bit of shared masks on PE 0 with and/or/xor. */
    static <S extends SymArray<?>> void bitwiseConcurrent(CaseContext c, AmoOps<S> t) {
        Shmem s = c.shmem;
        S mask = c.calloc(t.type, 3);
        long bit = 1L << (c.me % t.bits);
        long all = 0;
        for (int pe = 0; pe < c.npes; pe++) {
            all |= 1L << (pe % t.bits);
        }
        all = t.norm(all);
        if (c.me == 0) {
            t.setLocal(mask, 2, -1);
        }
        s.barrierAll();
        for (int round = 0; round < 100; round++) {
            t.or(s, mask, 0, bit, 0);
            t.fxor(s, mask, 1, bit, 0);
            t.and(s, mask, 2, ~bit, 0);
            t.f_or(s, mask, 2, bit, 0);
        }
        s.barrierAll();
        if (c.me == 0) {
            c.checkEq(all, t.local(mask, 0), t.name + ": or of every PE's bit");
            c.checkEq(0, t.local(mask, 1), t.name + ": every PE's bit xored 100 times");
            c.checkEq(-1, t.local(mask, 2), t.name + ": and-not then or of every PE's bit");
        }
        s.barrierAll();
        t.fand(s, mask, 0, ~bit, 0);
        s.barrierAll();
        if (c.me == 0) {
            c.checkEq(0, t.local(mask, 0), t.name + ": every PE cleared its bit with fetch_and");
        }
        s.barrierAll();
    }

    static void floats(CaseContext c) {
        Shmem s = c.shmem;
        SymFloatArray d = c.calloc(SymType.FLOAT, 4);
        int r = c.right();
        s.barrierAll();
        float v = 1.5f + c.me;
        s.atomicSet(d, 0, v, r);
        c.check(s.atomicFetch(d, 0, r) == v, "float: fetch after set");
        c.check(s.atomicSwap(d, 0, -0.0f, r) == v, "float: swap returns the old value");
        c.checkEq(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(s.atomicFetch(d, 0, r)), "float: -0.0 after swap (bits)");
        s.atomicSet(d, 1, Float.POSITIVE_INFINITY, r);
        c.check(s.atomicSwap(d, 1, Float.NaN, r) == Float.POSITIVE_INFINITY, "float: swap returns +infinity");
        c.check(Float.isNaN(s.atomicFetch(d, 1, r)), "float: NaN after swap");
        s.atomicSet(d, 2, Float.MIN_VALUE, r);
        float[] f = new float[3];
        s.atomicFetchNbi(f, 1, d, 2, r);
        s.atomicSwapNbi(f, 2, d, 3, 7.25f, r);
        s.quiet();
        c.check(f[1] == Float.MIN_VALUE, "float: fetch_nbi returned " + f[1]);
        c.check(f[2] == 0.0f, "float: swap_nbi returned " + f[2] + ", expected 0.0");
        c.check(f[0] == 0.0f, "float: fetch array element 0 changed");
        s.barrierAll();
        c.check(d.get(3) == 7.25f, "float: value after swap_nbi by the left neighbour: " + d.get(3));
        c.check(d.get(0) == 0.0f && 1 / d.get(0) < 0, "float: element 0 should be -0.0: " + d.get(0));
        s.barrierAll();
    }

    static void doubles(CaseContext c) {
        Shmem s = c.shmem;
        SymDoubleArray d = c.calloc(SymType.DOUBLE, 4);
        int r = c.right();
        s.barrierAll();
        double v = Math.PI * (c.me + 1);
        s.atomicSet(d, 0, v, r);
        c.check(s.atomicFetch(d, 0, r) == v, "double: fetch after set");
        c.check(s.atomicSwap(d, 0, -0.0, r) == v, "double: swap returns the old value");
        c.checkEq(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(s.atomicFetch(d, 0, r)), "double: -0.0 after swap (bits)");
        s.atomicSet(d, 1, Double.NEGATIVE_INFINITY, r);
        c.check(s.atomicSwap(d, 1, Double.NaN, r) == Double.NEGATIVE_INFINITY, "double: swap returns -infinity");
        c.check(Double.isNaN(s.atomicFetch(d, 1, r)), "double: NaN after swap");
        s.atomicSet(d, 2, Double.MAX_VALUE, r);
        double[] f = new double[3];
        s.atomicFetchNbi(f, 1, d, 2, r);
        s.atomicSwapNbi(f, 2, d, 3, -1e300, r);
        s.quiet();
        c.check(f[1] == Double.MAX_VALUE, "double: fetch_nbi returned " + f[1]);
        c.check(f[2] == 0.0, "double: swap_nbi returned " + f[2] + ", expected 0.0");
        c.check(f[0] == 0.0, "double: fetch array element 0 changed");
        s.barrierAll();
        c.check(d.get(3) == -1e300, "double: value after swap_nbi by the left neighbour: " + d.get(3));
        s.barrierAll();
    }
}
