/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SignalOp;
import io.jshmem.SymByteArray;
import io.jshmem.SymCharArray;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymFloatArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymShortArray;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;

/**
 * The program of the multi-PE UCX jobs ({@link UcxJobTest}); run under bin/oshrun with
 * SHMEM_TRANSPORT=ucx so that every peer goes through the transport. Argument:
 * <ul>
 *   <li>{@code all}: RMA of every size (heap arrays and native segments, blocking and nbi, up to
 *       5 MiB), p/g of every type, every AMO (64 and 32 bit, fetching or not, nbi forms), signals,
 *       fence and quiet ordering, barrier, sumReduce, broadcast, a lock-protected counter. Each
 *       PE prints "PE k: N checks passed" or the failures, and the job exits 0 only if all pass.</li>
 *   <li>{@code kill}: after a barrier, PE 1 kills itself with SIGKILL while the others keep
 *       reading from it: the job must end (non-zero) instead of hanging.</li>
 *   <li>{@code barriers}: init, 100 barriers, finalize (wire-up and teardown stress).</li>
 *   <li>{@code putsignal [am|rma]}: the puts with signal alone ({@link #putSignals}, also part of
 *       {@code all}); with an argument, first checks that the transport sends small ones as
 *       active messages ({@code am}) or not ({@code rma}).</li>
 *   <li>{@code stress [seconds]}: PE 0 drives rounds of 8-byte put+quiet, get and fetch_add
 *       to PE 1 while the others wait in a barrier, as the benchmarks do (a soak for stalls;
 *       run it with a small JSHMEM_UCX_TIMEOUT).</li>
 * </ul>
 */
public final class UcxCases {
    private final Shmem shmem;
    private final int me;
    private final int npes;
    private final int right;
    private final int left;
    private final Checks results;

    private UcxCases(Shmem shmem) {
        this.shmem = shmem;
        this.me = shmem.myPe();
        this.npes = shmem.nPes();
        this.right = (me + 1) % npes;
        this.left = (me - 1 + npes) % npes;
        this.results = new Checks(me);
    }

    public static void main(String[] args) throws Exception {
        String what = args.length > 0 ? args[0] : "all";
        try (Shmem shmem = Shmem.init()) {
            UcxCases c = new UcxCases(shmem);
            switch (what) {
                case "all" -> c.all();
                case "kill" -> c.kill();
                case "throw" -> c.throwMidJob();
                case "stress" -> c.stress(args.length > 1 ? Integer.parseInt(args[1]) : 60);
                case "early" -> c.early();
                case "putsignal" -> c.putSignalsAlone(args.length > 1 ? args[1] : null);
                case "barriers" -> {
                    for (int i = 0; i < 100; i++) {
                        shmem.barrierAll();
                    }
                }
                default -> throw new IllegalArgumentException("unknown case " + what);
            }
        }
    }

    private void check(boolean ok, String what) {
        results.check(ok, what);
    }

    private void checkEq(long expected, long actual, String what) {
        check(expected == actual, what + ": expected " + expected + ", got " + actual);
    }

    private void all() {
        rma();
        pg();
        amo64();
        amo32();
        amoFloat();
        signals();
        putSignals();
        ordering();
        collectives();
        lockCounter();
        shmem.barrierAll();
        SymLongArray total = shmem.calloc(SymType.LONG, 1);
        SymLongArray mine = shmem.calloc(SymType.LONG, 1);
        mine.set(0, results.failures());
        shmem.barrierAll();
        shmem.teamWorld().sumReduce(total, mine, 1);
        long all = total.get(0);
        System.out.println(results.summary());
        shmem.barrierAll();
        if (all != 0) {
            if (me == 0) {
                System.out.println("FAILED: " + all + " failed checks in the job");
            }
            shmem.barrierAll();
            shmem.globalExit(1);
        }
    }

    // ---------------------------------------------------------------- RMA

    private static final int[] SIZES = {1, 2, 3, 7, 8, 15, 16, 64, 255, 1000, 4096, 8191, 65536, 100_000, 1 << 20, 5 << 20};

    private static byte pattern(int pe, int size, int i) {
        return (byte) (pe * 31 + size * 7 + i * 13 + (i >> 8));
    }

    private void rma() {
        int max = SIZES[SIZES.length - 1];
        SymByteArray dst = shmem.calloc(SymType.BYTE, max);
        SymByteArray src = shmem.calloc(SymType.BYTE, max);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(max, 64);
            for (int variant = 0; variant < 4; variant++) {
                boolean heapArray = (variant & 1) == 0;
                boolean nbi = (variant & 2) != 0;
                String kind = (heapArray ? "array" : "segment") + (nbi ? " nbi" : "");
                for (int size : SIZES) {
                    // put to the right neighbour
                    byte[] b = new byte[size];
                    for (int i = 0; i < size; i++) {
                        b[i] = pattern(me, size, i + variant);
                    }
                    if (heapArray) {
                        if (nbi) {
                            shmem.putNbi(dst, 0, b, 0, size, right);
                            Arrays.fill(b, (byte) 0); // the array may be reused at once
                        } else {
                            shmem.put(dst, 0, b, 0, size, right);
                        }
                    } else {
                        MemorySegment s = nat.asSlice(0, size);
                        MemorySegment.copy(b, 0, s, ValueLayout.JAVA_BYTE, 0, size);
                        if (nbi) {
                            shmem.putmemNbi(dst, 0, s, right);
                        } else {
                            shmem.putmem(dst, 0, s, right);
                        }
                    }
                    shmem.barrierAll();
                    int bad = -1;
                    for (int i = 0; i < size && bad < 0; i++) {
                        if (dst.local().get(ValueLayout.JAVA_BYTE, i) != pattern(left, size, i + variant)) {
                            bad = i;
                        }
                    }
                    check(bad < 0, "put " + kind + " " + size + " B: byte " + bad + " wrong");

                    // get from the right neighbour's src
                    for (int i = 0; i < size; i++) {
                        src.local().set(ValueLayout.JAVA_BYTE, i, pattern(me + 100, size, i + variant));
                    }
                    shmem.barrierAll();
                    byte[] got = new byte[size];
                    if (heapArray) {
                        if (nbi) {
                            shmem.getNbi(got, 0, src, 0, size, right);
                            shmem.quiet();
                        } else {
                            shmem.get(got, 0, src, 0, size, right);
                        }
                    } else {
                        MemorySegment d = nat.asSlice(0, size);
                        d.fill((byte) 0);
                        if (nbi) {
                            shmem.getmemNbi(d, src, 0, right);
                            shmem.quiet();
                        } else {
                            shmem.getmem(d, src, 0, right);
                        }
                        MemorySegment.copy(d, ValueLayout.JAVA_BYTE, 0, got, 0, size);
                    }
                    bad = -1;
                    for (int i = 0; i < size && bad < 0; i++) {
                        if (got[i] != pattern(right + 100, size, i + variant)) {
                            bad = i;
                        }
                    }
                    check(bad < 0, "get " + kind + " " + size + " B: byte " + bad + " wrong");
                    shmem.barrierAll();
                }
            }
        }
        // Typed arrays at an unaligned element offset.
        SymLongArray longs = shmem.calloc(SymType.LONG, 100);
        long[] lv = new long[37];
        for (int i = 0; i < lv.length; i++) {
            lv[i] = (long) me << 40 | i;
        }
        shmem.put(longs, 3, lv, 0, lv.length, right);
        shmem.barrierAll();
        boolean ok = true;
        for (int i = 0; i < lv.length; i++) {
            ok &= longs.get(3 + i) == ((long) left << 40 | i);
        }
        check(ok, "put long[] at element 3");
        long[] back = new long[37];
        shmem.get(back, 0, longs, 3, 37, right);
        ok = true;
        for (int i = 0; i < back.length; i++) {
            ok &= back[i] == ((long) me << 40 | i);
        }
        check(ok, "get long[] back from the neighbour");
        shmem.barrierAll();
        shmem.free(longs);
        shmem.free(src);
        shmem.free(dst);
    }

    private void pg() {
        SymLongArray l = shmem.calloc(SymType.LONG, npes);
        SymIntArray i = shmem.calloc(SymType.INT, npes);
        SymShortArray s = shmem.calloc(SymType.SHORT, npes);
        SymByteArray b = shmem.calloc(SymType.BYTE, npes);
        SymCharArray c = shmem.calloc(SymType.CHAR, npes);
        SymFloatArray f = shmem.calloc(SymType.FLOAT, npes);
        SymDoubleArray d = shmem.calloc(SymType.DOUBLE, npes);
        shmem.p(l, me, -1234567890123L - me, right);
        shmem.p(i, me, -123456 - me, right);
        shmem.p(s, me, (short) (-1234 - me), right);
        shmem.p(b, me, (byte) (-12 - me), right);
        shmem.p(c, me, (char) (0xFFF0 + me), right);
        shmem.p(f, me, 1.5f + me, right);
        shmem.p(d, me, -2.25 - me, right);
        shmem.barrierAll();
        checkEq(-1234567890123L - left, l.get(left), "p long");
        checkEq(-123456 - left, i.get(left), "p int");
        checkEq(-1234 - left, s.get(left), "p short");
        checkEq(-12 - left, b.get(left), "p byte");
        checkEq(0xFFF0 + left, c.get(left), "p char");
        check(f.get(left) == 1.5f + left, "p float");
        check(d.get(left) == -2.25 - left, "p double");
        // g: read back what this PE wrote to its right neighbour (sign extension of narrow types).
        checkEq(-1234567890123L - me, shmem.g(l, me, right), "g long");
        checkEq(-123456 - me, shmem.g(i, me, right), "g int");
        checkEq(-1234 - me, shmem.g(s, me, right), "g short");
        checkEq(-12 - me, shmem.g(b, me, right), "g byte");
        checkEq(0xFFF0 + me, shmem.g(c, me, right), "g char");
        check(shmem.g(f, me, right) == 1.5f + me, "g float");
        check(shmem.g(d, me, right) == -2.25 - me, "g double");
        shmem.barrierAll();
    }

    // ---------------------------------------------------------------- AMO

    private void amo64() {
        SymLongArray a = shmem.calloc(SymType.LONG, npes);
        int t = right;
        long k = me;
        String w = "long amo on PE " + t + ": ";
        shmem.atomicSet(a, k, 0x1234_5678_9ABC_DEF0L, t);
        checkEq(0x1234_5678_9ABC_DEF0L, shmem.atomicFetch(a, k, t), w + "set/fetch");
        checkEq(0x1234_5678_9ABC_DEF0L, shmem.atomicSwap(a, k, 5, t), w + "swap old");
        checkEq(5, shmem.atomicCompareSwap(a, k, 4, 99, t), w + "cswap (no match) old");
        checkEq(5, shmem.atomicFetch(a, k, t), w + "cswap (no match) left the value");
        checkEq(5, shmem.atomicCompareSwap(a, k, 5, -7, t), w + "cswap (match) old");
        checkEq(-7, shmem.atomicFetch(a, k, t), w + "cswap (match) stored");
        checkEq(-7, shmem.atomicFetchInc(a, k, t), w + "fetch_inc");
        shmem.atomicInc(a, k, t);
        checkEq(-5, shmem.atomicFetchAdd(a, k, 1L << 40, t), w + "fetch_add");
        shmem.atomicAdd(a, k, 5, t);
        checkEq(1L << 40, shmem.atomicFetch(a, k, t), w + "add");
        shmem.atomicSet(a, k, 0xF0F0_F0F0_F0F0_F0F0L, t);
        checkEq(0xF0F0_F0F0_F0F0_F0F0L, shmem.atomicFetchAnd(a, k, 0xFF00_FF00_FF00_FF00L, t), w + "fetch_and");
        shmem.atomicAnd(a, k, 0x0FFF_FFFF_FFFF_FFF0L, t);
        checkEq(0xF000_F000_F000_F000L & 0x0FFF_FFFF_FFFF_FFF0L, shmem.atomicFetchOr(a, k, 0x1, t), w + "and + fetch_or");
        shmem.atomicOr(a, k, 0x8000_0000_0000_0000L, t);
        checkEq(0x8000_F000_F000_F001L, shmem.atomicFetchXor(a, k, -1L, t), w + "or + fetch_xor");
        shmem.atomicXor(a, k, 0xFFL, t);
        checkEq(~0x8000_F000_F000_F001L ^ 0xFFL, shmem.atomicFetch(a, k, t), w + "xor");
        // nbi forms
        long[] fetch = new long[4];
        shmem.atomicSet(a, k, 10, t);
        shmem.atomicFetchNbi(fetch, 0, a, k, t);
        shmem.atomicFetchAddNbi(fetch, 1, a, k, 5, t);
        shmem.atomicCompareSwapNbi(fetch, 2, a, k, 15, 20, t);
        shmem.atomicSwapNbi(fetch, 3, a, k, 30, t);
        shmem.quiet();
        check(Arrays.equals(new long[] {10, 10, 15, 20}, fetch), w + "nbi fetches " + Arrays.toString(fetch));
        // Contention: every PE adds to PE 0's word.
        SymLongArray sum = shmem.calloc(SymType.LONG, 1);
        for (int i = 0; i < 200; i++) {
            if ((i & 1) == 0) {
                shmem.atomicAdd(sum, 0, i + 1, 0);
            } else {
                shmem.atomicFetchAdd(sum, 0, i + 1, 0);
            }
        }
        shmem.barrierAll();
        if (me == 0) {
            checkEq(npes * 200L * 201 / 2, sum.get(0), "contended 64-bit adds on PE 0");
        }
        shmem.barrierAll();
        checkEq(30, a.get(left), "word swapped by the left neighbour");
        shmem.barrierAll();
    }

    private void amo32() {
        SymIntArray a = shmem.calloc(SymType.INT, npes + 1);
        int t = right;
        long k = me;
        String w = "int amo on PE " + t + ": ";
        shmem.atomicSet(a, k, 0x9ABC_DEF0, t);
        checkEq(0x9ABC_DEF0, shmem.atomicFetch(a, k, t), w + "set/fetch");
        checkEq(0x9ABC_DEF0, shmem.atomicSwap(a, k, 5, t), w + "swap old");
        checkEq(5, shmem.atomicCompareSwap(a, k, 4, 99, t), w + "cswap (no match) old");
        checkEq(5, shmem.atomicCompareSwap(a, k, 5, -7, t), w + "cswap (match) old");
        checkEq(-7, shmem.atomicFetchInc(a, k, t), w + "fetch_inc");
        shmem.atomicInc(a, k, t);
        checkEq(-5, shmem.atomicFetchAdd(a, k, 1 << 20, t), w + "fetch_add");
        shmem.atomicAdd(a, k, 5, t);
        checkEq(1 << 20, shmem.atomicFetch(a, k, t), w + "add");
        shmem.atomicSet(a, k, 0xF0F0_F0F0, t);
        checkEq(0xF0F0_F0F0, shmem.atomicFetchAnd(a, k, 0xFF00_FF00, t), w + "fetch_and");
        shmem.atomicAnd(a, k, 0x0FFF_FFF0, t);
        checkEq(0xF000_F000 & 0x0FFF_FFF0, shmem.atomicFetchOr(a, k, 1, t), w + "and + fetch_or");
        shmem.atomicOr(a, k, 0x8000_0000, t);
        checkEq(0x8000_F001, shmem.atomicFetchXor(a, k, -1, t), w + "or + fetch_xor");
        shmem.atomicXor(a, k, 0xFF, t);
        checkEq(~0x8000_F001 ^ 0xFF, shmem.atomicFetch(a, k, t), w + "xor");
        // The neighbouring 32-bit word must be untouched by 32-bit atomics.
        checkEq(0, shmem.atomicFetch(a, npes, t), w + "next word untouched");
        int[] fetch = new int[2];
        shmem.atomicSet(a, k, 10, t);
        shmem.atomicFetchIncNbi(fetch, 0, a, k, t);
        shmem.atomicFetchNbi(fetch, 1, a, k, t);
        shmem.quiet();
        check(Arrays.equals(new int[] {10, 11}, fetch), w + "nbi fetches " + Arrays.toString(fetch));
        SymIntArray sum = shmem.calloc(SymType.INT, 1);
        for (int i = 0; i < 200; i++) {
            shmem.atomicAdd(sum, 0, 3, npes - 1);
        }
        shmem.barrierAll();
        if (me == npes - 1) {
            checkEq(npes * 600L, sum.get(0), "contended 32-bit adds on PE " + (npes - 1));
        }
        shmem.barrierAll();
    }

    private void amoFloat() {
        SymDoubleArray d = shmem.calloc(SymType.DOUBLE, npes);
        SymFloatArray f = shmem.calloc(SymType.FLOAT, npes);
        shmem.atomicSet(d, me, 3.25, right);
        check(shmem.atomicSwap(d, me, -1.5, right) == 3.25, "double swap");
        check(shmem.atomicFetch(d, me, right) == -1.5, "double fetch");
        shmem.atomicSet(f, me, 2.5f, right);
        check(shmem.atomicSwap(f, me, -0.5f, right) == 2.5f, "float swap");
        check(shmem.atomicFetch(f, me, right) == -0.5f, "float fetch");
        shmem.barrierAll();
    }

    // ---------------------------------------------------------------- signals and ordering

    private void signals() {
        int n = 10_000;
        SymLongArray data = shmem.calloc(SymType.LONG, n);
        SymLongArray sig = shmem.calloc(SymType.LONG, 2);
        shmem.barrierAll();
        for (int round = 1; round <= 5; round++) {
            long[] v = new long[n];
            for (int i = 0; i < n; i++) {
                v[i] = round * 1_000_000L + me * 10_000L + i;
            }
            shmem.putSignal(data, 0, v, 0, n, sig, 0, round, SignalOp.SET, right);
            shmem.signalWaitUntil(sig, 0, Cmp.GE, round);
            boolean ok = true;
            for (int i = 0; i < n; i++) {
                ok &= data.get(i) == round * 1_000_000L + left * 10_000L + i;
            }
            check(ok, "putSignal SET round " + round + ": data visible with the signal");
            shmem.barrierAll();
        }
        // ADD signals from every PE to PE 0.
        long[] one = {me};
        shmem.putSignal(data, me, one, 0, 1, sig, 1, 1, SignalOp.ADD, 0);
        if (me == 0) {
            shmem.signalWaitUntil(sig, 1, Cmp.EQ, npes);
            boolean ok = true;
            for (int pe = 0; pe < npes; pe++) {
                ok &= data.get(pe) == pe;
            }
            check(ok, "putSignal ADD from every PE");
        }
        shmem.barrierAll();
        shmem.signalSet(sig, 0, 77, right);
        shmem.signalAdd(sig, 0, 3, right);
        shmem.quiet();
        shmem.barrierAll();
        checkEq(80, shmem.signalFetch(sig, 0), "signalSet + signalAdd");
        shmem.barrierAll();
    }

    private void putSignalsAlone(String expected) {
        if (expected != null) {
            boolean am = WireUp.last.wiring.amPutSignal();
            check(am == expected.equals("am"), "puts with signal as active messages: " + am + ", expected " + expected);
        }
        putSignals();
        shmem.barrierAll();
        createdContextsEndpoint(expected);
        System.out.println(results.summary());
        if (results.failures() != 0) {
            shmem.globalExit(1);
        }
    }

    /**
     * A created context's endpoint is checked for one lane like the main channel's: its flag is set
     * where puts with signal go as messages (one TCP interface), and a put with signal through that
     * context (one message then) arrives with its signal.
     */
    private void createdContextsEndpoint(String expected) {
        SymLongArray words = shmem.calloc(SymType.LONG, 2);
        shmem.barrierAll();
        UcxTransport ctx = (UcxTransport) WireUp.last.openContext(0);
        try {
            boolean one = ctx.main.oneLane(right);
            if (expected != null) {
                check(one == expected.equals("am"), "a created context's endpoint to PE " + right + " one lane: " + one + ", expected "
                        + expected.equals("am"));
            }
            try (Arena a = Arena.ofConfined()) {
                MemorySegment v = a.allocate(8);
                v.set(ValueLayout.JAVA_LONG, 0, 1000L + me);
                long at = words.local().address() - WireUp.last.job.mine.base(); // the same offset on every PE
                ctx.putSignal(right, at, v, at + 8, 42, io.jshmem.core.transport.AmoOp.SET, false);
                ctx.quiet();
            }
        } finally {
            ctx.close();
        }
        shmem.barrierAll();
        checkEq(1000L + left, words.get(0), "a created context's put with signal: the data");
        checkEq(42, words.get(1), "a created context's put with signal: the signal");
        shmem.barrierAll();
        shmem.free(words);
    }

    /**
     * Put-with-signal sizes around {@link PushSends#AM_PUT_SIGNAL_MAX} (64 KiB; active messages up to
     * it, put + atomic above) and around UCX's TCP segment (8 KiB: one fragment or several).
     */
    private static final int[] SIGNAL_SIZES = {0, 1, 8, 1000, 8191, 8193, 65_535, 65_536, 65_537, 100_000};

    /**
     * Puts with signal to the right neighbour: every size of {@link #SIGNAL_SIZES}, SET and ADD,
     * from a Java array and from a native segment, blocking and nbi, each checked when the signal
     * is seen; a put ordered before a put-with-signal by a fence; quiet completing puts with signal
     * (read back with gets); several threads at once, each on a context of its own and one on the
     * default context; and a closed source segment failing before anything is sent.
     */
    void putSignals() {
        int max = SIGNAL_SIZES[SIGNAL_SIZES.length - 1];
        SymByteArray data = shmem.calloc(SymType.BYTE, max);
        SymLongArray sig = shmem.calloc(SymType.LONG, 8);
        shmem.barrierAll();
        long seq = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(max, 64);
            for (int variant = 0; variant < 4; variant++) {
                boolean segment = (variant & 1) != 0;
                boolean nbi = (variant & 2) != 0;
                for (int size : SIGNAL_SIZES) {
                    for (SignalOp op : new SignalOp[] {SignalOp.SET, SignalOp.ADD}) {
                        seq++;
                        String what = "putSignal" + (nbi ? "Nbi " : " ") + op + " of " + size + " B from " + (segment ? "a segment" : "an array");
                        byte[] b = new byte[size];
                        for (int i = 0; i < size; i++) {
                            b[i] = pattern(me, size, i + (int) seq);
                        }
                        // SET writes the sequence number, ADD adds 1 to the previous one: the same value either way.
                        long operand = op == SignalOp.SET ? seq : 1;
                        if (segment) {
                            MemorySegment src = nat.asSlice(0, size);
                            MemorySegment.copy(b, 0, src, ValueLayout.JAVA_BYTE, 0, size);
                            if (nbi) {
                                shmem.putSignalNbi(data, 0, src, sig, 0, operand, op, right);
                            } else {
                                shmem.putSignal(data, 0, src, sig, 0, operand, op, right);
                            }
                            nat.fill((byte) 0); // the source may be reused on return
                        } else if (nbi) {
                            shmem.putSignalNbi(data, 0, b, 0, size, sig, 0, operand, op, right);
                        } else {
                            shmem.putSignal(data, 0, b, 0, size, sig, 0, operand, op, right);
                        }
                        shmem.signalWaitUntil(sig, 0, Cmp.EQ, seq);
                        boolean ok = true;
                        for (int i = 0; i < size; i++) {
                            ok &= data.get(i) == pattern(left, size, i + (int) seq);
                        }
                        check(ok, what + ": the data is there when the signal is");
                        shmem.barrierAll(); // nobody overwrites data still being checked
                    }
                }
            }
            // fence: an earlier put (large: RMA; small: one message too) is visible when the signal is.
            for (int round = 1; round <= 10; round++) {
                int size = round % 2 == 0 ? 64 << 10 : 100;
                byte[] big = new byte[size];
                Arrays.fill(big, (byte) (round + me));
                SymByteArray early = shmem.calloc(SymType.BYTE, 64 << 10);
                shmem.put(early, 0, big, 0, size, right);
                shmem.fence();
                shmem.putSignal(data, 0, new byte[] {(byte) round}, 0, 1, sig, 1, round, SignalOp.SET, right);
                shmem.signalWaitUntil(sig, 1, Cmp.EQ, round);
                boolean ok = data.get(0) == (byte) round;
                for (int i = 0; i < size; i++) {
                    ok &= early.get(i) == (byte) (round + left);
                }
                check(ok, "fence: a put of " + size + " B before a put-with-signal is visible with the signal, round " + round);
                shmem.barrierAll();
                shmem.free(early);
            }
            // quiet: after it the target's memory holds the data and the signal (read back with gets).
            for (int round = 1; round <= 10; round++) {
                byte[] b = new byte[100];
                Arrays.fill(b, (byte) (round * 3 + me));
                shmem.putSignalNbi(data, 0, b, 0, b.length, sig, 2, round, SignalOp.SET, right);
                shmem.putSignalNbi(data, 200, b, 0, b.length, sig, 3, 2, SignalOp.ADD, right);
                shmem.quiet();
                byte[] back = new byte[100];
                shmem.get(back, 0, data, 200, back.length, right);
                checkEq(round, shmem.g(sig, 2, right), "quiet completes a SET put-with-signal, round " + round);
                checkEq(2L * round, shmem.g(sig, 3, right), "quiet completes an ADD put-with-signal, round " + round);
                check(Arrays.equals(b, back), "quiet completes a put-with-signal's data, round " + round);
                shmem.barrierAll();
            }
            // A closed source fails as on shared memory (IllegalStateException), before anything is sent.
            MemorySegment closed;
            try (Arena a = Arena.ofConfined()) {
                closed = a.allocate(8);
            }
            long before = shmem.g(sig, 4, right);
            try {
                shmem.putSignal(data, 0, closed, sig, 4, 99, SignalOp.SET, right);
                check(false, "putSignal of a closed segment threw nothing");
            } catch (IllegalStateException expected) {
                check(true, "putSignal of a closed segment");
            }
            shmem.quiet();
            checkEq(before, shmem.g(sig, 4, right), "a failed putSignal sent no signal");
        }
        shmem.barrierAll();
        threadsPutSignal(data, sig);
        shmem.free(sig);
        shmem.free(data);
    }

    /**
     * Three threads add to the right neighbour's signal words at once, with data: two on contexts of
     * their own, one on the default context; the neighbour waits for the sums.
     */
    private void threadsPutSignal(SymByteArray data, SymLongArray sig) {
        SymLongArray sums = shmem.calloc(SymType.LONG, 3);
        SymLongArray slots = shmem.calloc(SymType.LONG, 3 * 1000);
        shmem.barrierAll();
        int iters = 300;
        Thread[] threads = new Thread[3];
        Throwable[] failed = new Throwable[3];
        for (int t = 0; t < 3; t++) {
            int id = t;
            threads[t] = new Thread(() -> {
                try {
                    io.jshmem.ShmemContext ctx = id < 2 ? shmem.ctxCreate(id == 0 ? Shmem.CTX_PRIVATE : 0) : null;
                    try {
                        for (int i = 1; i <= iters; i++) {
                            long[] v = {id * 1_000_000L + i};
                            if (ctx != null) {
                                ctx.putSignal(slots, id * 1000L + i, v, 0, 1, sums, id, i, SignalOp.ADD, right);
                            } else {
                                shmem.putSignal(slots, id * 1000L + i, v, 0, 1, sums, id, i, SignalOp.ADD, right);
                            }
                        }
                        if (ctx != null) {
                            ctx.quiet();
                        }
                    } finally {
                        if (ctx != null) {
                            ctx.close();
                        }
                    }
                } catch (Throwable e) {
                    failed[id] = e;
                }
            });
            threads[t].start();
        }
        long expected = (long) iters * (iters + 1) / 2;
        for (int t = 0; t < 3; t++) {
            shmem.signalWaitUntil(sums, t, Cmp.EQ, expected);
            boolean ok = true;
            for (int i = 1; i <= iters; i++) {
                ok &= slots.get(t * 1000L + i) == t * 1_000_000L + i;
            }
            check(ok, "thread " + t + (t < 2 ? " (own context)" : " (default context)") + ": every put-with-signal's data");
        }
        for (int t = 0; t < 3; t++) {
            try {
                threads[t].join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            check(failed[t] == null, "thread " + t + " failed: " + failed[t]);
        }
        shmem.barrierAll();
        shmem.free(slots);
        shmem.free(sums);
    }

    private void ordering() {
        int n = 4096;
        SymLongArray data = shmem.calloc(SymType.LONG, n);
        SymLongArray flag = shmem.calloc(SymType.LONG, 1);
        shmem.barrierAll();
        for (int round = 1; round <= 20; round++) {
            long[] v = new long[n];
            Arrays.fill(v, round * 1000L + me);
            shmem.put(data, 0, v, 0, n, right);
            shmem.fence();
            shmem.p(flag, 0, round, right);
            shmem.waitUntil(flag, 0, Cmp.GE, round);
            boolean ok = true;
            for (int i = 0; i < n; i++) {
                ok &= data.get(i) == round * 1000L + left;
            }
            check(ok, "fence: data before flag, round " + round);
            shmem.barrierAll();
        }
        // quiet: after it, the put is visible to a get by this PE.
        for (int round = 1; round <= 20; round++) {
            shmem.p(data, me % n, -round, right);
            shmem.quiet();
            checkEq(-round, shmem.g(data, me % n, right), "quiet then g sees the p, round " + round);
        }
        // nbi puts of a native segment complete at quiet.
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(8L * n, 8);
            for (int i = 0; i < n; i++) {
                s.setAtIndex(ValueLayout.JAVA_LONG, i, me * 7L + i);
            }
            for (int i = 0; i < n; i += 256) {
                shmem.putmemNbi(data, 8L * i, s.asSlice(8L * i, 8L * 256), right);
            }
            shmem.quiet();
            long[] back = new long[n];
            shmem.get(back, 0, data, 0, n, right);
            boolean ok = true;
            for (int i = 0; i < n; i++) {
                ok &= back[i] == me * 7L + i;
            }
            check(ok, "nbi puts complete at quiet");
            shmem.barrierAll();
        }
    }

    // ---------------------------------------------------------------- collectives and locks

    private void collectives() {
        ShmemTeam world = shmem.teamWorld();
        SymLongArray src = shmem.calloc(SymType.LONG, 1000);
        SymLongArray dst = shmem.calloc(SymType.LONG, 1000);
        for (int i = 0; i < 1000; i++) {
            src.set(i, me * 1000L + i);
        }
        shmem.barrierAll();
        world.sumReduce(dst, src, 1000);
        boolean ok = true;
        for (int i = 0; i < 1000; i++) {
            ok &= dst.get(i) == 1000L * npes * (npes - 1) / 2 + (long) npes * i;
        }
        check(ok, "sumReduce of 1000 longs");
        int root = npes - 1;
        SymDoubleArray bs = shmem.calloc(SymType.DOUBLE, 300);
        SymDoubleArray bd = shmem.calloc(SymType.DOUBLE, 300);
        for (int i = 0; i < 300; i++) {
            bs.set(i, me == root ? i * 0.5 : -1);
        }
        shmem.barrierAll();
        world.broadcast(bd, bs, 300, root);
        ok = true;
        for (int i = 0; i < 300; i++) {
            ok &= bd.get(i) == i * 0.5;
        }
        check(ok, "broadcast of 300 doubles from PE " + root);
        for (int i = 0; i < 20; i++) {
            shmem.barrierAll();
        }
        check(true, "20 barriers");
        shmem.barrierAll();
    }

    private void lockCounter() {
        SymLongArray lock = shmem.calloc(SymType.LONG, 1);
        SymLongArray counter = shmem.calloc(SymType.LONG, 1);
        int rounds = 50;
        for (int i = 0; i < rounds; i++) {
            shmem.setLock(lock, 0);
            long v = shmem.g(counter, 0, 0);
            shmem.p(counter, 0, v + 1, 0);
            shmem.clearLock(lock, 0);
        }
        boolean got = false;
        for (int i = 0; i < 1000 && !got; i++) {
            got = shmem.testLock(lock, 0);
        }
        if (got) {
            long v = shmem.g(counter, 0, 0);
            shmem.p(counter, 0, v + 1, 0);
            shmem.clearLock(lock, 0);
        }
        SymLongArray gotten = shmem.calloc(SymType.LONG, 1);
        SymLongArray sum = shmem.calloc(SymType.LONG, 1);
        gotten.set(0, got ? 1 : 0);
        shmem.barrierAll();
        shmem.teamWorld().sumReduce(sum, gotten, 1);
        checkEq((long) npes * rounds + sum.get(0), shmem.g(counter, 0, 0), "lock-protected counter on PE 0");
        shmem.barrierAll();
    }

    // ---------------------------------------------------------------- soak

    private void stress(int seconds) {
        SymLongArray w = shmem.calloc(SymType.LONG, 8);
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long rounds = 0;
        long ops = 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = arena.allocate(8, 8);
            while (true) {
                SymLongArray flag = w;
                long stop = me == 0 && System.nanoTime() > end ? 1 : 0;
                if (me == 0) {
                    flag.set(7, stop);
                }
                shmem.barrierAll();
                if (shmem.g(flag, 7, 0) != 0) {
                    break;
                }
                shmem.barrierAll();
                if (me == 0) {
                    int kind = (int) (rounds / 20 % 3); // phases of 10 000 operations, as the benchmarks
                    for (int i = 0; i < 500; i++, ops++) {
                        switch (kind) {
                            case 0 -> {
                                shmem.putmem(w, 0, small, 1);
                                shmem.quiet();
                            }
                            case 1 -> shmem.getmem(small, w, 0, 1);
                            default -> shmem.atomicFetchAdd(w, 1, 1, 1);
                        }
                    }
                }
                rounds++;
            }
        }
        if (me == 0) {
            System.out.println("PE 0: stress: " + rounds + " rounds, " + ops + " operations");
        }
    }

    /** The first two phases of UcxBench right after init: 8-byte put+quiet reps, then get reps. */
    private void early() {
        SymLongArray w = shmem.calloc(SymType.LONG, 8);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment small = arena.allocate(8, 8);
            for (int kind = 0; kind < 2; kind++) {
                for (int rep = 0; rep < 5; rep++) {
                    shmem.barrierAll();
                    if (me == 0) {
                        for (int i = 0; i < 2000; i++) {
                            if (kind == 0) {
                                shmem.putmem(w, 0, small, 1);
                                shmem.quiet();
                            } else {
                                shmem.getmem(small, w, 0, 1);
                            }
                        }
                    }
                    shmem.barrierAll();
                }
            }
        }
    }

    // ---------------------------------------------------------------- failure

    private void kill() throws Exception {
        SymLongArray a = shmem.calloc(SymType.LONG, 1024);
        shmem.barrierAll();
        if (me == 1) {
            killItself(me);
            return;
        }
        long[] buf = new long[1024];
        long start = System.nanoTime();
        for (long i = 0; ; i++) {
            shmem.get(buf, 0, a, 0, buf.length, 1);
            shmem.atomicFetchAdd(a, 0, 1, 1);
            if (System.nanoTime() - start > 120_000_000_000L) {
                System.out.println("PE " + me + ": still running after 120 s");
                return;
            }
        }
    }

    /** SIGKILLs this PE (after saying so), as a crash would end it. */
    static void killItself(int me) throws Exception {
        System.out.println("PE " + me + ": killing itself");
        System.out.flush();
        new ProcessBuilder("kill", "-KILL", Long.toString(ProcessHandle.current().pid())).inheritIO().start().waitFor();
        Thread.sleep(60_000);
    }

    /** PE 1 fails with an exception while its non-blocking puts are outstanding; the others wait in a barrier. */
    private void throwMidJob() {
        SymLongArray a = shmem.calloc(SymType.LONG, 1 << 17);
        shmem.barrierAll();
        if (me == 1) {
            // The source stays allocated: UCX may still read it until the exit releases UCX (freed
            // under outstanding puts, the progress thread's memcpy could fault: the test's bug, not ours).
            java.lang.foreign.MemorySegment buf = java.lang.foreign.Arena.global().allocate(8L << 17);
            for (int i = 0; i < 8; i++) {
                shmem.putmemNbi(a, 0, buf, 0);
            }
            throw new IllegalStateException("PE 1 fails on purpose");
        }
        shmem.barrierAll();
    }
}
