/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymByteArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;

/**
 * The caller's {@link MemorySegment} buffers, misused: closed, confined to another thread,
 * read-only (as a get's destination) or larger than the symmetric object, at sizes from 64 B to
 * 8 MiB, against every PE (on a job of two hosts some are reached over UCX, which takes raw
 * addresses). Each must throw what the JDK's own copy throws for it, the same to every PE, and
 * write no byte into any heap; then non-blocking transfers whose segment is closed before quiet.
 */
final class SegmentCases {
    private static final long[] SIZES = {64, 4096, 1 << 20, 8 << 20};
    private static final byte PATTERN = (byte) 0xA5;

    private SegmentCases() {
    }

    static List<Case> cases() {
        return List.of(
                Case.of("bad.user-segments", SegmentCases::badSegments),
                Case.of("rma.nbi-segment-closed-before-quiet", SegmentCases::closedBeforeQuiet),
                Case.of("bad.views-after-free", SegmentCases::viewsAfterFree));
    }

    /** The largest size the job's heap holds a few times over (the heap may be set small). */
    private static long[] sizes() {
        long max = CaseContext.heapSize() / 8;
        return java.util.Arrays.stream(SIZES).filter(n -> n <= max).toArray();
    }

    /** One misuse: how to make the segment, and whether a get into it (a write) or only a put from it is wrong. */
    private record Misuse(String name, boolean putToo, java.util.function.LongFunction<MemorySegment> make) {
    }

    static void badSegments(CaseContext c) throws Exception {
        Shmem s = c.shmem;
        long[] sizes = sizes();
        long max = sizes[sizes.length - 1];
        SymByteArray dest = c.calloc(SymType.BYTE, max);
        SymLongArray sig = c.calloc(SymType.LONG, 1);
        dest.local().fill(PATTERN);
        s.barrierAll();
        // A thread that owns a confined arena, and a segment of it of every size, until the case ends.
        CountDownLatch done = new CountDownLatch(1);
        CountDownLatch made = new CountDownLatch(1);
        java.util.Map<Long, MemorySegment> owned = new java.util.concurrent.ConcurrentHashMap<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (Arena a = Arena.ofConfined()) {
                for (long n : sizes) {
                    owned.put(n, a.allocate(n));
                }
                made.countDown();
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        made.await();
        try (Arena live = Arena.ofConfined()) {
            List<Misuse> misuses = List.of(
                    new Misuse("closed", true, n -> {
                        Arena a = Arena.ofConfined();
                        MemorySegment m = a.allocate(n);
                        a.close();
                        return m;
                    }),
                    new Misuse("closed-shared", true, n -> {
                        Arena a = Arena.ofShared();
                        MemorySegment m = a.allocate(n);
                        a.close();
                        return m;
                    }),
                    new Misuse("other-thread", true, owned::get),
                    new Misuse("read-only", false, n -> live.allocate(n).asReadOnly()));
            for (long n : sizes) {
                for (Misuse m : misuses) {
                    MemorySegment seg = m.make.apply(n);
                    // What the JDK's copy throws for this segment: every transport must throw it too.
                    Throwable putRef = m.putToo ? CaseContext.run(() -> MemorySegment.copy(seg, 0, MemorySegment.ofArray(new byte[(int) Math.min(n, 64)]), 0, Math.min(n, 64))) : null;
                    Throwable getRef = CaseContext.run(() -> MemorySegment.copy(MemorySegment.ofArray(new byte[(int) Math.min(n, 64)]), 0, seg, 0, Math.min(n, 64)));
                    if (m.putToo && putRef == null || getRef == null) {
                        c.fail(m.name + " " + n + " B: the JDK's copy did not refuse the segment; the case is wrong");
                        continue;
                    }
                    for (int pe = 0; pe < c.npes; pe++) {
                        int p = pe;
                        String w = " of a " + m.name + " " + n + " B segment, PE " + pe;
                        if (m.putToo) {
                            same(c, "put" + w, putRef, () -> s.put(dest, 0, seg, p));
                            same(c, "putmem" + w, putRef, () -> s.putmem(dest, 0, seg, p));
                            same(c, "putNbi" + w, putRef, () -> s.putNbi(dest, 0, seg, p));
                            same(c, "putmemNbi" + w, putRef, () -> s.putmemNbi(dest, 0, seg, p));
                            same(c, "putSignal" + w, putRef, () -> s.putSignal(dest, 0, seg, sig, 0, 1, SignalOp.ADD, p));
                            same(c, "putSignalNbi" + w, putRef, () -> s.putSignalNbi(dest, 0, seg, sig, 0, 1, SignalOp.ADD, p));
                        }
                        same(c, "get" + w, getRef, () -> s.get(seg, dest, 0, p));
                        same(c, "getmem" + w, getRef, () -> s.getmem(seg, dest, 0, p));
                        same(c, "getNbi" + w, getRef, () -> s.getNbi(seg, dest, 0, p));
                        same(c, "getmemNbi" + w, getRef, () -> s.getmemNbi(seg, dest, 0, p));
                    }
                    s.quiet();
                }
            }
            // Larger than the room in the symmetric object: refused before anything moves.
            MemorySegment big = live.allocate(max + 8);
            big.fill((byte) 0x3C);
            for (int pe = 0; pe < c.npes; pe++) {
                int p = pe;
                c.check(CaseContext.run(() -> s.putmem(dest, 0, big, p)) != null, "putmem of " + (max + 8) + " B into " + max + " B at PE " + pe + ": no exception");
                c.check(CaseContext.run(() -> s.putmemNbi(dest, 8, live.allocate(max), p)) != null, "putmemNbi past the end at PE " + pe + ": no exception");
                c.check(CaseContext.run(() -> s.getmem(big, dest, 0, p)) != null, "getmem of " + (max + 8) + " B from " + max + " B at PE " + pe + ": no exception");
            }
            s.quiet();
        } finally {
            done.countDown();
        }
        s.barrierAll();
        long wrong = dest.local().mismatch(MemorySegment.ofArray(filled(max)));
        c.check(wrong < 0, "a refused put wrote into this PE's heap: byte " + wrong + " is " + (wrong < 0 ? 0 : dest.local().get(JAVA_BYTE, wrong)));
        c.checkEq(0, sig.get(0), "signals from refused putSignal calls");
        s.barrierAll();
        BadInputCases.stillUsable(c, "refused segments");
    }

    private static byte[] filled(long n) {
        byte[] b = new byte[(int) n];
        java.util.Arrays.fill(b, PATTERN);
        return b;
    }

    /** {@code action} must throw {@code expected}'s class with its message. */
    private static void same(CaseContext c, String what, Throwable expected, Runnable action) {
        Throwable t = CaseContext.run(action);
        if (t == null) {
            c.fail(what + ": no exception (expected " + expected + ")");
        } else if (t.getClass() != expected.getClass() || !Objects.equals(t.getMessage(), expected.getMessage())) {
            c.fail(what + ": expected " + expected + ", got " + CaseContext.describe(t));
        }
    }

    /**
     * putNbi from, and getNbi into, segments of arenas closed before quiet: the puts' data arrives
     * whole, a get into a closed segment writes nothing anywhere (the PE goes on), and a get into
     * a segment still open is complete after quiet.
     */
    static void closedBeforeQuiet(CaseContext c) {
        Shmem s = c.shmem;
        long[] sizes = sizes();
        long max = sizes[sizes.length - 1];
        SymByteArray dest = c.calloc(SymType.BYTE, max);
        SymByteArray src = c.calloc(SymType.BYTE, max);
        for (long i = 0; i < max; i++) {
            src.local().set(JAVA_BYTE, i, value(c.me, i));
        }
        s.barrierAll();
        int to = c.right();
        for (long n : sizes) {
            for (boolean shared : new boolean[] {false, true}) {
                String w = (shared ? "shared" : "confined") + " arena, " + n + " B, to PE " + to;
                Arena a = shared ? Arena.ofShared() : Arena.ofConfined();
                MemorySegment out = a.allocate(n);
                for (long i = 0; i < n; i++) {
                    out.set(JAVA_BYTE, i, value(c.me + 100, i));
                }
                s.putmemNbi(dest, 0, out, to);
                MemorySegment lost = a.allocate(n);
                s.getmemNbi(lost, src, 0, to);
                a.close();
                try (Arena kept = Arena.ofConfined()) {
                    MemorySegment in = kept.allocate(n);
                    s.getmemNbi(in, src, 0, to);
                    Throwable t = CaseContext.run(s::quiet);
                    c.check(t == null, "quiet after closing the " + w + ": " + (t == null ? "" : CaseContext.describe(t)));
                    long bad = firstWrong(in, to, n);
                    c.check(bad < 0, "getmemNbi into a live segment, " + w + ": byte " + bad + " wrong after quiet");
                }
                s.barrierAll();
                long badPut = firstWrong(dest.local(), c.left() + 100, n);
                c.check(badPut < 0, "putmemNbi from a " + (shared ? "shared" : "confined") + " arena closed before quiet, " + n
                        + " B from PE " + c.left() + ": byte " + badPut + " wrong");
                s.barrierAll();
            }
        }
        BadInputCases.stillUsable(c, "segments closed before quiet");
    }

    /**
     * Segments from {@code local()} and {@code ptr()} kept past the object's free or realloc: used
     * while the object lives (also as a transfer's buffer), every later access fails with the JDK's
     * IllegalStateException on every transport, and the object that gets the block next keeps its
     * bytes, on this PE and on the peer a ptr view reached.
     */
    static void viewsAfterFree(CaseContext c) {
        Shmem s = c.shmem;
        int r = c.right();
        SymLongArray a = s.malloc(SymType.LONG, 4);
        MemorySegment mine = a.local();
        MemorySegment peers = s.ptr(a, r).orElse(null); // empty when PE r is reached over a network
        mine.set(JAVA_LONG, 0, 100 + c.me);
        s.putmem(a, 8, mine.asSlice(0, 8), r);
        s.barrierAll();
        c.check(a.get(1) == 100 + c.left(), "putmem from a local() view: element 1 is " + a.get(1) + ", not " + (100 + c.left()));
        if (peers != null) {
            c.check(peers.get(JAVA_LONG, 0) == 100 + r, "ptr view of PE " + r + ": element 0 is " + peers.get(JAVA_LONG, 0));
        }
        s.barrierAll();
        s.free(a);
        SymLongArray b = s.calloc(SymType.LONG, 4); // the freed block, on the heaps' first fit
        long[] none = new long[4];
        expectClosed(c, "set through a kept local() view", () -> mine.set(JAVA_LONG, 0, -1L));
        expectClosed(c, "get through a kept local() view", () -> mine.get(JAVA_LONG, 8));
        expectClosed(c, "fill through a kept local() view", () -> mine.fill((byte) -1));
        expectClosed(c, "copy into a kept local() view", () -> MemorySegment.copy(MemorySegment.ofArray(new long[] {-1}), 0, mine, 0, 8));
        expectClosed(c, "putmem from a kept local() view", () -> s.putmem(b, 0, mine, r));
        expectClosed(c, "getmem into a kept local() view", () -> s.getmem(mine, b, 0, r));
        expectClosed(c, "getmemNbi into a kept local() view", () -> s.getmemNbi(mine, b, 0, r));
        if (peers != null) {
            expectClosed(c, "set through a kept ptr view of PE " + r, () -> peers.set(JAVA_LONG, 0, -1L));
        }
        s.quiet();
        s.barrierAll();
        long[] got = new long[4];
        b.get(0, got, 0, 4);
        c.check(java.util.Arrays.equals(got, none), "the object given the freed block was written through a kept view: "
                + java.util.Arrays.toString(got));
        // realloc: the old object's views close, whether it moved or grew in place.
        SymLongArray d = s.malloc(SymType.LONG, 4);
        MemorySegment old = d.local();
        SymLongArray e = s.realloc(d, 4096);
        expectClosed(c, "set through a view of the object before realloc", () -> old.set(JAVA_LONG, 0, -1L));
        e.local().set(JAVA_LONG, 0, 5L);
        c.check(e.get(0) == 5L, "local() view of the reallocated object: element 0 is " + e.get(0));
        s.free(e);
        s.free(b);
        BadInputCases.stillUsable(c, "views kept past free");
    }

    private static void expectClosed(CaseContext c, String what, Runnable action) {
        Throwable t = CaseContext.run(action);
        c.check(t instanceof IllegalStateException, what + ": expected IllegalStateException (the segment is closed), got "
                + (t == null ? "no exception" : CaseContext.describe(t)));
    }

    private static byte value(int pe, long i) {
        return (byte) (pe * 31 + i * 7 + (i >>> 12));
    }

    /** The first byte of {@code seg}'s first {@code n} that is not {@link #value}({@code pe}, i), or -1. */
    private static long firstWrong(MemorySegment seg, int pe, long n) {
        for (long i = 0; i < n; i++) {
            if (seg.get(JAVA_BYTE, i) != value(pe, i)) {
                return i;
            }
        }
        return -1;
    }
}
