/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemCtx;
import io.jshmem.ShmemTeam;
import io.jshmem.SignalOp;
import io.jshmem.SymArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Zero-length transfers (OpenSHMEM allows nelems = 0 everywhere): every RMA, nbi, strided, signal
 * and collective form with 0 elements or bytes, from and into empty Java arrays and segments, at
 * the start and at the end of a symmetric object, to this PE and to a neighbour (through the
 * transport when one is used), on the default context, created contexts and split teams. They
 * must change nothing and throw nothing.
 */
final class ZeroLengthCases {
    private ZeroLengthCases() {
    }

    /** Value every element of a destination holds before zero-length operations (must stay). */
    private static final long SENTINEL = 0x5A;

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (SymType<?> t : Elements.TYPES) {
            cases.add(Case.of("zero.rma." + t.name(), c -> zeroRma(c, t)));
        }
        cases.add(Case.of("zero.rma-on-contexts", ZeroLengthCases::zeroOnContexts));
        cases.add(Case.of("zero.signal", ZeroLengthCases::zeroSignal));
        for (SymType<?> t : List.of(SymType.LONG, SymType.INT, SymType.DOUBLE, SymType.BYTE)) {
            cases.add(Case.of("zero.collectives." + t.name(), c -> zeroCollectives(c, t)));
        }
        cases.add(Case.atLeast(2, "zero.collectives-on-split-team", ZeroLengthCases::zeroOnSplitTeam));
        return cases;
    }

    // ---------------------------------------------------------------- helpers

    static Object array(SymType<?> t, int n) {
        return switch (t.kind()) {
            case LONG -> new long[n];
            case INT -> new int[n];
            case SHORT -> new short[n];
            case BYTE -> new byte[n];
            case CHAR -> new char[n];
            case FLOAT -> new float[n];
            case DOUBLE -> new double[n];
        };
    }

    private static Object sentinelArray(SymType<?> t, int n) {
        Object a = array(t, n);
        for (int i = 0; i < n; i++) {
            java.lang.reflect.Array.set(a, i, boxed(t, SENTINEL + i));
        }
        return a;
    }

    private static Object boxed(SymType<?> t, long v) {
        return switch (t.kind()) {
            case LONG -> v;
            case INT -> (int) v;
            case SHORT -> (short) v;
            case BYTE -> (byte) v;
            case CHAR -> (char) v;
            case FLOAT -> (float) v;
            case DOUBLE -> (double) v;
        };
    }

    /** Every element still holds what {@link #setSentinels} stored: SENTINEL + i of the array's type. */
    private static void checkUntouched(CaseContext c, SymArray<?> a, String what) {
        for (long i = 0; i < a.length(); i++) {
            long want = bits(a.type(), SENTINEL + i);
            long got = Elements.get(a, i);
            if (got != want) {
                c.fail(what + ": element " + i + " changed to " + got + " (expected " + want + ")");
                return;
            }
        }
    }

    private static long bits(SymType<?> t, long v) {
        MemorySegment m = MemorySegment.ofArray(new long[1]);
        Elements.set(m, t, 0, t == SymType.FLOAT ? Float.floatToRawIntBits((float) v)
                : t == SymType.DOUBLE ? Double.doubleToRawLongBits((double) v) : v);
        return Elements.get(m, t, 0);
    }

    private static void setSentinels(SymArray<?> a) {
        for (long i = 0; i < a.length(); i++) {
            Elements.set(a, i, bits(a.type(), SENTINEL + i));
        }
    }

    private static void checkArray(CaseContext c, SymType<?> t, Object arr, String what) {
        for (int i = 0; i < java.lang.reflect.Array.getLength(arr); i++) {
            Object want = boxed(t, SENTINEL + i);
            Object got = java.lang.reflect.Array.get(arr, i);
            if (!want.equals(got)) {
                c.fail(what + ": local element " + i + " changed to " + got);
                return;
            }
        }
    }

    interface Op {
        void run();
    }

    /** Runs a zero-length operation, which must not throw. */
    static void noThrow(CaseContext c, String what, Op op) {
        try {
            op.run();
        } catch (Throwable e) {
            c.fail(what + " threw " + CaseContext.describe(e));
        }
    }

    // ---------------------------------------------------------------- zero-length transfers

    /** Every RMA form with 0 elements, to the right neighbour and to this PE: nothing changes, nothing throws. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void zeroRma(CaseContext c, SymType<?> t) {
        Shmem s = c.shmem;
        SymArray dest = c.calloc(t, 4);
        setSentinels(dest);
        s.barrierAll();
        zeroRmaOn(c, s, t, dest, new int[] {c.right(), c.me}, "");
        s.barrierAll();
        checkUntouched(c, dest, t.name() + " symmetric destination");
        s.barrierAll();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void zeroRmaOn(CaseContext c, ShmemCtx s, SymType<?> t, SymArray dest, int[] pes, String on) {
        int n = (int) dest.length();
        Object empty = array(t, 0);
        Object local = sentinelArray(t, 3);
        MemorySegment none = MemorySegment.ofArray(new byte[0]);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nativeNone = arena.allocate(0, 8);
            for (int pe : pes) {
                String w = on + " " + t.name() + " to PE " + pe + ": ";
                for (long di : new long[] {0, n}) {
                    String at = w + "at element " + di + ": ";
                    noThrow(c, at + "put from an empty array", () -> s.put(dest, di, empty, 0, 0, pe));
                    noThrow(c, at + "put of 0 from the end of an array", () -> s.put(dest, di, local, 3, 0, pe));
                    noThrow(c, at + "put of 0 from the middle of an array", () -> s.put(dest, di, local, 1, 0, pe));
                    noThrow(c, at + "get into an empty array", () -> s.get(empty, 0, dest, di, 0, pe));
                    noThrow(c, at + "get of 0 into the end of an array", () -> s.get(local, 3, dest, di, 0, pe));
                    noThrow(c, at + "putNbi from an empty array", () -> s.putNbi(dest, di, empty, 0, 0, pe));
                    noThrow(c, at + "putNbi of 0", () -> s.putNbi(dest, di, local, 2, 0, pe));
                    noThrow(c, at + "getNbi into an empty array", () -> s.getNbi(empty, 0, dest, di, 0, pe));
                    noThrow(c, at + "getNbi of 0", () -> s.getNbi(local, 0, dest, di, 0, pe));
                    for (MemorySegment seg : new MemorySegment[] {none, nativeNone}) {
                        String k = seg.isNative() ? " (native)" : " (heap)";
                        noThrow(c, at + "put of an empty segment" + k, () -> s.put(dest, di, seg, pe));
                        noThrow(c, at + "get into an empty segment" + k, () -> s.get(seg, dest, di, pe));
                        noThrow(c, at + "putNbi of an empty segment" + k, () -> s.putNbi(dest, di, seg, pe));
                        noThrow(c, at + "getNbi into an empty segment" + k, () -> s.getNbi(seg, dest, di, pe));
                        long bo = di * t.layout().byteSize();
                        noThrow(c, at + "putmem of 0 bytes" + k, () -> s.putmem(dest, bo, seg, pe));
                        noThrow(c, at + "getmem of 0 bytes" + k, () -> s.getmem(seg, dest, bo, pe));
                        noThrow(c, at + "putmemNbi of 0 bytes" + k, () -> s.putmemNbi(dest, bo, seg, pe));
                        noThrow(c, at + "getmemNbi of 0 bytes" + k, () -> s.getmemNbi(seg, dest, bo, pe));
                    }
                    noThrow(c, at + "iput of 0", () -> s.iput(dest, di, 2, empty, 0, 3, 0, pe));
                    noThrow(c, at + "iget of 0", () -> s.iget(empty, 0, 3, dest, di, 2, 0, pe));
                    noThrow(c, at + "iput of 0 from an array", () -> s.iput(dest, di, 1, local, 3, 1, 0, pe));
                    noThrow(c, at + "iget of 0 into an array", () -> s.iget(local, 3, 1, dest, di, 1, 0, pe));
                    noThrow(c, at + "ibput of 0 blocks", () -> s.ibput(dest, di, 2, empty, 0, 2, 1, 0, pe));
                    noThrow(c, at + "ibget of 0 blocks", () -> s.ibget(empty, 0, 2, dest, di, 2, 1, 0, pe));
                    noThrow(c, at + "ibput of blocks of 0", () -> s.ibput(dest, di, 1, empty, 0, 1, 0, 3, pe));
                    noThrow(c, at + "ibget of blocks of 0", () -> s.ibget(empty, 0, 1, dest, di, 1, 0, 3, pe));
                }
            }
            noThrow(c, on + " quiet after zero-length operations", s::quiet);
        }
        checkArray(c, t, local, on + " " + t.name());
    }

    /** The same on a created world context and on a context of a (reversed) team, with team PE numbers. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void zeroOnContexts(CaseContext c) {
        Shmem s = c.shmem;
        SymArray dest = c.calloc(SymType.LONG, 4);
        setSentinels(dest);
        s.barrierAll();
        try (ShmemContext ctx = s.ctxCreate(0)) {
            zeroRmaOn(c, ctx, SymType.LONG, dest, new int[] {c.right(), c.me}, "world context");
        }
        ShmemTeam rev = s.teamWorld().splitStrided(c.npes - 1, -1, c.npes, null, 0).orElseThrow();
        try (ShmemContext ctx = rev.createCtx(Shmem.CTX_PRIVATE)) {
            int me = rev.myPe();
            zeroRmaOn(c, ctx, SymType.LONG, dest, new int[] {(me + 1) % rev.nPes(), me}, "reversed-team context");
        }
        rev.close();
        s.barrierAll();
        checkUntouched(c, dest, "destination after zero-length operations on contexts");
        s.barrierAll();
    }

    /** put_signal and put_signal_nbi of 0 elements: the data is untouched, the signal still updates. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void zeroSignal(CaseContext c) {
        Shmem s = c.shmem;
        SymArray dest = c.calloc(SymType.INT, 4);
        SymLongArray sig = c.calloc(SymType.LONG, 1);
        setSentinels(dest);
        s.barrierAll();
        int[] empty = new int[0];
        int[] local = {1, 2, 3};
        int calls = 0;
        for (int pe : new int[] {c.right(), c.me}) {
            int p = pe;
            String w = " to PE " + pe;
            noThrow(c, "putSignal from an empty array" + w, () -> s.putSignal(dest, 0, empty, 0, 0, sig, 0, 1, SignalOp.ADD, p));
            noThrow(c, "putSignal of 0 at the end" + w, () -> s.putSignal(dest, 4, local, 3, 0, sig, 0, 1, SignalOp.ADD, p));
            noThrow(c, "putSignalNbi from an empty array" + w, () -> s.putSignalNbi(dest, 0, empty, 0, 0, sig, 0, 1, SignalOp.ADD, p));
            noThrow(c, "putSignal of an empty segment" + w,
                    () -> s.putSignal(dest, 1, MemorySegment.ofArray(empty), sig, 0, 1, SignalOp.ADD, p));
            noThrow(c, "putSignalNbi of an empty segment" + w,
                    () -> s.putSignalNbi(dest, 2, MemorySegment.ofArray(empty), sig, 0, 1, SignalOp.ADD, p));
            calls += 5;
        }
        s.quiet();
        long want = calls; // five from the left neighbour, five from this PE (one PE: ten from itself)
        long deadline = System.nanoTime() + 20_000_000_000L; // bounded: a put-signal that threw never signals
        while (s.signalFetch(sig, 0) < want && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        s.barrierAll();
        c.checkEq(want, s.signalFetch(sig, 0), "signal after zero-length put-with-signal (each still signals)");
        checkUntouched(c, dest, "data of zero-length put-with-signal");
        c.check(Arrays.equals(new int[] {1, 2, 3}, local), "local source unchanged");
        s.barrierAll();
    }

    /** Every collective with 0 elements (and 0 bytes) on the world team: destinations untouched. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void zeroCollectives(CaseContext c, SymType<?> t) {
        zeroCollectivesOn(c, c.shmem.teamWorld(), t);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void zeroCollectivesOn(CaseContext c, ShmemTeam team, SymType<?> t) {
        int n = team.nPes();
        SymArray dest = c.calloc(t, 2L * n + 2);
        SymArray src = c.calloc(t, 2L * n + 2);
        setSentinels(dest);
        setSentinels(src);
        c.shmem.barrierAll();
        String w = t.name() + " on " + team + ": ";
        for (int root : new int[] {0, n - 1}) {
            noThrow(c, w + "broadcast of 0 from " + root, () -> team.broadcast(dest, src, 0, root));
            noThrow(c, w + "broadcastmem of 0 from " + root, () -> team.broadcastmem(dest, src, 0, root));
        }
        noThrow(c, w + "collect of 0", () -> team.collect(dest, src, 0));
        noThrow(c, w + "collectmem of 0", () -> team.collectmem(dest, src, 0));
        noThrow(c, w + "fcollect of 0", () -> team.fcollect(dest, src, 0));
        noThrow(c, w + "fcollectmem of 0", () -> team.fcollectmem(dest, src, 0));
        noThrow(c, w + "alltoall of 0", () -> team.alltoall(dest, src, 0));
        noThrow(c, w + "alltoallmem of 0", () -> team.alltoallmem(dest, src, 0));
        noThrow(c, w + "alltoalls of 0", () -> team.alltoalls(dest, src, 2, 3, 0));
        noThrow(c, w + "alltoallsmem of 0", () -> team.alltoallsmem(dest, src, 2, 3, 0));
        boolean integral = !Elements.floating(t);
        if (integral) {
            noThrow(c, w + "and_reduce of 0", () -> team.andReduce(dest, src, 0));
            noThrow(c, w + "or_reduce of 0", () -> team.orReduce(dest, src, 0));
            noThrow(c, w + "xor_reduce of 0", () -> team.xorReduce(dest, src, 0));
        }
        noThrow(c, w + "max_reduce of 0", () -> team.maxReduce(dest, src, 0));
        noThrow(c, w + "min_reduce of 0", () -> team.minReduce(dest, src, 0));
        noThrow(c, w + "sum_reduce of 0", () -> team.sumReduce(dest, src, 0));
        noThrow(c, w + "prod_reduce of 0", () -> team.prodReduce(dest, src, 0));
        noThrow(c, w + "sum_reduce of 0 in place", () -> team.sumReduce(dest, dest, 0));
        noThrow(c, w + "sum_inscan of 0", () -> team.sumInscan(dest, src, 0));
        noThrow(c, w + "sum_exscan of 0", () -> team.sumExscan(dest, src, 0));
        noThrow(c, w + "sync", team::sync);
        c.shmem.barrierAll();
        checkUntouched(c, dest, w + "destination after zero-length collectives");
        checkUntouched(c, src, w + "source after zero-length collectives");
        // collect where only some members contribute: the others' 0 elements take no room.
        setSentinels(dest);
        Elements.set(src, 0, bits(t, 100 + team.myPe()));
        team.sync();
        long mine = team.myPe() % 2 == 0 ? 1 : 0;
        noThrow(c, w + "collect of 1 on even members, 0 on odd ones", () -> team.collect(dest, src, mine));
        int evens = (n + 1) / 2;
        for (int k = 0; k < evens; k++) {
            c.checkEq(bits(t, 100 + 2L * k), Elements.get(dest, k), w + "collected element " + k);
        }
        for (long i = evens; i < dest.length(); i++) {
            c.checkEq(bits(t, SENTINEL + i), Elements.get(dest, i), w + "element " + i + " past the collected ones");
        }
        c.shmem.barrierAll();
    }

    private static void zeroOnSplitTeam(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        Optional<ShmemTeam> t = w.splitStrided(c.npes - 1, -1, c.npes, null, 0);
        t.ifPresent(team -> {
            zeroCollectivesOn(c, team, SymType.LONG);
            team.close();
        });
        c.shmem.barrierAll();
    }

}
