/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.HeapExhaustedException;
import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.SignalOp;
import io.jshmem.SymByteArray;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymFloatArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymShortArray;
import io.jshmem.SymType;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * Misuse must throw ShmemException (naming the PE) without doing anything, and leave the runtime
 * usable: every case ends by checking that a put to the right neighbour still works.
 */
final class BadInputCases {
    private BadInputCases() {
    }

    static List<Case> cases() {
        return List.of(
                Case.of("bad.pe-out-of-range", BadInputCases::peOutOfRange),
                Case.of("bad.index-out-of-range", BadInputCases::indexOutOfRange),
                Case.of("bad.freed-object", BadInputCases::freedObject),
                Case.of("bad.foreign-object", BadInputCases::foreignObject),
                Case.of("bad.alloc-arguments", BadInputCases::allocArguments),
                Case.of("bad.heap-exhausted", BadInputCases::heapExhausted),
                Case.of("bad.local-array-arguments", BadInputCases::localArrayArguments),
                Case.of("bad.sync-arrays-too-short", BadInputCases::syncArraysTooShort),
                Case.of("bad.debug-collective-mismatch", BadInputCases::debugMismatch));
    }

    /** A put, p and atomic to the right neighbour still work and are seen after a barrier. */
    static void stillUsable(CaseContext c, String after) {
        Shmem s = c.shmem;
        SymLongArray a = c.calloc(SymType.LONG, 3);
        long v = 0x5EED_0000L + c.me;
        s.put(a, 0, new long[] {v}, 0, 1, c.right());
        s.p(a, 1, v + 1, c.right());
        s.atomicAdd(a, 2, v + 2, c.right());
        s.barrierAll();
        long l = 0x5EED_0000L + c.left();
        c.check(a.get(0) == l && a.get(1) == l + 1 && a.get(2) == l + 2,
                "after " + after + ": a put/p/atomic from the left neighbour did not arrive: " + a.get(0) + ", " + a.get(1) + ", " + a.get(2));
        s.barrierAll();
    }

    static void peOutOfRange(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray l = c.calloc(SymType.LONG, 8);
        SymIntArray i = c.calloc(SymType.INT, 8);
        SymShortArray sh = c.calloc(SymType.SHORT, 8);
        SymByteArray by = c.calloc(SymType.BYTE, 8);
        SymFloatArray f = c.calloc(SymType.FLOAT, 8);
        SymDoubleArray d = c.calloc(SymType.DOUBLE, 8);
        s.barrierAll();
        long[] buf = new long[8];
        long[] fl = new long[2];
        int[] fi = new int[2];
        float[] ff = new float[2];
        MemorySegment seg = MemorySegment.ofArray(new long[8]);
        for (int pe : new int[] {-1, c.npes, c.npes + 7, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            String w = " to PE " + pe;
            // The default context's PEs are the job's; a created context's are its team's (ContextSignalLockCases).
            c.expectShmemException("put" + w, () -> s.put(l, 0, buf, 0, 8, pe), "PE " + pe, "out of range: the job has " + c.npes + " PEs");
            c.expectShmemException("put(segment)" + w, () -> s.put(l, 0, seg, pe));
            c.expectShmemException("get" + w, () -> s.get(buf, 0, l, 0, 8, pe));
            c.expectShmemException("get(segment)" + w, () -> s.get(seg, l, 0, pe));
            c.expectShmemException("putNbi" + w, () -> s.putNbi(l, 0, buf, 0, 8, pe));
            c.expectShmemException("getNbi" + w, () -> s.getNbi(buf, 0, l, 0, 8, pe));
            c.expectShmemException("putmem" + w, () -> s.putmem(l, 0, seg, pe));
            c.expectShmemException("getmem" + w, () -> s.getmem(seg, l, 0, pe));
            c.expectShmemException("putmemNbi" + w, () -> s.putmemNbi(l, 0, seg, pe));
            c.expectShmemException("getmemNbi" + w, () -> s.getmemNbi(seg, l, 0, pe));
            c.expectShmemException("iput" + w, () -> s.iput(l, 0, 2, buf, 0, 2, 4, pe));
            c.expectShmemException("iget" + w, () -> s.iget(buf, 0, 2, l, 0, 2, 4, pe));
            c.expectShmemException("ibput" + w, () -> s.ibput(l, 0, 4, buf, 0, 4, 2, 2, pe));
            c.expectShmemException("ibget" + w, () -> s.ibget(buf, 0, 4, l, 0, 4, 2, 2, pe));
            c.expectShmemException("p(long)" + w, () -> s.p(l, 0, 1L, pe));
            c.expectShmemException("g(long)" + w, () -> s.g(l, 0, pe));
            c.expectShmemException("p(int)" + w, () -> s.p(i, 0, 1, pe));
            c.expectShmemException("g(short)" + w, () -> s.g(sh, 0, pe));
            c.expectShmemException("p(byte)" + w, () -> s.p(by, 0, (byte) 1, pe));
            c.expectShmemException("g(float)" + w, () -> s.g(f, 0, pe));
            c.expectShmemException("p(double)" + w, () -> s.p(d, 0, 1.0, pe));
            c.expectShmemException("atomicFetch(long)" + w, () -> s.atomicFetch(l, 0, pe));
            c.expectShmemException("atomicSet(int)" + w, () -> s.atomicSet(i, 0, 1, pe));
            c.expectShmemException("atomicInc(long)" + w, () -> s.atomicInc(l, 0, pe));
            c.expectShmemException("atomicFetchAdd(int)" + w, () -> s.atomicFetchAdd(i, 0, 1, pe));
            c.expectShmemException("atomicCompareSwap(long)" + w, () -> s.atomicCompareSwap(l, 0, 0, 1, pe));
            c.expectShmemException("atomicXor(int)" + w, () -> s.atomicXor(i, 0, 1, pe));
            c.expectShmemException("atomicSwap(double)" + w, () -> s.atomicSwap(d, 0, 1.0, pe));
            c.expectShmemException("atomicFetchIncNbi(long)" + w, () -> s.atomicFetchIncNbi(fl, 0, l, 0, pe));
            c.expectShmemException("atomicFetchNbi(int)" + w, () -> s.atomicFetchNbi(fi, 0, i, 0, pe));
            c.expectShmemException("atomicSwapNbi(float)" + w, () -> s.atomicSwapNbi(ff, 0, f, 0, 2f, pe));
            c.expectShmemException("ptr" + w, () -> s.ptr(l, pe).orElseThrow(() -> new ShmemException("PE " + c.me + ": PE " + pe + " empty ptr")));
            c.expectShmemException("peQuiet" + w, () -> s.peQuiet(pe));
        }
        // Nothing was written anywhere.
        s.barrierAll();
        c.check(l.get(0) == 0 && i.get(0) == 0 && d.get(0) == 0 && f.get(0) == 0 && fl[0] == 0 && fi[0] == 0 && ff[0] == 0,
                "a call to a PE out of range changed data");
        stillUsable(c, "PE out of range");
    }

    static void indexOutOfRange(CaseContext c) {
        Shmem s = c.shmem;
        int n = 10;
        SymLongArray l = c.calloc(SymType.LONG, n);
        SymIntArray in = c.calloc(SymType.INT, n);
        SymShortArray sh = c.calloc(SymType.SHORT, n);
        SymDoubleArray d = c.calloc(SymType.DOUBLE, n);
        SymByteArray by = c.calloc(SymType.BYTE, n);
        s.barrierAll();
        int r = c.right();
        long[] buf = new long[2 * n];
        long[] fl = new long[1];
        MemorySegment two = MemorySegment.ofArray(new long[2]);
        MemorySegment bytes3 = MemorySegment.ofArray(new byte[3]);
        c.expectShmemException("put at index -1", () -> s.put(l, -1, buf, 0, 1, r), "put: negative element index -1");
        c.expectShmemException("put of -1 elements", () -> s.put(l, 0, buf, 0, -1, r), "put: negative element count -1");
        c.expectShmemException("put past the end", () -> s.put(l, n, buf, 0, 1, r));
        c.expectShmemException("put of n+1 elements", () -> s.put(l, 0, buf, 0, n + 1, r),
                "put: elements [0, " + (n + 1) + ") are outside the symmetric long array of " + n + " elements");
        c.expectShmemException("put of 2 elements at n-1", () -> s.put(l, n - 1, buf, 0, 2, r));
        c.expectShmemException("put at Long.MAX_VALUE", () -> s.put(l, Long.MAX_VALUE, buf, 0, 1, r));
        c.expectShmemException("put at Long.MIN_VALUE", () -> s.put(l, Long.MIN_VALUE, buf, 0, 1, r));
        c.expectShmemException("get of n+1 elements", () -> s.get(buf, 0, l, 0, n + 1, r));
        c.expectShmemException("get at index -5", () -> s.get(buf, 0, l, -5, 1, r));
        c.expectShmemException("putNbi past the end", () -> s.putNbi(l, n - 1, buf, 0, 2, r));
        c.expectShmemException("getNbi past the end", () -> s.getNbi(buf, 0, l, n, 1, r));
        c.expectShmemException("put(segment of 2) at n-1", () -> s.put(l, n - 1, two, r));
        c.expectShmemException("get(segment of 2) at n-1", () -> s.get(two, l, n - 1, r));
        c.expectShmemException("putmem of 3 bytes at byte size-2", () -> s.putmem(l, l.byteSize() - 2, bytes3, r));
        c.expectShmemException("putmem at byte -1", () -> s.putmem(l, -1, bytes3, r));
        c.expectShmemException("getmem past the end", () -> s.getmem(bytes3, by, n - 2, r), "getmem: bytes [");
        c.expectShmemException("putmemNbi past the end", () -> s.putmemNbi(by, n, bytes3, r));
        c.expectShmemException("getmemNbi at byte -3", () -> s.getmemNbi(bytes3, by, -3, r));
        c.expectShmemException("iput whose last element is past the end", () -> s.iput(l, 1, 3, buf, 0, 1, 4, r));
        c.expectShmemException("iget whose last element is past the end", () -> s.iget(buf, 0, 1, l, 0, 4, 4, r));
        c.expectShmemException("ibput whose last block is past the end", () -> s.ibput(l, 0, 4, buf, 0, 4, 3, 3, r));
        c.expectShmemException("ibget whose last block is past the end", () -> s.ibget(buf, 0, 3, l, 2, 3, 3, 3, r));
        c.expectShmemException("p at index n", () -> s.p(l, n, 1L, r));
        c.expectShmemException("p(short) at -1", () -> s.p(sh, -1, (short) 1, r));
        c.expectShmemException("g at index n", () -> s.g(in, n, r));
        c.expectShmemException("g(double) at -1", () -> s.g(d, -1, r));
        c.expectShmemException("atomicFetchAdd at index n", () -> s.atomicFetchAdd(l, n, 1, r), "atomicFetchAdd: elements [" + n + ", ");
        c.expectShmemException("atomicInc(int) at -1", () -> s.atomicInc(in, -1, r));
        c.expectShmemException("atomicCompareSwap at Long.MAX_VALUE", () -> s.atomicCompareSwap(l, Long.MAX_VALUE, 0, 1, r));
        c.expectShmemException("atomicSwap(double) at n", () -> s.atomicSwap(d, n, 1.0, r));
        c.expectShmemException("atomicFetchAddNbi at n", () -> s.atomicFetchAddNbi(fl, 0, l, n, 1, r));
        c.expectShmemException("waitUntil at index n", () -> s.waitUntil(l, n, Cmp.EQ, 0));
        c.expectShmemException("test at index -1", () -> s.test(sh, -1, Cmp.EQ, (short) 0));
        c.expectShmemException("local get at index n", () -> l.get(n));
        c.expectShmemException("local set at index -1", () -> in.set(-1, 5));
        c.expectShmemException("local get(short) at n", () -> sh.get(n));
        s.barrierAll();
        for (int k = 0; k < n; k++) {
            if (l.get(k) != 0 || in.get(k) != 0 || d.get(k) != 0 || by.get(k) != 0 || sh.get(k) != 0) {
                c.fail("a rejected out-of-range call changed element " + k + " (long " + l.get(k) + ", int " + in.get(k) + ")");
                break;
            }
        }
        c.checkEq(0, fl[0], "fetch array of a rejected atomicFetchAddNbi");
        stillUsable(c, "index out of range");
    }

    static void freedObject(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray a = s.calloc(SymType.LONG, 4);
        SymIntArray b = s.calloc(SymType.INT, 4);
        s.free(a);
        s.free(b);
        int r = c.right();
        long[] buf = new long[4];
        long[] fl = new long[1];
        c.expectShmemException("put to a freed object", () -> s.put(a, 0, buf, 0, 1, r), "freed");
        c.expectShmemException("get from a freed object", () -> s.get(buf, 0, a, 0, 1, r), "freed");
        c.expectShmemException("putmem to a freed object", () -> s.putmem(a, 0, MemorySegment.ofArray(buf), r));
        c.expectShmemException("p to a freed object", () -> s.p(a, 0, 1L, r));
        c.expectShmemException("g from a freed object", () -> s.g(b, 0, r));
        c.expectShmemException("atomicInc on a freed object", () -> s.atomicInc(a, 0, r));
        c.expectShmemException("atomicFetchAdd on a freed object", () -> s.atomicFetchAdd(b, 0, 1, r));
        c.expectShmemException("atomicFetchNbi on a freed object", () -> s.atomicFetchNbi(fl, 0, a, 0, r));
        c.expectShmemException("iput to a freed object", () -> s.iput(a, 0, 2, buf, 0, 1, 2, r));
        c.expectShmemException("waitUntil on a freed object", () -> s.waitUntil(a, 0, Cmp.EQ, 0));
        c.expectShmemException("testAll on a freed object", () -> s.testAll(b, null, Cmp.EQ, 0));
        c.expectShmemException("waitUntilAny on a freed object", () -> s.waitUntilAny(a, null, Cmp.EQ, 0));
        c.expectShmemException("local() of a freed object", a::local, "freed");
        c.expectShmemException("local get of a freed object", () -> a.get(0), "freed");
        c.expectShmemException("local set of a freed object", () -> b.set(0, 1), "freed");
        c.expectShmemException("ptr of a freed object", () -> s.ptr(a, c.me));
        c.check(!s.addrAccessible(a, c.me), "addrAccessible(freed object) is true");
        // Collective calls on a freed object: every PE throws, before any synchronization.
        c.expectShmemException("free of a freed object", () -> s.free(a), "freed");
        c.expectShmemException("realloc of a freed object", () -> s.realloc(b, 8), "freed");
        stillUsable(c, "use of a freed object");
    }

    static void foreignObject(CaseContext c) {
        Shmem s = c.shmem;
        FakeLongArray fake = new FakeLongArray(4);
        int r = c.right();
        long[] buf = new long[4];
        long[] fl = new long[1];
        c.expectShmemException("put to a foreign object", () -> s.put(fake, 0, buf, 0, 1, r), "symmetric");
        c.expectShmemException("get from a foreign object", () -> s.get(buf, 0, fake, 0, 1, r));
        c.expectShmemException("put(segment) to a foreign object", () -> s.put(fake, 0, MemorySegment.ofArray(buf), r));
        c.expectShmemException("get(segment) from a foreign object", () -> s.get(MemorySegment.ofArray(buf), fake, 0, r));
        c.expectShmemException("putNbi(segment) to a foreign object", () -> s.putNbi(fake, 0, MemorySegment.ofArray(buf), r));
        c.expectShmemException("getNbi(segment) from a foreign object", () -> s.getNbi(MemorySegment.ofArray(buf), fake, 0, r));
        c.expectShmemException("putNbi to a foreign object", () -> s.putNbi(fake, 0, buf, 0, 1, r));
        c.expectShmemException("putmem to a foreign object", () -> s.putmem(fake, 0, MemorySegment.ofArray(buf), r));
        c.expectShmemException("getmem from a foreign object", () -> s.getmem(MemorySegment.ofArray(buf), fake, 0, r));
        c.expectShmemException("p to a foreign object", () -> s.p(fake, 0, 1L, r));
        c.expectShmemException("g from a foreign object", () -> s.g(fake, 0, r));
        c.expectShmemException("atomicInc on a foreign object", () -> s.atomicInc(fake, 0, r));
        c.expectShmemException("atomicCompareSwap on a foreign object", () -> s.atomicCompareSwap(fake, 0, 0, 1, r));
        c.expectShmemException("atomicFetchXorNbi on a foreign object", () -> s.atomicFetchXorNbi(fl, 0, fake, 0, 1, r));
        c.expectShmemException("ibget from a foreign object", () -> s.ibget(buf, 0, 2, fake, 0, 2, 1, 2, r));
        c.expectShmemException("waitUntil on a foreign object", () -> s.waitUntil(fake, 0, Cmp.EQ, 0));
        c.expectShmemException("test on a foreign object", () -> s.test(fake, 0, Cmp.EQ, 0));
        c.expectShmemException("testSome on a foreign object", () -> s.testSome(fake, new long[4], null, Cmp.EQ, 0));
        c.expectShmemException("ptr of a foreign object", () -> s.ptr(fake, c.me));
        c.expectShmemException("free of a foreign object", () -> s.free(fake));
        c.expectShmemException("realloc of a foreign object", () -> s.realloc(fake, 8));
        c.expectShmemException("put to a null object", () -> s.put((SymLongArray) null, 0, buf, 0, 1, r));
        c.expectShmemException("p to a null object", () -> s.p((SymLongArray) null, 0, 1L, r));
        c.expectShmemException("put(segment) to a null object", () -> s.put((SymLongArray) null, 0, MemorySegment.ofArray(buf), r));
        c.expectShmemException("get from a null object", () -> s.get(buf, 0, (SymLongArray) null, 0, 1, r));
        c.expectShmemException("atomicInc on a null object", () -> s.atomicInc((SymLongArray) null, 0, r));
        c.check(!s.addrAccessible(fake, c.me), "addrAccessible(foreign object) is true");
        c.checkEq(0, fake.get(0), "the foreign object's memory was written");
        stillUsable(c, "use of a foreign object");
    }

    static void allocArguments(CaseContext c) {
        Shmem s = c.shmem;
        c.expectShmemException("malloc(-1)", () -> s.malloc(SymType.LONG, -1), "-1");
        c.expectShmemException("calloc(Long.MIN_VALUE)", () -> s.calloc(SymType.INT, Long.MIN_VALUE));
        c.expectShmemException("align(64, -8)", () -> s.align(64, SymType.BYTE, -8));
        c.expectShmemException("mallocWithHints(-2)", () -> s.mallocWithHints(SymType.LONG, -2, 0));
        for (long al : new long[] {0, -8, 3, 24, 100}) {
            c.expectShmemException("align(" + al + ") (not a power of two)", () -> s.align(al, SymType.LONG, 4));
        }
        // An alignment no block of the heap can start on: the message names the alignment, not the size.
        c.expectShmemException("align(1L << 62)", () -> s.align(1L << 62, SymType.LONG, 4), "alignment 4611686018427387904",
                "SHMEM_SYMMETRIC_SIZE");
        // Hints are advisory; bits outside SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE are
        // ignored with a warning, as Sandia OpenSHMEM does (tests-sos expects an object, as malloc's).
        for (long hints : new long[] {4, (1L << 40) | Shmem.MALLOC_ATOMICS_REMOTE | Shmem.MALLOC_SIGNAL_REMOTE}) {
            SymLongArray h = s.mallocWithHints(SymType.LONG, 4, hints);
            c.checkEq(4L, h.length(), "mallocWithHints with hint bits 0x" + Long.toHexString(hints) + ": length");
            s.free(h);
        }
        SymLongArray a = c.calloc(SymType.LONG, 4);
        a.set(3, 33);
        c.expectShmemException("realloc(-1)", () -> s.realloc(a, -1));
        c.check(s.addrAccessible(a, c.me), "a failed realloc freed the object");
        c.checkEq(33, a.get(3), "a failed realloc changed the object");
        stillUsable(c, "bad allocation arguments");
    }

    /** More than SHMEM_SYMMETRIC_SIZE: a ShmemException naming the variable and the byte count; the heap stays usable. */
    static void heapExhausted(CaseContext c) {
        Shmem s = c.shmem;
        long heap = CaseContext.heapSize();
        long tooBig = heap + 65_537;
        ShmemException e = c.expectShmemException("malloc(" + tooBig + " bytes)", () -> s.malloc(SymType.BYTE, tooBig),
                "SHMEM_SYMMETRIC_SIZE", Long.toString(tooBig));
        c.check(e instanceof HeapExhaustedException h && h.requestedBytes() == tooBig && h.freeBytes() < tooBig,
                "malloc(" + tooBig + " bytes) threw " + e.getClass().getName() + ", not a HeapExhaustedException with its size");
        long longs = heap / 8 + 1;
        c.expectShmemException("calloc(" + longs + " longs)", () -> s.calloc(SymType.LONG, longs),
                "SHMEM_SYMMETRIC_SIZE", Long.toString(longs * 8));
        e = c.expectShmemException("malloc(Long.MAX_VALUE / 2 longs) (byte count overflows)",
                () -> s.malloc(SymType.LONG, Long.MAX_VALUE / 2), "SHMEM_SYMMETRIC_SIZE");
        c.check(e instanceof HeapExhaustedException, "an overflowing malloc threw " + e.getClass().getName()
                + ", not a HeapExhaustedException");
        // Byte counts just below Long.MAX_VALUE wrapped around in the allocator's rounding, and it was broken for good.
        for (long huge : new long[] {(1L << 60) - 1, Long.MAX_VALUE / 8}) {
            e = c.expectShmemException("calloc(" + huge + " longs)", () -> s.calloc(SymType.LONG, huge), "SHMEM_SYMMETRIC_SIZE");
            c.check(e instanceof HeapExhaustedException, "calloc(" + huge + " longs) threw " + e.getClass().getName());
        }
        e = c.expectShmemException("malloc(Long.MAX_VALUE bytes)", () -> s.malloc(SymType.BYTE, Long.MAX_VALUE), "SHMEM_SYMMETRIC_SIZE");
        c.check(e instanceof HeapExhaustedException, "malloc(Long.MAX_VALUE bytes) threw " + e.getClass().getName());
        // Part of the heap in use: a request for more than what is left fails, then works after a free.
        SymByteArray big = c.calloc(SymType.BYTE, 4);
        SymByteArray half = s.malloc(SymType.BYTE, heap / 2);
        long rest = heap - heap / 2 + 4096;
        c.expectShmemException("malloc(" + rest + " bytes) with half the heap in use", () -> s.malloc(SymType.BYTE, rest),
                "SHMEM_SYMMETRIC_SIZE", Long.toString(rest));
        c.expectShmemException("realloc to more than the heap", () -> s.realloc(big, tooBig), "SHMEM_SYMMETRIC_SIZE");
        c.check(s.addrAccessible(big, c.me), "a realloc that failed for lack of space freed the object");
        s.free(half);
        SymByteArray again = c.malloc(SymType.BYTE, rest);
        s.p(again, rest - 1, (byte) c.me, c.right());
        s.barrierAll();
        c.checkEq((byte) c.left(), again.get(rest - 1), "last byte of an object allocated after the failures");
        stillUsable(c, "heap exhaustion");
    }

    /** Bad local-side Java arrays (or segments): nothing is transferred. */
    static void localArrayArguments(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray l = c.calloc(SymType.LONG, 16);
        SymIntArray in = c.calloc(SymType.INT, 4);
        for (int k = 0; k < 16; k++) {
            l.set(k, 1000 + k);
        }
        in.set(0, 7);
        s.barrierAll();
        int r = c.right();
        long[] small = new long[4];
        c.expectArgumentException("put from a source array that is too short", () -> s.put(l, 0, small, 0, 8, r));
        c.expectArgumentException("put from sourceIndex -1", () -> s.put(l, 0, small, -1, 2, r));
        c.expectArgumentException("get into a destination array that is too short", () -> s.get(small, 2, l, 0, 4, r));
        c.expectArgumentException("get with a negative count", () -> s.get(small, 0, l, 0, -1, r));
        c.expectArgumentException("put with a negative count", () -> s.put(l, 0, small, 0, -1, r));
        c.expectArgumentException("put of a segment that is not a whole number of elements",
                () -> s.put(l, 0, MemorySegment.ofArray(new byte[12]), r));
        c.expectArgumentException("iput with stride 0", () -> s.iput(l, 0, 0, small, 0, 1, 2, r));
        c.expectArgumentException("iget with a negative stride", () -> s.iget(small, 0, 1, l, 0, -2, 2, r));
        c.expectArgumentException("iget past the end of the local array", () -> s.iget(small, 0, 3, l, 0, 1, 3, r));
        c.expectArgumentException("ibput with blocks longer than the stride", () -> s.ibput(l, 0, 2, small, 0, 4, 3, 2, r));
        // Strides whose extent wraps around a long passed the range checks and wrote elsewhere (over UCX: the target crashed).
        c.expectArgumentException("iget with a stride that overflows", () -> s.iget(small, 0, 1, l, 0, 0x5555555555555556L, 4, r));
        c.expectArgumentException("iput with a stride that overflows", () -> s.iput(l, 0, 1L << 62, small, 0, 1, 5, r));
        long[] fetch = new long[1];
        c.expectArgumentException("atomicFetchIncNbi with fetchIndex 1 in a 1-element array",
                () -> s.atomicFetchIncNbi(fetch, 1, l, 5, r));
        c.expectArgumentException("atomicSwapNbi with fetchIndex -1", () -> s.atomicSwapNbi(fetch, -1, l, 6, 99L, r));
        int[] ifetch = new int[0];
        c.expectArgumentException("atomicFetchAddNbi(int) into an empty fetch array", () -> s.atomicFetchAddNbi(ifetch, 0, in, 0, 5, r));
        c.expectNullPointer("initThread(null)", () -> Shmem.initThread(null), "the requested thread level is null");
        // A null local array: the same exception and message to this PE (shared memory) and to the
        // right neighbour (over the network transport in a job across hosts), before anything moves.
        for (int pe : new int[] {c.me, r}) {
            String to = " to PE " + pe;
            String npe = "local array is null";
            c.expectNullPointer("put from a null array" + to, () -> s.put(l, 10, (long[]) null, 0, 1, pe), npe);
            c.expectNullPointer("get into a null array" + to, () -> s.get((long[]) null, 0, l, 10, 1, pe), npe);
            c.expectNullPointer("putNbi from a null array" + to, () -> s.putNbi(l, 10, (long[]) null, 0, 1, pe), npe);
            c.expectNullPointer("getNbi into a null array" + to, () -> s.getNbi((long[]) null, 0, l, 10, 1, pe), npe);
            c.expectNullPointer("iput from a null array" + to, () -> s.iput(l, 10, 1, (long[]) null, 0, 1, 2, pe), npe);
            c.expectNullPointer("iget into a null array" + to, () -> s.iget((long[]) null, 0, 1, l, 10, 1, 2, pe), npe);
            c.expectNullPointer("putSignal from a null array" + to,
                    () -> s.putSignal(l, 10, (long[]) null, 0, 1, l, 11, 1, SignalOp.SET, pe), npe);
            // A null signal operation would write the data and no signal: refused before the data goes.
            String op = "signal operation (sigOp) is null";
            c.expectNullPointer("putSignal with a null SignalOp" + to,
                    () -> s.putSignal(l, 12, new long[] {-1}, 0, 1, l, 13, 1, null, pe), op);
            c.expectNullPointer("putSignalNbi with a null SignalOp" + to,
                    () -> s.putSignalNbi(l, 12, new long[] {-1}, 0, 1, l, 13, 1, null, pe), op);
            c.expectNullPointer("putSignal(segment) with a null SignalOp" + to,
                    () -> s.putSignal(l, 12, MemorySegment.ofArray(new long[] {-1}), l, 13, 1, null, pe), op);
            c.expectNullPointer("putSignalNbi(segment) with a null SignalOp" + to,
                    () -> s.putSignalNbi(l, 12, MemorySegment.ofArray(new long[] {-1}), l, 13, 1, null, pe), op);
        }
        s.quiet();
        s.barrierAll();
        // None of the rejected calls may have done its remote part (the left neighbour's calls target this PE).
        c.checkEq(1005, l.get(5), "target of the left neighbour's atomicFetchIncNbi with fetchIndex 1 in a 1-element array"
                + " (it threw, so the atomic must not have happened)");
        c.checkEq(1006, l.get(6), "target of the left neighbour's atomicSwapNbi with fetchIndex -1 (it threw)");
        c.checkEq(7, in.get(0), "target of the left neighbour's atomicFetchAddNbi into an empty fetch array (it threw)");
        for (int k = 0; k < 16; k++) {
            if (k != 5 && k != 6 && !c.checkEq(1000 + k, l.get(k), "element " + k + " after rejected puts/gets from the left neighbour")) {
                break;
            }
        }
        stillUsable(c, "bad local arrays");
    }

    /** status, comparison values or indices shorter than ivars. */
    static void syncArraysTooShort(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray l = c.calloc(SymType.LONG, 6);
        SymIntArray in = c.calloc(SymType.INT, 6);
        SymShortArray sh = c.calloc(SymType.SHORT, 6);
        int[] st = new int[5];
        long[] idx = new long[6];
        c.expectArgumentException("testAll with 5 status entries for 6 ivars", () -> s.testAll(l, st, Cmp.EQ, 0));
        c.expectArgumentException("testAny with 5 status entries", () -> s.testAny(in, st, Cmp.EQ, 0));
        c.expectArgumentException("testSome with 5 status entries", () -> s.testSome(sh, idx, st, Cmp.EQ, (short) 0));
        c.expectArgumentException("waitUntilAll with 5 status entries", () -> s.waitUntilAll(l, st, Cmp.EQ, 0));
        c.expectArgumentException("waitUntilAny with 5 status entries", () -> s.waitUntilAny(in, st, Cmp.EQ, 0));
        c.expectArgumentException("waitUntilSome with 5 status entries", () -> s.waitUntilSome(l, idx, st, Cmp.EQ, 0));
        c.expectArgumentException("waitUntilAllVector with 5 values", () -> s.waitUntilAllVector(l, null, Cmp.EQ, new long[5]));
        c.expectArgumentException("testAnyVector with 5 values", () -> s.testAnyVector(in, null, Cmp.EQ, new int[5]));
        c.expectArgumentException("testSomeVector(short) with 5 values", () -> s.testSomeVector(sh, idx, null, Cmp.EQ, new short[5]));
        c.expectArgumentException("waitUntilSomeVector with 5 values", () -> s.waitUntilSomeVector(l, idx, null, Cmp.EQ, new long[5]));
        c.expectArgumentException("testSome with room for 5 indices", () -> s.testSome(l, new long[5], null, Cmp.EQ, 0));
        c.expectArgumentException("waitUntilSome with room for 5 indices", () -> s.waitUntilSome(in, new long[5], null, Cmp.EQ, 0));
        stillUsable(c, "short synchronization arrays");
    }

    /**
     * With SHMEM_DEBUG, a collective call with different arguments on different PEs throws on every
     * PE, naming each argument that differs, its values and the PEs; the runtime stays usable. Skipped without SHMEM_DEBUG
     * (the mismatch would break the heap's symmetry) and at 1 PE.
     */
    static void debugMismatch(CaseContext c) {
        if (!CaseContext.debugEnabled()) {
            c.skip("needs SHMEM_DEBUG=1");
        }
        if (c.npes < 2) {
            c.skip("needs at least 2 PEs");
        }
        Shmem s = c.shmem;
        long length = 1000 + c.me;
        ShmemException e = c.expectShmemException("malloc(" + length + " longs) with a different length on each PE",
                () -> s.malloc(SymType.LONG, length), "SHMEM_DEBUG");
        if (e != null) {
            String m = e.getMessage();
            for (int pe = 0; pe < c.npes; pe++) {
                long len = 1000 + pe;
                c.check(m.contains("PE " + pe), "the SHMEM_DEBUG message does not name PE " + pe + ": " + m);
                c.check(m.contains((pe == 0 ? "bytes " : " vs ") + len * 8 + " on PE " + pe),
                        "the SHMEM_DEBUG message does not give PE " + pe + "'s size, labelled (bytes " + len * 8 + " on PE " + pe + "): " + m);
            }
        }
        // Mismatched free: each PE frees a different object.
        SymIntArray x = c.calloc(SymType.INT, 4);
        SymIntArray y = c.calloc(SymType.INT, 8);
        c.expectShmemException("free of different objects on different PEs", () -> s.free(c.me % 2 == 0 ? x : y), "SHMEM_DEBUG");
        c.check(s.addrAccessible(x, c.me) && s.addrAccessible(y, c.me), "a free rejected by SHMEM_DEBUG freed the object");
        // Team collectives: a different root, a different element count.
        SymLongArray src = c.calloc(SymType.LONG, 8);
        SymLongArray dst = c.calloc(SymType.LONG, 8);
        ShmemException b = c.expectShmemException("broadcast with a different root on each PE",
                () -> s.teamWorld().broadcast(dst, src, 4, c.me), "SHMEM_DEBUG", "broadcast");
        if (b != null) {
            for (int pe = 0; pe < c.npes; pe++) {
                c.check(b.getMessage().contains((pe == 0 ? "root " : " vs ") + pe + " on PE " + pe),
                        "the broadcast mismatch message does not give PE " + pe + "'s root, labelled: " + b.getMessage());
            }
            c.check(!b.getMessage().contains("bytes"), "the broadcast mismatch message names an argument that agrees: " + b.getMessage());
        }
        ShmemException r = c.expectShmemException("sum_reduce with a different count on each PE",
                () -> s.teamWorld().sumReduce(dst, src, 1 + c.me % 2), "SHMEM_DEBUG", "sum_reduce");
        if (r != null) {
            String pesWith1 = c.npes > 2 ? "on PEs 0, 2" : "on PE 0";
            c.check(r.getMessage().contains("nelems 1 " + pesWith1 + " vs 2 on PE"),
                    "the sum_reduce mismatch message does not label the counts (nelems 1 " + pesWith1 + " vs 2 on PE...): " + r.getMessage());
        }
        s.teamWorld().sumReduce(dst, src, 4); // matching arguments still work
        c.checkEq(0, dst.get(0), "a reduction with matching arguments under SHMEM_DEBUG");
        // The same call with matching arguments works.
        SymLongArray ok = c.calloc(SymType.LONG, 1000);
        c.checkEq(1000, ok.length(), "malloc with matching lengths under SHMEM_DEBUG");
        stillUsable(c, "a SHMEM_DEBUG mismatch");
    }
}
