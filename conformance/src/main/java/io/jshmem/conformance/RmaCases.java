/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymArray;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;

/**
 * RMA for every element type: put/get with Java arrays and memory segments, nbi forms, putmem and
 * getmem, p/g, strided forms; ring, all-to-one and all-to-all patterns; boundary values; 1-element
 * and 1 MiB transfers.
 */
final class RmaCases {
    private RmaCases() {
    }

    private interface TypedBody {
        <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) throws Exception;
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        add(cases, "rma.put-get", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { putGet(c, t); }
        });
        add(cases, "rma.segment", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { segment(c, t); }
        });
        add(cases, "rma.nbi", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { nbi(c, t); }
        });
        add(cases, "rma.putmem-getmem", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { putmemGetmem(c, t); }
        });
        add(cases, "rma.p-g", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { pg(c, t); }
        });
        add(cases, "rma.strided", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { strided(c, t); }
        });
        add(cases, "rma.all-to-one", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { allToOne(c, t); }
        });
        add(cases, "rma.boundary", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { boundary(c, t); }
        });
        add(cases, "rma.large", new TypedBody() {
            public <A, S extends SymArray<A>> void run(CaseContext c, TypeOps<A, S> t) { large(c, t); }
        });
        return cases;
    }

    private static void add(List<Case> cases, String prefix, TypedBody body) {
        for (TypeOps<?, ?> t : TypeOps.ALL) {
            cases.add(Case.of(prefix + "." + t.name, c -> body.run(c, t)));
        }
    }

    // ---------------------------------------------------------------- checking helpers

    /** Elements [from, from+count) of this PE's copy must be expected(k) (k = 0..count-1). */
    static <A, S extends SymArray<A>> void expectLocal(CaseContext c, TypeOps<A, S> t, S obj, long from, long count,
                                                       LongUnaryOperator expected, String what) {
        long bad = 0;
        String first = null;
        for (long k = 0; k < count; k++) {
            long got = t.localRaw(obj, from + k);
            long exp = expected.applyAsLong(k) & t.mask;
            if (got != exp && bad++ == 0) {
                first = "element " + (from + k) + " is " + t.show(got) + ", expected " + t.show(exp);
            }
        }
        if (bad > 0) {
            c.fail(t.name + ": " + what + ": " + bad + " of " + count + " elements wrong; first: " + first);
        }
    }

    /** Elements [from, from+count) of a Java array must be expected(k). */
    static <A, S extends SymArray<A>> void expectArray(CaseContext c, TypeOps<A, S> t, A array, int from, int count,
                                                       LongUnaryOperator expected, String what) {
        long bad = 0;
        String first = null;
        for (int k = 0; k < count; k++) {
            long got = t.bits(array, from + k);
            long exp = expected.applyAsLong(k) & t.mask;
            if (got != exp && bad++ == 0) {
                first = "index " + (from + k) + " is " + t.show(got) + ", expected " + t.show(exp);
            }
        }
        if (bad > 0) {
            c.fail(t.name + ": " + what + ": " + bad + " of " + count + " elements wrong; first: " + first);
        }
    }

    /** Elements of a memory segment (of this type) must be expected(k). */
    static <A, S extends SymArray<A>> void expectSegment(CaseContext c, TypeOps<A, S> t, MemorySegment seg,
                                                         LongUnaryOperator expected, String what) {
        long count = seg.byteSize() / t.size;
        long bad = 0;
        String first = null;
        for (long k = 0; k < count; k++) {
            long got = t.segBits(seg, k);
            long exp = expected.applyAsLong(k) & t.mask;
            if (got != exp && bad++ == 0) {
                first = "element " + k + " is " + t.show(got) + ", expected " + t.show(exp);
            }
        }
        if (bad > 0) {
            c.fail(t.name + ": " + what + ": " + bad + " of " + count + " elements wrong; first: " + first);
        }
    }

    static <A, S extends SymArray<A>> void fillLocal(TypeOps<A, S> t, S obj, int pe, int salt) {
        for (long i = 0; i < obj.length(); i++) {
            t.setLocal(obj, i, t.pattern(pe, (int) i, salt));
        }
    }

    static MemorySegment nativeSegment(Arena arena, TypeOps<?, ?> t, long elements) {
        return arena.allocate(Math.max(1, elements * t.size), t.size).asSlice(0, elements * t.size);
    }

    static void fillSegment(TypeOps<?, ?> t, MemorySegment seg, int pe, int salt) {
        for (long k = 0; k < seg.byteSize() / t.size; k++) {
            t.setSegBits(seg, k, t.pattern(pe, (int) k, salt));
        }
    }

    static byte bytePattern(int pe, long i, int salt) {
        return (byte) (pe * 31 + i * 7 + salt * 13 + (i >> 8));
    }

    // ---------------------------------------------------------------- cases

    /** put/get with Java arrays: ring (to me+1), offsets on both sides, self, 1 element, 0 elements. */
    static <A, S extends SymArray<A>> void putGet(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        int n = 1000;
        int right = c.right();
        int left = c.left();
        S dest = c.calloc(t.type, 2L * n);
        S src = c.malloc(t.type, n);
        fillLocal(t, src, c.me, 1);
        A a = t.patternArray(c.me, n + 5, 2);
        s.barrierAll();

        s.put(dest, 7, a, 5, n, right);
        s.barrierAll();
        expectLocal(c, t, dest, 7, n, k -> t.pattern(left, 5 + (int) k, 2), "put of " + n + " elements from the left neighbour");
        expectLocal(c, t, dest, 0, 7, k -> 0, "elements before the put's range");
        expectLocal(c, t, dest, 7 + n, n - 7, k -> 0, "elements after the put's range");

        A b = t.newArray(n);
        s.get(b, 2, src, 10, n - 10, right);
        expectArray(c, t, b, 2, n - 10, k -> t.pattern(right, 10 + (int) k, 1), "get from the right neighbour");
        expectArray(c, t, b, 0, 2, k -> 0, "local array before the get's range");

        A mine = t.newArray(n);
        s.get(mine, 0, src, 0, n, c.me);
        expectArray(c, t, mine, 0, n, k -> t.pattern(c.me, (int) k, 1), "get from this PE");
        s.barrierAll(); // everyone is done reading dest before it is rewritten

        // One element, to and from every PE.
        for (int pe = 0; pe < c.npes; pe++) {
            s.put(dest, c.me, a, c.me, 1, pe);
        }
        s.barrierAll();
        expectLocal(c, t, dest, 0, c.npes, k -> t.pattern((int) k, (int) k, 2), "1-element puts from every PE");
        A one = t.newArray(1);
        for (int pe = 0; pe < c.npes; pe++) {
            s.get(one, 0, src, n - 1, 1, pe);
            int from = pe;
            expectArray(c, t, one, 0, 1, k -> t.pattern(from, n - 1, 1), "1-element get of the last element from PE " + pe);
        }
        // Zero elements: nothing happens.
        s.put(dest, 0, a, 0, 0, right);
        s.put(dest, 2L * n, a, 0, 0, right);
        s.get(b, 0, src, n, 0, right);
        s.barrierAll();
        expectLocal(c, t, dest, 0, c.npes, k -> t.pattern((int) k, (int) k, 2), "after 0-element puts");
    }

    /** put/get with native and heap memory segments as the local side. */
    static <A, S extends SymArray<A>> void segment(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        int n = 300;
        int right = c.right();
        int left = c.left();
        S dest = c.calloc(t.type, 2L * n + 8);
        S src = c.malloc(t.type, n);
        fillLocal(t, src, c.me, 3);
        s.barrierAll();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = nativeSegment(arena, t, n);
            fillSegment(t, nat, c.me, 4);
            s.put(dest, 0, nat, right);
            s.put(dest, n, t.heapSegment(t.patternArray(c.me, n, 5)), right);
            s.put(dest, 2L * n + 3, nat.asSlice(t.size * 7L, t.size * 2L), right); // a slice: elements 7 and 8
            s.barrierAll();
            expectLocal(c, t, dest, 0, n, k -> t.pattern(left, (int) k, 4), "put from a native segment");
            expectLocal(c, t, dest, n, n, k -> t.pattern(left, (int) k, 5), "put from a heap segment");
            expectLocal(c, t, dest, 2L * n, 3, k -> 0, "before the 2-element slice put");
            expectLocal(c, t, dest, 2L * n + 3, 2, k -> t.pattern(left, 7 + (int) k, 4), "put from a segment slice");
            expectLocal(c, t, dest, 2L * n + 5, 3, k -> 0, "after the 2-element slice put");

            MemorySegment into = nativeSegment(arena, t, n - 3);
            s.get(into, src, 3, right);
            expectSegment(c, t, into, k -> t.pattern(right, 3 + (int) k, 3), "get into a native segment");
            A arr = t.newArray(n);
            s.get(t.heapSegment(arr), src, 0, left);
            expectArray(c, t, arr, 0, n, k -> t.pattern(left, (int) k, 3), "get into a heap segment");
            MemorySegment single = nativeSegment(arena, t, 1);
            s.get(single, src, n - 1, right);
            expectSegment(c, t, single, k -> t.pattern(right, n - 1, 3), "1-element get into a segment");
            s.get(nativeSegment(arena, t, 0), src, n, right); // empty segment at the end: nothing to do
        }
        s.barrierAll();
    }

    /** putNbi/getNbi (arrays and segments) to every PE, completed by one quiet. */
    static <A, S extends SymArray<A>> void nbi(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        int n = 500;
        int right = c.right();
        int left = c.left();
        S dest = c.calloc(t.type, (long) c.npes * n);
        S dest2 = c.calloc(t.type, n);
        S src = c.malloc(t.type, n);
        fillLocal(t, src, c.me, 6);
        s.barrierAll();
        try (Arena arena = Arena.ofConfined()) {
            List<A> sources = new ArrayList<>();
            for (int pe = 0; pe < c.npes; pe++) {
                A a = t.patternArray(c.me, n, 7);
                sources.add(a); // not reused before quiet
                s.putNbi(dest, (long) c.me * n, a, 0, n, pe);
            }
            MemorySegment nat = nativeSegment(arena, t, n);
            fillSegment(t, nat, c.me, 8);
            s.putNbi(dest2, 0, nat, right);
            s.quiet();
            s.barrierAll();
            for (int pe = 0; pe < c.npes; pe++) {
                int from = pe;
                expectLocal(c, t, dest, (long) pe * n, n, k -> t.pattern(from, (int) k, 7), "putNbi from PE " + pe);
            }
            expectLocal(c, t, dest2, 0, n, k -> t.pattern(left, (int) k, 8), "putNbi from a segment, from the left neighbour");

            A g1 = t.newArray(n + 1);
            s.getNbi(g1, 1, src, 0, n, right);
            MemorySegment g2 = nativeSegment(arena, t, n - 1);
            s.getNbi(g2, src, 1, left);
            A g3 = t.newArray(1);
            s.getNbi(g3, 0, src, 4, 1, c.me);
            s.quiet();
            expectArray(c, t, g1, 1, n, k -> t.pattern(right, (int) k, 6), "getNbi into an array, after quiet");
            expectArray(c, t, g1, 0, 1, k -> 0, "getNbi: element before the range");
            expectSegment(c, t, g2, k -> t.pattern(left, 1 + (int) k, 6), "getNbi into a segment, after quiet");
            expectArray(c, t, g3, 0, 1, k -> t.pattern(c.me, 4, 6), "1-element getNbi from this PE");
        }
        s.barrierAll();
    }

    /** putmem/getmem (+nbi) at byte offsets, including offsets that are not element boundaries. */
    static <A, S extends SymArray<A>> void putmemGetmem(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        int right = c.right();
        int left = c.left();
        S dest = c.calloc(t.type, 256);
        S src = c.malloc(t.type, 256);
        long size = dest.byteSize();
        MemorySegment srcLocal = src.local();
        for (long i = 0; i < size; i++) {
            srcLocal.set(ValueLayout.JAVA_BYTE, i, bytePattern(c.me, i, 1));
        }
        s.barrierAll();
        try (Arena arena = Arena.ofConfined()) {
            int len = 101;
            MemorySegment bytes = arena.allocate(len);
            for (int i = 0; i < len; i++) {
                bytes.set(ValueLayout.JAVA_BYTE, i, bytePattern(c.me, i, 2));
            }
            s.putmem(dest, 3, bytes, right);
            MemorySegment whole = arena.allocate(2L * t.size, t.size);
            for (int i = 0; i < whole.byteSize(); i++) {
                whole.set(ValueLayout.JAVA_BYTE, i, bytePattern(c.me, i, 3));
            }
            s.putmem(dest, size - whole.byteSize(), whole, right); // the last two elements, exactly up to the end
            s.barrierAll();
            MemorySegment d = dest.local();
            checkBytes(c, t, d, 0, 3, i -> 0, "bytes before putmem's range");
            checkBytes(c, t, d, 3, len, i -> bytePattern(left, i, 2), "putmem at byte offset 3 from the left neighbour");
            checkBytes(c, t, d, 3 + len, size - whole.byteSize() - 3 - len, i -> 0, "bytes after putmem's range");
            checkBytes(c, t, d, size - whole.byteSize(), whole.byteSize(), i -> bytePattern(left, i, 3), "putmem of the last two elements");

            MemorySegment got = arena.allocate(77);
            s.getmem(got, src, 5, right);
            checkBytes(c, t, got, 0, 77, i -> bytePattern(right, 5 + i, 1), "getmem at byte offset 5 from the right neighbour");
            MemorySegment tail = arena.allocate(t.size);
            s.getmem(tail, src, size - t.size, left);
            checkBytes(c, t, tail, 0, t.size, i -> bytePattern(left, size - t.size + i, 1), "getmem of the last element");
            s.barrierAll();

            // nbi forms: write 10 bytes at offset 1 of the left neighbour's copy, read from the right.
            MemorySegment ten = arena.allocate(10);
            for (int i = 0; i < 10; i++) {
                ten.set(ValueLayout.JAVA_BYTE, i, bytePattern(c.me, i, 4));
            }
            s.putmemNbi(dest, 1, ten, left);
            MemorySegment got2 = arena.allocate(33);
            s.getmemNbi(got2, src, 200, right);
            s.quiet();
            checkBytes(c, t, got2, 0, 33, i -> bytePattern(right, 200 + i, 1), "getmemNbi after quiet");
            s.barrierAll();
            checkBytes(c, t, dest.local(), 1, 10, i -> bytePattern(right, i, 4), "putmemNbi from the right neighbour, after quiet");
            // Zero bytes at the very end: nothing happens.
            s.putmem(dest, size, arena.allocate(0), right);
            s.getmem(arena.allocate(0), src, size, right);
        }
        s.barrierAll();
    }

    private static void checkBytes(CaseContext c, TypeOps<?, ?> t, MemorySegment seg, long from, long count,
                                   LongUnaryOperator expected, String what) {
        long bad = 0;
        String first = null;
        for (long i = 0; i < count; i++) {
            byte got = seg.get(ValueLayout.JAVA_BYTE, from + i);
            byte exp = (byte) expected.applyAsLong(i);
            if (got != exp && bad++ == 0) {
                first = "byte " + (from + i) + " is " + got + ", expected " + exp;
            }
        }
        if (bad > 0) {
            c.fail(t.name + ": " + what + ": " + bad + " of " + count + " bytes wrong; first: " + first);
        }
    }

    /** p to every PE (all-to-all, one slot per writer), g of several elements from every PE. */
    static <A, S extends SymArray<A>> void pg(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        S dest = c.calloc(t.type, c.npes + 2L);
        S src = c.malloc(t.type, 64);
        fillLocal(t, src, c.me, 9);
        s.barrierAll();
        for (int pe = 0; pe < c.npes; pe++) {
            t.p(s, dest, c.me, t.pattern(c.me, pe, 10), pe);
        }
        t.p(s, dest, c.npes + 1L, t.pattern(c.me, 99, 10), c.right());
        s.barrierAll();
        for (int pe = 0; pe < c.npes; pe++) {
            c.checkEq(t.pattern(pe, c.me, 10), t.local(dest, pe), t.name + ": element " + pe + " written by PE " + pe + " with p");
        }
        c.checkEq(0, t.local(dest, c.npes), t.name + ": element no PE wrote");
        c.checkEq(t.pattern(c.left(), 99, 10), t.local(dest, c.npes + 1L), t.name + ": last element, p by the left neighbour");
        for (int pe = 0; pe < c.npes; pe++) {
            for (int i : new int[] {0, 1, 31, 63}) {
                c.checkEq(t.pattern(pe, i, 9), t.g(s, src, i, pe), t.name + ": g of element " + i + " from PE " + pe);
            }
        }
        // p then g of the same remote element (p is complete when g runs after quiet).
        t.p(s, src, 5, t.pattern(c.me, 5, 11), c.me);
        s.quiet();
        c.checkEq(t.pattern(c.me, 5, 11), t.g(s, src, 5, c.me), t.name + ": g after p to this PE");
        s.barrierAll();
    }

    /** iput/iget with strides 2 and 3 (both ways round), ibput/ibget with blocks. */
    static <A, S extends SymArray<A>> void strided(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        int m = 50;
        int len = 3 * m + 10;
        int right = c.right();
        int left = c.left();
        S d1 = c.calloc(t.type, len);
        S d2 = c.calloc(t.type, len);
        S d3 = c.calloc(t.type, len);
        S src = c.malloc(t.type, len);
        fillLocal(t, src, c.me, 12);
        A a = t.patternArray(c.me, len, 13);
        s.barrierAll();

        s.iput(d1, 1, 2, a, 0, 3, m, right);            // d1[1+2k] = a[3k]
        s.iput(d2, 0, 3, a, 4, 2, m, right);            // d2[3k] = a[4+2k]
        s.ibput(d3, 2, 5, a, 1, 3, 3, 20, right);       // d3[2+5k+j] = a[1+3k+j], j<3
        s.barrierAll();
        expectLocal(c, t, d1, 0, len, j -> j >= 1 && (j - 1) % 2 == 0 && (j - 1) / 2 < m
                ? t.pattern(left, (int) (3 * ((j - 1) / 2)), 13) : 0, "iput dst=2 sst=3");
        expectLocal(c, t, d2, 0, len, j -> j % 3 == 0 && j / 3 < m ? t.pattern(left, (int) (4 + 2 * (j / 3)), 13) : 0,
                "iput dst=3 sst=2");
        expectLocal(c, t, d3, 0, len, j -> {
            long r = j - 2;
            return r >= 0 && r % 5 < 3 && r / 5 < 20 ? t.pattern(left, (int) (1 + 3 * (r / 5) + r % 5), 13) : 0;
        }, "ibput bsize=3 dst=5 sst=3");

        A b1 = t.newArray(len);
        s.iget(b1, 1, 3, src, 2, 2, m, right);          // b1[1+3k] = src[2+2k]
        expectArray(c, t, b1, 0, len, j -> j >= 1 && (j - 1) % 3 == 0 && (j - 1) / 3 < m
                ? t.pattern(right, (int) (2 + 2 * ((j - 1) / 3)), 12) : 0, "iget dst=3 sst=2");
        A b2 = t.newArray(len);
        s.iget(b2, 0, 2, src, 0, 3, m, left);           // b2[2k] = src[3k]
        expectArray(c, t, b2, 0, len, j -> j % 2 == 0 && j / 2 < m ? t.pattern(left, (int) (3 * (j / 2)), 12) : 0,
                "iget dst=2 sst=3");
        A b3 = t.newArray(len);
        s.ibget(b3, 0, 3, src, 4, 5, 3, 20, right);     // b3[3k+j] = src[4+5k+j]
        expectArray(c, t, b3, 0, len, j -> j < 60 ? t.pattern(right, (int) (4 + 5 * (j / 3) + j % 3), 12) : 0,
                "ibget bsize=3 dst=3 sst=5");
        A b4 = t.newArray(4);
        s.iget(b4, 3, 1, src, len - 1, 1, 1, right);    // one element
        expectArray(c, t, b4, 3, 1, j -> t.pattern(right, len - 1, 12), "iget of 1 element at the end");
        // Stride 1 is the contiguous case; 0 elements do nothing.
        A b5 = t.newArray(len);
        s.iget(b5, 0, 1, src, 0, 1, len, right);
        expectArray(c, t, b5, 0, len, j -> t.pattern(right, (int) j, 12), "iget with stride 1");
        s.iput(d1, 0, 2, a, 0, 2, 0, right);
        s.ibget(b5, 0, 3, src, 0, 3, 2, 0, right);
        s.barrierAll();
    }

    /** All PEs put into PE 0, get from PE 0; PE 0 puts to all; everyone puts to everyone. */
    static <A, S extends SymArray<A>> void allToOne(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        int n = 200;
        S gather = c.calloc(t.type, (long) c.npes * n);
        S all = c.calloc(t.type, (long) c.npes * n);
        S bcast = c.calloc(t.type, n);
        S src = c.malloc(t.type, n);
        fillLocal(t, src, c.me, 14);
        s.barrierAll();
        s.put(gather, (long) c.me * n, t.patternArray(c.me, n, 15), 0, n, 0);
        for (int pe = 0; pe < c.npes; pe++) {
            s.put(all, (long) c.me * n, t.patternArray(c.me, n, 16), 0, n, pe);
        }
        if (c.me == 0) {
            for (int pe = 0; pe < c.npes; pe++) {
                s.put(bcast, 0, t.patternArray(0, n, 17), 0, n, pe);
            }
        }
        A fromRoot = t.newArray(n);
        s.get(fromRoot, 0, src, 0, n, 0);
        expectArray(c, t, fromRoot, 0, n, k -> t.pattern(0, (int) k, 14), "get from PE 0 by every PE");
        s.barrierAll();
        if (c.me == 0) {
            for (int pe = 0; pe < c.npes; pe++) {
                int from = pe;
                expectLocal(c, t, gather, (long) pe * n, n, k -> t.pattern(from, (int) k, 15), "all-to-one: block of PE " + pe);
            }
        }
        for (int pe = 0; pe < c.npes; pe++) {
            int from = pe;
            expectLocal(c, t, all, (long) pe * n, n, k -> t.pattern(from, (int) k, 16), "all-to-all: block of PE " + pe);
        }
        expectLocal(c, t, bcast, 0, n, k -> t.pattern(0, (int) k, 17), "one-to-all: block of PE 0");
        s.barrierAll();
    }

    /** Boundary values (MIN/MAX, -1, NaN payloads, infinities, -0.0, ...) through put, p, g and get, bit-exact. */
    static <A, S extends SymArray<A>> void boundary(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        long[] bv = t.boundary();
        int m = bv.length;
        int right = c.right();
        S dest = c.calloc(t.type, 2L * m);
        S src = c.malloc(t.type, m);
        for (int i = 0; i < m; i++) {
            t.setSegBits(src.local(), i, bv[i]);
        }
        s.barrierAll();
        s.put(dest, 0, t.arrayOf(bv), 0, m, right);
        for (int i = 0; i < m; i++) {
            t.p(s, dest, m + i, bv[i], right);
        }
        s.barrierAll();
        for (int i = 0; i < m; i++) {
            c.check(t.localRaw(dest, i) == bv[i], t.name + ": put of " + t.show(bv[i]) + " arrived as " + t.show(t.localRaw(dest, i)));
            c.check(t.localRaw(dest, m + i) == bv[i], t.name + ": p of " + t.show(bv[i]) + " arrived as " + t.show(t.localRaw(dest, m + i)));
            long g = t.g(s, src, i, right);
            c.check(g == bv[i], t.name + ": g of " + t.show(bv[i]) + " returned " + t.show(g));
        }
        A got = t.newArray(m);
        s.get(got, 0, src, 0, m, right);
        for (int i = 0; i < m; i++) {
            c.check(t.bits(got, i) == bv[i], t.name + ": get of " + t.show(bv[i]) + " returned " + t.show(t.bits(got, i)));
        }
        s.barrierAll();
    }

    /** 1 MiB transfers: put and get with arrays, put from a native segment; compared byte for byte. */
    static <A, S extends SymArray<A>> void large(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        int n = (1 << 20) / t.size;
        int right = c.right();
        int left = c.left();
        S dest = c.malloc(t.type, n);
        S src = c.malloc(t.type, n);
        src.local().copyFrom(t.heapSegment(t.patternArray(c.me, n, 18)));
        s.barrierAll();
        s.put(dest, 0, t.patternArray(c.me, n, 19), 0, n, right);
        s.barrierAll();
        long mm = dest.local().mismatch(t.heapSegment(t.patternArray(left, n, 19)));
        c.check(mm == -1, t.name + ": 1 MiB put from the left neighbour differs at byte " + mm);
        A b = t.newArray(n);
        s.get(b, 0, src, 0, n, right);
        mm = t.heapSegment(b).mismatch(t.heapSegment(t.patternArray(right, n, 18)));
        c.check(mm == -1, t.name + ": 1 MiB get from the right neighbour differs at byte " + mm);
        s.barrierAll();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(1 << 20, 8);
            nat.copyFrom(t.heapSegment(t.patternArray(c.me, n, 20)));
            s.put(dest, 0, nat, left);
            s.barrierAll();
            mm = dest.local().mismatch(t.heapSegment(t.patternArray(right, n, 20)));
            c.check(mm == -1, t.name + ": 1 MiB put from a native segment of the right neighbour differs at byte " + mm);
            MemorySegment into = arena.allocate(1 << 20, 8);
            s.getNbi(into, src, 0, left);
            s.quiet();
            mm = into.mismatch(t.heapSegment(t.patternArray(left, n, 18)));
            c.check(mm == -1, t.name + ": 1 MiB getNbi into a native segment differs at byte " + mm);
        }
        s.barrierAll();
    }
}
