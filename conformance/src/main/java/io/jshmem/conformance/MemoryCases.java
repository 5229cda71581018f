/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.SymArray;
import io.jshmem.SymByteArray;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Memory management: malloc, calloc, align, mallocWithHints, realloc, free; reuse without leaks. */
final class MemoryCases {
    private MemoryCases() {
    }

    static List<Case> cases() {
        return List.of(
                Case.of("memory.malloc", MemoryCases::malloc),
                Case.of("memory.calloc-zeroed", MemoryCases::callocZeroed),
                Case.of("memory.align", MemoryCases::align),
                Case.of("memory.malloc-with-hints", MemoryCases::mallocWithHints),
                Case.of("memory.realloc", MemoryCases::realloc),
                Case.of("memory.free", MemoryCases::free),
                Case.of("memory.zero-length", MemoryCases::zeroLength),
                Case.of("memory.free-null", MemoryCases::freeNull),
                Case.of("memory.cycles-no-leak", MemoryCases::cyclesNoLeak));
    }

    /** Every type: length, byteSize and type are right; the object is usable by every PE at the same index. */
    static void malloc(CaseContext c) {
        Shmem s = c.shmem;
        for (TypeOps<?, ?> t : TypeOps.ALL) {
            mallocOne(c, t);
        }
        // Several live objects do not overlap: fill each with its own pattern, check all afterwards.
        List<SymLongArray> objects = new ArrayList<>();
        for (int k = 0; k < 10; k++) {
            SymLongArray a = c.malloc(SymType.LONG, 1 + 37L * k);
            for (long i = 0; i < a.length(); i++) {
                a.set(i, k * 1_000_000L + i);
            }
            objects.add(a);
        }
        s.barrierAll();
        for (int k = 0; k < objects.size(); k++) {
            SymLongArray a = objects.get(k);
            for (long i = 0; i < a.length(); i++) {
                if (!c.checkEq(k * 1_000_000L + i, a.get(i), "object " + k + " element " + i + " (overlapping objects?)")) {
                    break;
                }
            }
            c.checkEq(k * 1_000_000L + a.length() - 1, s.g(a, a.length() - 1, c.right()),
                    "last element of object " + k + " on the right neighbour");
        }
    }

    private static <A, S extends SymArray<A>> void mallocOne(CaseContext c, TypeOps<A, S> t) {
        Shmem s = c.shmem;
        int n = Math.max(c.npes, 33);
        S obj = c.malloc(t.type, n);
        c.checkEq(n, obj.length(), t.name + ": malloc length()");
        c.checkEq((long) n * t.size, obj.byteSize(), t.name + ": malloc byteSize()");
        c.check(obj.type() == t.type, t.name + ": malloc type() is " + obj.type());
        c.checkEq((long) n * t.size, obj.local().byteSize(), t.name + ": local().byteSize()");
        // Every PE writes its pattern at index me in every PE's copy: the same index names the same object everywhere.
        for (int pe = 0; pe < c.npes; pe++) {
            t.p(s, obj, c.me, t.pattern(c.me, 0, 11), pe);
        }
        s.barrierAll();
        for (int pe = 0; pe < c.npes; pe++) {
            c.checkEq(t.pattern(pe, 0, 11), t.local(obj, pe), t.name + ": element " + pe + " written by PE " + pe);
        }
    }

    /** calloc gives zeros even where a previous object left data. */
    static void callocZeroed(CaseContext c) {
        Shmem s = c.shmem;
        for (TypeOps<?, ?> t : TypeOps.ALL) {
            callocOne(c, s, t);
        }
    }

    private static <A, S extends SymArray<A>> void callocOne(CaseContext c, Shmem s, TypeOps<A, S> t) {
        int n = 4096 / t.size;
        S dirty = s.malloc(t.type, n);
        dirty.local().fill((byte) 0x5A);
        s.free(dirty);
        S zero = c.calloc(t.type, n);
        c.checkEq(n, zero.length(), t.name + ": calloc length()");
        long firstNonZero = zero.local().mismatch(MemorySegment.ofArray(new byte[(int) zero.byteSize()]));
        c.check(firstNonZero == -1, t.name + ": calloc memory is not zero at byte " + firstNonZero);
        // The right neighbour's copy is zero as well.
        A got = t.newArray(n);
        s.get(got, 0, zero, 0, n, c.right());
        for (int i = 0; i < n; i++) {
            if (!c.checkEq(0, t.bits(got, i), t.name + ": calloc element " + i + " on the right neighbour")) {
                break;
            }
        }
        s.barrierAll();
    }

    /** align: the first element is aligned (checked on the address, local and through ptr); the object works. */
    static void align(CaseContext c) {
        Shmem s = c.shmem;
        long[] alignments = {1, 2, 8, 64, 128, 4096, 65536, 1 << 20};
        List<SymByteArray> live = new ArrayList<>();
        SymByteArray spacer = c.malloc(SymType.BYTE, 24); // so the next object does not start on a lucky boundary
        for (long al : alignments) {
            SymByteArray a = c.track(s.align(al, SymType.BYTE, 100));
            live.add(a);
            c.checkEq(100, a.length(), "align(" + al + ") length()");
            long local = a.local().address();
            c.checkEq(0, local % al, "align(" + al + "): local().address() % alignment (address 0x" + Long.toHexString(local) + ")");
            for (int pe = 0; pe < c.npes; pe++) {
                final int target = pe;
                s.ptr(a, pe).ifPresent(seg -> c.checkEq(0, seg.address() % al,
                        "align(" + al + "): ptr(object, " + target + ").address() % alignment"));
            }
            s.p(a, 99, (byte) (c.me + al), c.right());
        }
        SymLongArray aligned = c.track(s.align(256, SymType.LONG, 7));
        c.checkEq(0, aligned.local().address() % 256, "align(256, LONG) address");
        s.barrierAll();
        for (int k = 0; k < alignments.length; k++) {
            c.checkEq((byte) (c.left() + alignments[k]), live.get(k).get(99), "align(" + alignments[k] + ") last element put by the left neighbour");
        }
        c.check(spacer.length() == 24, "spacer length");
    }

    static void mallocWithHints(CaseContext c) {
        Shmem s = c.shmem;
        // The last: hint bits the spec does not define, which behave as malloc (tests-sos expects an object).
        long[] hints = {0, Shmem.MALLOC_ATOMICS_REMOTE, Shmem.MALLOC_SIGNAL_REMOTE,
                        Shmem.MALLOC_ATOMICS_REMOTE | Shmem.MALLOC_SIGNAL_REMOTE, ~Shmem.MALLOC_ATOMICS_REMOTE};
        List<SymLongArray> objs = new ArrayList<>();
        for (long h : hints) {
            SymLongArray a = c.track(s.mallocWithHints(SymType.LONG, 8, h));
            c.checkEq(8, a.length(), "mallocWithHints(" + h + ") length()");
            a.set(0, 0);
            objs.add(a);
        }
        SymIntArray ints = c.track(s.mallocWithHints(SymType.INT, 3, Shmem.MALLOC_ATOMICS_REMOTE));
        ints.set(1, 0);
        s.barrierAll();
        for (SymLongArray a : objs) {
            s.atomicAdd(a, 0, c.me + 1, 0);
        }
        s.atomicInc(ints, 1, 0);
        s.barrierAll();
        if (c.me == 0) {
            long expected = (long) c.npes * (c.npes + 1) / 2;
            for (int k = 0; k < objs.size(); k++) {
                c.checkEq(expected, objs.get(k).get(0), "sum of atomic adds into mallocWithHints(" + hints[k] + ") object");
            }
            c.checkEq(c.npes, ints.get(1), "atomic incs into a mallocWithHints int object");
        }
    }

    /** realloc keeps the contents (grown in place, grown by moving, shrunk); the old object is dead. */
    static void realloc(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray a = c.malloc(SymType.LONG, 100);
        for (int i = 0; i < 100; i++) {
            a.set(i, c.me * 10_000L + i);
        }
        SymLongArray blocker = c.malloc(SymType.LONG, 8); // right after a: growing a must move it
        blocker.set(0, 777);
        s.barrierAll();
        SymLongArray b = c.track(s.realloc(a, 1000));
        c.checkEq(1000, b.length(), "realloc(100 -> 1000) length()");
        for (int i = 0; i < 100; i++) {
            if (!c.checkEq(c.me * 10_000L + i, b.get(i), "realloc(100 -> 1000) kept element " + i)) {
                break;
            }
        }
        c.checkEq(777, blocker.get(0), "the object after the reallocated one is intact");
        c.check(!s.addrAccessible(a, c.me), "the object passed to realloc is still accessible");
        c.expectShmemException("get(0) on the object passed to realloc", () -> a.get(0));
        c.expectShmemException("p on the object passed to realloc", () -> s.p(a, 0, 1L, c.right()));
        // The new object is symmetric: write the grown part on the right neighbour.
        long[] tail = new long[900];
        for (int i = 0; i < 900; i++) {
            tail[i] = c.me * 10_000L + 100 + i;
        }
        s.put(b, 100, tail, 0, 900, c.right());
        s.barrierAll();
        for (int i = 100; i < 1000; i++) {
            if (!c.checkEq(c.left() * 10_000L + i, b.get(i), "grown part element " + i + " put by the left neighbour")) {
                break;
            }
        }
        // Shrink: the first 10 elements stay.
        for (int i = 0; i < 100; i++) {
            b.set(i, -c.me * 10_000L - i);
        }
        s.barrierAll();
        SymLongArray d = c.track(s.realloc(b, 10));
        c.checkEq(10, d.length(), "realloc(1000 -> 10) length()");
        for (int i = 0; i < 10; i++) {
            c.checkEq(-c.me * 10_000L - i, d.get(i), "realloc(1000 -> 10) kept element " + i);
        }
        c.checkEq(-c.right() * 10_000L - 9, s.g(d, 9, c.right()), "shrunk object's last element on the right neighbour");
        // Grow in place (free space follows after shrinking? not necessarily): contents kept either way.
        SymLongArray e = c.track(s.realloc(d, 20));
        for (int i = 0; i < 10; i++) {
            c.checkEq(-c.me * 10_000L - i, e.get(i), "realloc(10 -> 20) kept element " + i);
        }
        // realloc of other types, and to the same size.
        SymDoubleArray x = c.malloc(SymType.DOUBLE, 5);
        for (int i = 0; i < 5; i++) {
            x.set(i, i + 0.25 + c.me);
        }
        s.barrierAll();
        SymDoubleArray y = c.track(s.realloc(x, 5));
        for (int i = 0; i < 5; i++) {
            c.check(y.get(i) == i + 0.25 + c.me, "realloc(5 -> 5) double element " + i + " = " + y.get(i));
        }
        SymByteArray bytes = c.calloc(SymType.BYTE, 3);
        bytes.set(2, (byte) 9);
        s.barrierAll();
        SymByteArray bytes2 = c.track(s.realloc(bytes, 100_000));
        c.checkEq(9, bytes2.get(2), "realloc(3 -> 100000) byte element 2");
    }

    static void free(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray a = s.calloc(SymType.LONG, 64);
        SymLongArray keep = c.calloc(SymType.LONG, 64);
        keep.set(63, 4242);
        s.free(a);
        c.check(!s.addrAccessible(a, c.me), "addrAccessible is true after free");
        c.expectShmemException("local() after free", a::local, "free");
        c.expectShmemException("set() after free", () -> a.set(0, 1));
        c.checkEq(4242, keep.get(63), "another object after a free");
        // The space is reusable: a new object of the same size works and is symmetric.
        SymLongArray b = c.calloc(SymType.LONG, 64);
        s.p(b, 5, 100 + c.me, c.right());
        s.barrierAll();
        c.checkEq(100 + c.left(), b.get(5), "object allocated in freed space, element put by the left neighbour");
        // Free in a different order from allocation.
        SymIntArray x = s.malloc(SymType.INT, 10);
        SymIntArray y = s.malloc(SymType.INT, 20);
        SymIntArray z = s.malloc(SymType.INT, 30);
        s.free(y);
        s.free(x);
        s.free(z);
        c.check(!s.addrAccessible(x, c.me) && !s.addrAccessible(y, c.me) && !s.addrAccessible(z, c.me),
                "objects freed out of order are still accessible");
    }

    static void zeroLength(CaseContext c) {
        Shmem s = c.shmem;
        for (TypeOps<?, ?> t : TypeOps.ALL) {
            SymArray<?> z = c.malloc(t.type, 0);
            c.checkEq(0, z.length(), t.name + ": malloc(0).length()");
            c.checkEq(0, z.byteSize(), t.name + ": malloc(0).byteSize()");
        }
        SymLongArray z1 = c.malloc(SymType.LONG, 0);
        SymLongArray z2 = c.calloc(SymType.LONG, 0);
        SymLongArray z3 = c.track(s.align(64, SymType.LONG, 0));
        SymLongArray z4 = c.track(s.mallocWithHints(SymType.LONG, 0, Shmem.MALLOC_ATOMICS_REMOTE));
        SymLongArray real = c.calloc(SymType.LONG, 4);
        // Zero-element transfers to and from an empty object are fine.
        s.put(z1, 0, new long[1], 0, 0, c.right());
        s.get(new long[1], 0, z2, 0, 0, c.right());
        s.put(z3, 0, MemorySegment.ofArray(new long[0]), c.right());
        s.quiet();
        c.expectShmemException("p into element 0 of an empty object", () -> s.p(z4, 0, 1L, c.right()));
        // realloc from and to zero length.
        SymLongArray grown = c.track(s.realloc(z1, 10));
        c.checkEq(10, grown.length(), "realloc(empty -> 10) length()");
        grown.set(9, 99);
        s.p(real, 0, 7 + c.me, c.right());
        SymLongArray shrunk = c.track(s.realloc(grown, 0));
        c.checkEq(0, shrunk.length(), "realloc(10 -> 0) length()");
        s.barrierAll();
        c.checkEq(7 + c.left(), real.get(0), "an object next to empty ones, element put by the left neighbour");
        s.free(z2);
        c.check(!s.addrAccessible(z2, c.me), "empty object still accessible after free");
    }

    /**
     * shmem_free(NULL) performs no action (1.6), the Java form free(null) too: every PE passes
     * null (the argument must be the same everywhere), live objects stay usable, and the heap's
     * state is unchanged (the next allocation is where it would have been).
     */
    static void freeNull(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray a = c.calloc(SymType.LONG, 4);
        for (int i = 0; i < 3; i++) {
            s.free(null);
        }
        s.p(a, 0, 11 + c.me, c.right());
        s.barrierAll();
        c.checkEq(11 + c.left(), a.get(0), "an object allocated before free(null), put by the left neighbour");
        c.check(s.addrAccessible(a, c.right()), "an object stays accessible after free(null)");
        SymLongArray b = c.calloc(SymType.LONG, 4);
        s.p(b, 3, 5 + c.me, c.right());
        s.barrierAll();
        c.checkEq(5 + c.left(), b.get(3), "an object allocated after free(null)");
    }

    /**
     * Many allocate/free cycles (the same pseudo-random sequence on every PE) leave nothing behind:
     * afterwards almost the whole heap (SHMEM_SYMMETRIC_SIZE) can be allocated in one object.
     */
    static void cyclesNoLeak(CaseContext c) {
        Shmem s = c.shmem;
        long heap = CaseContext.heapSize();
        long maxObject = Math.max(64, heap / 64);
        SplittableRandom rnd = new SplittableRandom(12345);
        List<SymArray<?>> live = new ArrayList<>();
        for (int cycle = 0; cycle < 300; cycle++) {
            int op = rnd.nextInt(10);
            if (op < 6 || live.isEmpty()) {
                long bytes = 1 + rnd.nextLong(maxObject);
                SymArray<?> o = switch (rnd.nextInt(4)) {
                    case 0 -> s.malloc(SymType.BYTE, bytes);
                    case 1 -> s.calloc(SymType.LONG, bytes / 8);
                    case 2 -> s.align(1L << rnd.nextInt(13), SymType.INT, bytes / 4);
                    default -> s.realloc(s.malloc(SymType.SHORT, 5), bytes / 2);
                };
                live.add(o);
            } else {
                s.free(live.remove(rnd.nextInt(live.size())));
            }
            if (live.size() > 12) {
                s.free(live.remove(0));
            }
        }
        for (SymArray<?> o : live) {
            s.free(o);
        }
        // Nothing is allocated now (the runner frees every case's objects): the whole heap is free.
        long whole = heap;
        try {
            SymByteArray big = c.track(s.malloc(SymType.BYTE, whole));
            c.checkEq(whole, big.length(), "length of the whole-heap object");
            s.p(big, whole - 1, (byte) c.me, c.right());
            s.p(big, 0, (byte) (c.me + 1), c.right());
            s.barrierAll();
            c.checkEq((byte) c.left(), big.get(whole - 1), "last byte of the whole-heap object, put by the left neighbour");
            c.checkEq((byte) (c.left() + 1), big.get(0), "first byte of the whole-heap object");
            s.free(big);
        } catch (ShmemException e) {
            c.fail("after 300 allocate/free cycles and freeing everything, malloc of the whole heap (" + whole
                    + " bytes = SHMEM_SYMMETRIC_SIZE) failed (leak?): " + e.getMessage());
        }
        // And twice half of it.
        SymByteArray h1 = c.track(s.malloc(SymType.BYTE, heap / 2));
        SymByteArray h2 = c.track(s.malloc(SymType.BYTE, heap / 2));
        c.check(h1.length() == heap / 2 && h2.length() == heap / 2, "two half-heap objects");
    }
}
