/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jshmem.ShmemException;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.AmoOp;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link UcxTransport} between two PEs inside this JVM ({@link InProcessJob}): every call of the
 * RemoteTransport interface, against real libucp, checked by reading the target's heap directly.
 * The class runs over tcp (UCX_TLS=tcp,self set in this process before the contexts are made);
 * {@link UcxFailureTest} also covers UCX's default selection.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UcxTransportTest {
    private static final long HEAP = 32L << 20;
    private InProcessJob job;
    private UcxTransport t0;
    private MemorySegment heap1;
    private long user;

    @BeforeAll
    void start() throws Exception {
        String why = Ucp.unavailableReason();
        if (why != null) {
            System.out.println("UcxTransportTest skipped: " + why);
        }
        assumeTrue(why == null, why);
        Ucp.setenv("UCX_TLS", "tcp,self");
        job = new InProcessJob(2, HEAP, Map.of());
        t0 = job.transports[0];
        heap1 = job.heaps[1].self();
        user = SymmetricHeap.INTERNAL_SIZE;
    }

    @AfterAll
    void stop() throws Exception {
        if (job != null) {
            job.close();
        }
    }

    @Test
    void nameShowsTheTransportUcxMayUse() {
        assertEquals("ucx (tcp)", t0.name());
        assertTrue(t0.atomicsCoherentWithCpu(), "tcp and self atomics are performed by the target's CPU");
        // Peers are connected at their first use (LazyWireUpTest: not before).
        t0.getValue(1, user, 8);
        assertTrue(java.util.Arrays.stream(t0.connectedPes()).anyMatch(pe -> pe == 1));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 7, 8, 63, 4096, 65_536, 1 << 20, 9 << 20})
    void putAndGetArraysAndSegments(int size) {
        byte[] data = new byte[size];
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (i * 31 + size);
        }
        long off = user + 3;
        // From a Java array (bounce buffer, chunked beyond 4 MiB).
        t0.put(1, off, MemorySegment.ofArray(data));
        t0.quiet();
        assertEquals(-1, heap1.asSlice(off, size).mismatch(MemorySegment.ofArray(data)), "put from byte[]");
        byte[] back = new byte[size];
        t0.get(1, off, MemorySegment.ofArray(back));
        assertArrayEquals(data, back, "get into byte[]");
        // From and into native memory (zero copy), blocking and nbi.
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(size);
            for (int i = 0; i < size; i++) {
                n.set(ValueLayout.JAVA_BYTE, i, (byte) ~data[i]);
            }
            t0.putNbi(1, off, n);
            t0.quiet();
            assertEquals(-1, heap1.asSlice(off, size).mismatch(n), "putNbi from a native segment");
            MemorySegment m = a.allocate(size);
            t0.getNbi(1, off, m);
            t0.quiet(1);
            assertEquals(-1, m.mismatch(n), "getNbi into a native segment");
            n.fill((byte) 5);
            t0.put(1, off, n);
            t0.get(1, off, m);
            assertEquals(-1, m.mismatch(n), "put then get, native");
        }
        // nbi from/into arrays fall back to blocking copies: the array is reusable at once.
        t0.putNbi(1, off, MemorySegment.ofArray(data));
        java.util.Arrays.fill(data, (byte) 0);
        t0.quiet();
        byte[] again = new byte[size];
        t0.getNbi(1, off, MemorySegment.ofArray(again));
        t0.quiet();
        assertArrayEquals(back, again, "putNbi/getNbi with arrays");
    }

    @Test
    void valuesOfEverySizeAreSignExtended() {
        long off = user + 4096;
        for (int bytes : new int[] {1, 2, 4, 8}) {
            heap1.asSlice(off, 32).fill((byte) 0x11);
            t0.putValue(1, off + bytes, 0x8081_8283_8485_8687L, bytes);
            t0.quiet(1);
            long expected = switch (bytes) {
                case 1 -> (byte) 0x87;
                case 2 -> (short) 0x8687;
                case 4 -> 0x8485_8687;
                default -> 0x8081_8283_8485_8687L;
            };
            assertEquals(expected, t0.getValue(1, off + bytes, bytes), bytes + "-byte value");
            assertEquals(0x11, heap1.get(ValueLayout.JAVA_BYTE, off + bytes - 1), "byte before untouched");
            assertEquals(0x11, heap1.get(ValueLayout.JAVA_BYTE, off + 2L * bytes), "byte after untouched");
        }
    }

    private static long model(AmoOp op, long old, long operand, long compare) {
        return switch (op) {
            case FETCH -> old;
            case SET, SWAP -> operand;
            case COMPARE_SWAP -> old == compare ? operand : old;
            case FETCH_ADD, ADD -> old + operand;
            case FETCH_AND, AND -> old & operand;
            case FETCH_OR, OR -> old | operand;
            case FETCH_XOR, XOR -> old ^ operand;
        };
    }

    @Test
    void everyAtomicOn64BitWords() {
        long off = user + 8192;
        long start = 0x0F0F_1234_5678_F0F0L;
        long operand = 0x7654_3210_FEDC_BA98L;
        for (AmoOp op : AmoOp.values()) {
            for (long compare : new long[] {start, start + 1}) {
                heap1.set(ValueLayout.JAVA_LONG, off, start);
                heap1.set(ValueLayout.JAVA_LONG, off + 8, -1L);
                long got = t0.atomic64(1, off, op, operand, compare);
                t0.quiet();
                boolean fetching = op != AmoOp.SET && UcxTransport.fetches(op);
                assertEquals(fetching ? start : 0, got, op + " result");
                assertEquals(model(op, start, operand, compare), heap1.get(ValueLayout.JAVA_LONG, off), op + " memory");
                assertEquals(-1L, heap1.get(ValueLayout.JAVA_LONG, off + 8), op + ": next word untouched");
            }
        }
    }

    @Test
    void everyAtomicOn32BitWords() {
        long off = user + 12288;
        int start = 0xF0F0_1234;
        int operand = 0x8765_4321;
        for (AmoOp op : AmoOp.values()) {
            for (int compare : new int[] {start, start + 1}) {
                heap1.set(ValueLayout.JAVA_INT, off, start);
                heap1.set(ValueLayout.JAVA_INT, off + 4, -1);
                heap1.set(ValueLayout.JAVA_INT, off - 4, -1);
                int got = t0.atomic32(1, off, op, operand, compare);
                t0.quiet();
                boolean fetching = op != AmoOp.SET && UcxTransport.fetches(op);
                assertEquals(fetching ? start : 0, got, op + " result");
                assertEquals((int) model(op, start, operand, compare), heap1.get(ValueLayout.JAVA_INT, off), op + " memory");
                assertEquals(-1, heap1.get(ValueLayout.JAVA_INT, off + 4), op + ": next word untouched");
                assertEquals(-1, heap1.get(ValueLayout.JAVA_INT, off - 4), op + ": previous word untouched");
            }
        }
    }

    @Test
    void fenceOrdersAndQuietCompletes() {
        long off = user + 16384;
        for (int i = 1; i <= 200; i++) {
            t0.putValue(1, off, i, 8);
            t0.fence();
            t0.atomic64(1, off + 8, AmoOp.SET, i, 0);
        }
        t0.quiet();
        assertEquals(200, heap1.get(ValueLayout.JAVA_LONG, off));
        assertEquals(200, heap1.get(ValueLayout.JAVA_LONG, off + 8));
    }

    @Test
    void threadsShareTheWorker() throws Exception {
        long off = user + 20480;
        heap1.set(ValueLayout.JAVA_LONG, off, 0);
        heap1.set(ValueLayout.JAVA_INT, off + 8, 0);
        int threads = 4;
        int each = 1500;
        List<Thread> ts = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int t = 0; t < threads; t++) {
            int k = t;
            Thread th = new Thread(() -> {
                try {
                    byte[] buf = new byte[256];
                    long mine = off + 512 + 8L * k;
                    for (int i = 0; i < each; i++) {
                        t0.atomic64(1, off, (i & 1) == 0 ? AmoOp.FETCH_ADD : AmoOp.ADD, 1, 0);
                        t0.atomic32(1, off + 8, AmoOp.ADD, 2, 0);
                        if (i % 50 == 0) {
                            t0.get(1, off + 64, MemorySegment.ofArray(buf));
                        }
                        if (i % 5 == 0) {
                            // Quiets of several threads at once: each completes this thread's put.
                            t0.putValue(1, mine, i, 8);
                            t0.quiet();
                            long seen = heap1.get(ValueLayout.JAVA_LONG, mine);
                            if (seen != i) {
                                throw new AssertionError("thread " + k + ": quiet returned before its put " + i + " landed (saw " + seen + ")");
                            }
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) {
            th.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        t0.quiet();
        assertEquals((long) threads * each, heap1.get(ValueLayout.JAVA_LONG, off));
        assertEquals(2 * threads * each, heap1.get(ValueLayout.JAVA_INT, off + 8));
    }

    @Test
    void thisPeItselfIsReachedThroughTheTransport() {
        // SHMEM_ATOMICS=transport routes a PE's atomics on its own heap through UCX (the self transport).
        long off = user + 4096;
        MemorySegment mine = job.heaps[0].self();
        mine.set(ValueLayout.JAVA_LONG, off, 40);
        assertEquals(40, t0.atomic64(0, off, AmoOp.FETCH_ADD, 2, 0));
        assertEquals(42, mine.get(ValueLayout.JAVA_LONG, off));
        assertEquals(42, t0.atomic64(0, off, AmoOp.COMPARE_SWAP, 7, 42));
        assertEquals(7, t0.getValue(0, off, 8));
        t0.atomic32(0, off + 8, AmoOp.ADD, 5, 0);
        t0.quiet(0);
        assertEquals(5, mine.get(ValueLayout.JAVA_INT, off + 8));
        assertTrue(java.util.Arrays.stream(t0.connectedPes()).anyMatch(pe -> pe == 0));
        ShmemException e = assertThrows(ShmemException.class, () -> t0.getValue(5, user, 8));
        assertTrue(e.getMessage().contains("out of range"), e.getMessage());
    }

    @Test
    void aContextHasItsOwnWorkerAndCompletesItsOwnOperations() {
        for (long options : new long[] {0, io.jshmem.Shmem.CTX_PRIVATE}) {
            io.jshmem.core.transport.RemoteTransport ctx = t0.openContext(options);
            assertTrue(ctx != t0 && ctx instanceof UcxTransport u && u.main != t0.main, "not a transport of its own");
            // Every worker has its lock, PRIVATE contexts' too: the PE's waits and progress thread progress them (OpenContexts).
            assertTrue(((UcxTransport) ctx).main.lock != null, "a context's worker lock");
            assertTrue(t0.job.contexts.list().contains(ctx), "listed for the PE's progress");
            long off = user + (8 << 20) - (3 << 20);
            try (Arena a = Arena.ofConfined()) {
                MemorySegment src = a.allocate(3 << 20);
                for (long i = 0; i < src.byteSize(); i += 8) {
                    src.set(ValueLayout.JAVA_LONG, i, i * 31 + options);
                }
                ctx.putNbi(1, off, src); // outstanding on the context's worker until its quiet
                ctx.quiet();
                assertEquals(-1L, heap1.asSlice(off, src.byteSize()).mismatch(src));
                MemorySegment back = a.allocate(3 << 20);
                ctx.get(1, off, back); // 12 chunks, 8 in flight
                assertEquals(-1L, back.mismatch(src));
            }
            ctx.atomic64(0, user + 8192, AmoOp.SET, 5, 0); // this PE itself through the context too
            assertEquals(5, ctx.atomic64(0, user + 8192, AmoOp.FETCH_ADD, 1, 0));
            ctx.close();
            assertThrows(ShmemException.class, () -> ctx.getValue(1, user, 8));
            assertEquals(6, t0.atomic64(0, user + 8192, AmoOp.FETCH, 0, 0)); // the PE's transport is unaffected
        }
    }

    @Test
    void nbiFetchingAtomicsReturnBeforeTheReplyAndCompleteAtQuiet() {
        long off = user + 24576;
        int n = 3 * NbiFetches.SLOTS + 17; // the ring fills up three times: the oldest complete first
        long start = 1_000_000_000_000L;
        heap1.set(ValueLayout.JAVA_LONG, off, start);
        long[] got = new long[n];
        java.util.Arrays.fill(got, -1L);
        for (int i = 0; i < n; i++) {
            t0.atomicNbi(1, off, AmoOp.FETCH_ADD, 1, 0, 8, got, i);
        }
        // Posted, not awaited: the replies are copied out by quiet only.
        assertTrue(t0.main.fetches.inFlight() > 0, "no fetch in flight after posting");
        assertEquals(-1L, got[n - 1], "the last result was stored before quiet");
        t0.quiet();
        assertEquals(0, t0.main.fetches.inFlight());
        assertEquals(start + n, heap1.get(ValueLayout.JAVA_LONG, off), "exact total");
        long[] sorted = got.clone();
        java.util.Arrays.sort(sorted);
        for (int i = 0; i < n; i++) {
            assertEquals(start + i, sorted[i], "every old value exactly once");
        }

        // Every fetching op and element type, 4 and 8 bytes, to PE 1 and to this PE itself, each on a
        // word of its own (operations in flight are not ordered); pe_quiet completes them too.
        long w = off + 64;
        long[] start8 = {40, 40, 41, 0x41, 0x141, 0x41, 5};
        for (int k = 0; k < start8.length; k++) {
            heap1.set(ValueLayout.JAVA_LONG, w + 8L * k, start8[k]);
        }
        heap1.set(ValueLayout.JAVA_INT, w + 64, 7);
        heap1.set(ValueLayout.JAVA_INT, w + 68, 10);
        heap1.set(ValueLayout.JAVA_INT, w + 72, -2);
        heap1.set(ValueLayout.JAVA_INT, w + 76, Float.floatToRawIntBits(1.5f));
        heap1.set(ValueLayout.JAVA_LONG, w + 80, Double.doubleToRawLongBits(2.5));
        MemorySegment heap0 = job.heaps[0].self();
        heap0.set(ValueLayout.JAVA_LONG, w + 88, 100);
        long[] l = new long[8];
        int[] ints = new int[3];
        float[] f = new float[1];
        double[] d = new double[1];
        t0.atomicNbi(1, w, AmoOp.FETCH, 0, 0, 8, l, 0);
        t0.atomicNbi(1, w + 8, AmoOp.COMPARE_SWAP, 41, 40, 8, l, 1); // 40 -> 41
        t0.atomicNbi(1, w + 16, AmoOp.COMPARE_SWAP, 99, 40, 8, l, 2); // no match: stays 41
        t0.atomicNbi(1, w + 24, AmoOp.FETCH_OR, 0x100, 0, 8, l, 3);
        t0.atomicNbi(1, w + 32, AmoOp.FETCH_AND, 0xFF, 0, 8, l, 4);
        t0.atomicNbi(1, w + 40, AmoOp.FETCH_XOR, 1, 0, 8, l, 5);
        t0.atomicNbi(1, w + 48, AmoOp.SWAP, 9, 0, 8, l, 6);
        t0.atomicNbi(0, w + 88, AmoOp.FETCH_ADD, 5, 0, 8, l, 7); // this PE, over UCX's self transport
        t0.atomicNbi(1, w + 64, AmoOp.FETCH_ADD, 3, 0, 4, ints, 0);
        t0.atomicNbi(1, w + 68, AmoOp.COMPARE_SWAP, -2, 10, 4, ints, 1);
        t0.atomicNbi(1, w + 72, AmoOp.FETCH, 0, 0, 4, ints, 2);
        t0.atomicNbi(1, w + 76, AmoOp.SWAP, Float.floatToRawIntBits(-4f), 0, 4, f, 0);
        t0.atomicNbi(1, w + 80, AmoOp.SWAP, Double.doubleToRawLongBits(8.25), 0, 8, d, 0);
        t0.quiet(1);
        assertArrayEquals(new long[] {40, 40, 41, 0x41, 0x141, 0x41, 5, 100}, l);
        assertArrayEquals(new int[] {7, 10, -2}, ints);
        assertEquals(1.5f, f[0]);
        assertEquals(2.5, d[0]);
        long[] end8 = {40, 41, 41, 0x141, 0x41, 0x40, 9};
        for (int k = 0; k < end8.length; k++) {
            assertEquals(end8[k], heap1.get(ValueLayout.JAVA_LONG, w + 8L * k), "word " + k);
        }
        assertEquals(10, heap1.get(ValueLayout.JAVA_INT, w + 64));
        assertEquals(-2, heap1.get(ValueLayout.JAVA_INT, w + 68));
        assertEquals(-4f, Float.intBitsToFloat(heap1.get(ValueLayout.JAVA_INT, w + 76)));
        assertEquals(8.25, Double.longBitsToDouble(heap1.get(ValueLayout.JAVA_LONG, w + 80)));
        assertEquals(105, heap0.get(ValueLayout.JAVA_LONG, w + 88));
    }

    @Test
    void aContextCompletesItsOwnNbiFetches() {
        long off = user + 24576 + 512;
        heap1.set(ValueLayout.JAVA_LONG, off, 0);
        io.jshmem.core.transport.RemoteTransport ctx = t0.openContext(io.jshmem.Shmem.CTX_PRIVATE);
        try {
            long[] got = new long[100];
            for (int i = 0; i < got.length; i++) {
                ctx.atomicNbi(1, off, AmoOp.FETCH_ADD, 2, 0, 8, got, i);
            }
            t0.quiet(); // the PE's quiet: not the context's operations
            assertEquals(got.length, ((UcxTransport) ctx).main.fetches.inFlight());
            ctx.quiet();
            long sum = 0;
            for (long v : got) {
                sum += v;
            }
            assertEquals((long) got.length * (got.length - 1), sum, "old values 0, 2, 4, ...");
            assertEquals(2L * got.length, heap1.get(ValueLayout.JAVA_LONG, off));
        } finally {
            ctx.close();
        }
    }

    /**
     * A created context's endpoint is checked for one lane when it is made, like the main
     * channel's: the flag matches the endpoint's lanes, and a put with signal goes as one message
     * only where it is set. With the flag cleared ({@link Channel#assumeSeveralLanes}) the sender
     * declines even when the transport-wide test allows messages, and the transport's put, fence
     * and atomic still deliver the data before the signal.
     */
    @Test
    void aPutWithSignalIsOneMessageOnlyOverAnEndpointKnownToBeOneLane() {
        long off = user + (20 << 20);
        long sig = off + 4096;
        for (long options : new long[] {0, io.jshmem.Shmem.CTX_PRIVATE}) {
            UcxTransport ctx = (UcxTransport) t0.openContext(options);
            try (Arena a = Arena.ofConfined()) {
                boolean one = ctx.main.oneLane(1); // makes the endpoint
                String info = ctx.main.epInfo(1);
                System.out.println("context endpoint to PE 1 (one lane: " + one + "):\n" + info);
                assertEquals(WireUp.orderedLane(info), one, "the flag is the endpoint's own lanes");
                long start = System.nanoTime();
                for (int i = 0; i < 100; i++) {
                    ctx.main.epInfo(1);
                }
                System.out.println("ucp_ep_print_info per endpoint: " + (System.nanoTime() - start) / 100 / 1000 + " us");
                MemorySegment src = a.allocate(100);
                src.fill((byte) (7 + options));
                // The transport-wide test forced on: the per-endpoint flag alone decides.
                PushSends sends = new PushSends(ctx, ctx.main, true);
                heap1.set(ValueLayout.JAVA_LONG, sig, 0);
                assertEquals(one, sends.putSignal(1, off, src, sig, 5, AmoOp.SET), "one message exactly where the endpoint is one lane");
                if (one) {
                    ctx.quiet();
                    assertEquals(-1L, heap1.asSlice(off, 100).mismatch(src), "the message's data");
                    assertEquals(5, heap1.get(ValueLayout.JAVA_LONG, sig), "the message's signal");
                }
                ctx.main.assumeSeveralLanes(1);
                assertTrue(!ctx.main.oneLane(1) && !sends.putSignal(1, off, src, sig, 6, AmoOp.SET),
                        "an endpoint not known to be one lane: put, fence and atomic");
                src.fill((byte) 9);
                ctx.putSignal(1, off, src, sig, 6, AmoOp.SET, false);
                ctx.quiet();
                assertEquals(-1L, heap1.asSlice(off, 100).mismatch(src), "the fallback's data");
                assertEquals(6, heap1.get(ValueLayout.JAVA_LONG, sig), "the fallback's signal");
            } finally {
                ctx.close();
            }
        }
    }

    @Test
    void theHotPathDoesNotAllocate() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long off = user + 16384;
        long[] array = new long[64];
        int[] ints = new int[1];
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(512 << 10); // two pipelined chunks
            MemorySegment arr = MemorySegment.ofArray(array);
            Runnable ops = () -> {
                t0.atomic64(1, off, AmoOp.FETCH_ADD, 1, 0);
                t0.atomic32(1, off + 8, AmoOp.ADD, 1, 0);
                t0.putValue(1, off + 16, 3, 8);
                t0.getValue(1, off + 16, 4);
                t0.put(1, off + 64, arr);
                t0.get(1, off + 64, arr);
                t0.putNbi(1, off + 4096, buf);
                t0.quiet();
                t0.get(1, off + 4096, buf);
                t0.atomicNbi(1, off + 24, AmoOp.FETCH_ADD, 1, 0, 8, array, 0);
                t0.atomicNbi(1, off + 32, AmoOp.COMPARE_SWAP, 1, 0, 4, ints, 0);
                t0.quiet();
            };
            for (int i = 0; i < 3_000; i++) {
                ops.run(); // warm-up: compiled, scratch and request arrays at their size
            }
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 1_000; i++) {
                ops.run();
            }
            long perRound = (mx.getCurrentThreadAllocatedBytes() - before) / 1_000;
            System.out.println("bytes allocated per round of 12 UCX operations: " + perRound);
            assertTrue(perRound < 16, perRound + " bytes allocated per round of 12 operations");
        }
    }

    /**
     * Non-blocking transfers of arena segments closed before quiet: staged, so the put's data
     * arrives whole and the get into a closed segment writes nothing; the staged bytes are bounded
     * (what is staged is completed before the limit is passed) and a transfer above the staging
     * maximum is done before the call returns.
     */
    @Test
    void nonBlockingTransfersOfReleasedSegmentsAreStaged() {
        int n = 1 << 20;
        long off = user + (8L << 20);
        Arena a = Arena.ofConfined();
        MemorySegment out = a.allocate(n);
        for (int i = 0; i < n; i++) {
            out.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 13));
        }
        MemorySegment expected = Arena.ofAuto().allocate(n).copyFrom(out);
        t0.putNbi(1, off, out);
        MemorySegment lost = a.allocate(n);
        t0.getNbi(1, off, lost);
        a.close();
        t0.quiet();
        assertEquals(-1, heap1.asSlice(off, n).mismatch(expected), "putNbi from a segment closed before quiet");
        assertEquals(0, t0.main.staging.inFlight());
        // 24 MiB in 1 MiB puts before a quiet: staging completes what it holds at 16 MiB.
        try (Arena b = Arena.ofConfined()) {
            MemorySegment src = b.allocate(n).copyFrom(expected);
            for (int k = 0; k < 24; k++) {
                t0.putNbi(1, off + (long) (k % 8) * n, src);
                assertTrue(t0.main.staging.inFlight() <= NbiStaging.LIMIT / n, t0.main.staging.inFlight() + " staged");
            }
            t0.quiet();
            // Above the staging maximum: transferred before the call returns, nothing staged.
            MemorySegment big = b.allocate(NbiStaging.MAX_STAGED + 8);
            big.fill((byte) 0x6B);
            t0.putNbi(1, off, big);
            assertEquals(0, t0.main.staging.inFlight());
            t0.quiet();
            MemorySegment into = b.allocate(NbiStaging.MAX_STAGED + 8);
            t0.getNbi(1, off, into);
            assertEquals(0, t0.main.staging.inFlight());
            assertEquals(-1, into.mismatch(big), "getNbi above the staging maximum, complete on return");
        }
        // A shared arena's segment (another thread may close it meanwhile) goes through the bounce buffer.
        try (Arena shared = Arena.ofShared()) {
            MemorySegment src = shared.allocate(2 * n);
            for (int i = 0; i < 2 * n; i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            t0.put(1, off, src);
            t0.quiet(); // a put returns once its source may be reused, not once it has landed
            assertEquals(-1, heap1.asSlice(off, 2 * n).mismatch(src), "put from a shared arena's segment");
            MemorySegment back = shared.allocate(2 * n);
            t0.get(1, off, back);
            assertEquals(-1, back.mismatch(src), "get into a shared arena's segment");
        }
        // The symmetric heap's own segments (an object's local view) are used in place, not staged
        // (a get cannot complete inside the call, so a staged one would be in flight here).
        MemorySegment heap0 = job.heaps[0].self().asSlice(off, n);
        heap1.asSlice(off, n).fill((byte) 0x2D);
        t0.getNbi(1, off, heap0);
        assertEquals(0, t0.main.staging.inFlight(), "a getNbi into the heap was staged");
        t0.quiet();
        assertEquals(-1, heap1.asSlice(off, n).mismatch(heap0), "getNbi into the symmetric heap");
        // A closed segment is refused with the JDK's own exception before anything moves.
        Arena c = Arena.ofConfined();
        MemorySegment closed = c.allocate(64);
        c.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t0.put(1, off, closed));
        assertEquals("Already closed", e.getMessage());
        assertThrows(IllegalStateException.class, () -> t0.putNbi(1, off, closed));
        assertThrows(IllegalStateException.class, () -> t0.getNbi(1, off, closed));
        assertThrows(IllegalArgumentException.class, () -> t0.get(1, off, Arena.ofAuto().allocate(8).asReadOnly()));
    }
}
