package io.jshmem.core;

import io.jshmem.core.transport.AmoOp;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A network transport inside one JVM, for in-process tests of everything above {@link Comm}: it
 * performs each operation on the target PE's real segment (the in-process job's PEs share the
 * address space), synchronously, so every operation is complete when it returns. It counts the
 * atomics it performed on PEs the caller could also have mapped, so tests can check the atomics
 * policy.
 */
final class LoopbackTransport implements RemoteTransport {
    private static final VarHandle LONG = Comm.LONG;
    private static final VarHandle INT = Comm.INT;

    private final MemorySegment[] heaps;
    private final boolean coherent;
    final AtomicLong atomics = new AtomicLong();
    final AtomicLong rma = new AtomicLong();
    private volatile boolean closed;

    /** @param heaps every PE's segment, filled in by the job as PEs create them */
    LoopbackTransport(MemorySegment[] heaps, boolean coherent) {
        this.heaps = heaps;
        this.coherent = coherent;
    }

    private MemorySegment heap(int pe) {
        if (closed) {
            throw new IllegalStateException("loopback transport used after close");
        }
        return heaps[pe];
    }

    @Override
    public void put(int pe, long offset, MemorySegment source) {
        rma.incrementAndGet();
        MemorySegment.copy(source, 0, heap(pe), offset, source.byteSize());
        VarHandle.fullFence();
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment source) {
        put(pe, offset, source);
    }

    @Override
    public void get(int pe, long offset, MemorySegment dest) {
        rma.incrementAndGet();
        VarHandle.fullFence();
        MemorySegment.copy(heap(pe), offset, dest, 0, dest.byteSize());
    }

    @Override
    public void getNbi(int pe, long offset, MemorySegment dest) {
        get(pe, offset, dest);
    }

    @Override
    public void putValue(int pe, long offset, long value, int bytes) {
        rma.incrementAndGet();
        MemorySegment s = heap(pe);
        switch (bytes) {
            case 8 -> LONG.setVolatile(s, offset, value);
            case 4 -> INT.setVolatile(s, offset, (int) value);
            case 2 -> Comm.SHORT.setVolatile(s, offset, (short) value);
            default -> Comm.BYTE.setVolatile(s, offset, (byte) value);
        }
    }

    @Override
    public long getValue(int pe, long offset, int bytes) {
        rma.incrementAndGet();
        MemorySegment s = heap(pe);
        return switch (bytes) {
            case 8 -> (long) LONG.getVolatile(s, offset);
            case 4 -> (int) INT.getVolatile(s, offset);
            case 2 -> (short) Comm.SHORT.getVolatile(s, offset);
            default -> (byte) Comm.BYTE.getVolatile(s, offset);
        };
    }

    @Override
    public long atomic64(int pe, long offset, AmoOp op, long operand, long compare) {
        atomics.incrementAndGet();
        MemorySegment s = heap(pe);
        long old = switch (op) {
            case FETCH -> (long) LONG.getVolatile(s, offset);
            case SET, SWAP -> (long) LONG.getAndSet(s, offset, operand);
            case COMPARE_SWAP -> (long) LONG.compareAndExchange(s, offset, compare, operand);
            case FETCH_ADD, ADD -> (long) LONG.getAndAdd(s, offset, operand);
            case FETCH_AND, AND -> (long) LONG.getAndBitwiseAnd(s, offset, operand);
            case FETCH_OR, OR -> (long) LONG.getAndBitwiseOr(s, offset, operand);
            case FETCH_XOR, XOR -> (long) LONG.getAndBitwiseXor(s, offset, operand);
        };
        return fetching(op) ? old : 0;
    }

    @Override
    public int atomic32(int pe, long offset, AmoOp op, int operand, int compare) {
        atomics.incrementAndGet();
        MemorySegment s = heap(pe);
        int old = switch (op) {
            case FETCH -> (int) INT.getVolatile(s, offset);
            case SET, SWAP -> (int) INT.getAndSet(s, offset, operand);
            case COMPARE_SWAP -> (int) INT.compareAndExchange(s, offset, compare, operand);
            case FETCH_ADD, ADD -> (int) INT.getAndAdd(s, offset, operand);
            case FETCH_AND, AND -> (int) INT.getAndBitwiseAnd(s, offset, operand);
            case FETCH_OR, OR -> (int) INT.getAndBitwiseOr(s, offset, operand);
            case FETCH_XOR, XOR -> (int) INT.getAndBitwiseXor(s, offset, operand);
        };
        return fetching(op) ? old : 0;
    }

    private static boolean fetching(AmoOp op) {
        return switch (op) {
            case SET, ADD, AND, OR, XOR -> false;
            default -> true;
        };
    }

    @Override
    public void fence() {
        VarHandle.fullFence();
    }

    @Override
    public void quiet() {
        VarHandle.fullFence();
    }

    @Override
    public void quiet(int pe) {
        VarHandle.fullFence();
    }

    @Override
    public boolean atomicsCoherentWithCpu() {
        return coherent;
    }

    @Override
    public String name() {
        return "loopback (in-process test)";
    }

    @Override
    public void close() {
        closed = true;
    }
}
