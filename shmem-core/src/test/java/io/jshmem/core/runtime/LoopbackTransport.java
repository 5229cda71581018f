/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.core.comm.Comm;
import io.jshmem.core.transport.AmoOp;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A network transport inside one JVM, for in-process tests of everything above {@link Comm}: it
 * performs each operation on the target PE's real segment (the in-process job's PEs share the
 * address space). It counts the atomics it performed, so tests can check the atomics policy.
 *
 * <p>Synchronous by default: every operation is complete when it returns. <b>Posted</b>, it
 * behaves like a real network at its weakest: puts, value stores and non-fetching atomics are
 * delivered later by a thread of their own, in random order between two fences (a fence or quiet
 * closes a batch; quiet also waits until everything is delivered), while gets and fetching atomics
 * happen at once and may overtake them. Code above the transport that relies on an order it did
 * not ask for (a signal overtaking its data, an update landing after a later one) fails then.
 */
final class LoopbackTransport implements RemoteTransport {
    private static final VarHandle LONG = Comm.LONG;
    private static final VarHandle INT = Comm.INT;

    private final MemorySegment[] heaps;
    private final boolean coherent;
    private final boolean posted;
    final AtomicLong atomics = new AtomicLong();
    final AtomicLong rma = new AtomicLong();
    private volatile boolean closed;
    /** Posted mode: the batch being filled, the closed batches, and whether the deliverer is busy. */
    private List<Runnable> batch = new ArrayList<>();
    private final ArrayDeque<List<Runnable>> batches = new ArrayDeque<>();
    private boolean delivering;
    private final Thread deliverer;

    /** @param heaps every PE's segment, filled in by the job as PEs create them */
    LoopbackTransport(MemorySegment[] heaps, boolean coherent, boolean posted) {
        this.heaps = heaps;
        this.coherent = coherent;
        this.posted = posted;
        if (posted) {
            deliverer = new Thread(this::deliver, "loopback-deliverer");
            deliverer.setDaemon(true);
            deliverer.start();
        } else {
            deliverer = null;
        }
    }

    /** Runs {@code op} now, or (posted) queues it in the current batch. */
    private void post(Runnable op) {
        if (!posted) {
            op.run();
            return;
        }
        synchronized (this) {
            batch.add(op);
            if (batch.size() >= 64) {
                closeBatch(); // a fence-free stream still gets delivered
            }
        }
    }

    private synchronized void closeBatch() {
        if (!batch.isEmpty()) {
            batches.add(batch);
            batch = new ArrayList<>();
            notifyAll();
        }
    }

    private void deliver() {
        try {
            while (true) {
                List<Runnable> next;
                synchronized (this) {
                    while (batches.isEmpty()) {
                        wait(1);
                        closeBatch(); // nothing fenced for a while: deliver what was posted
                    }
                    next = batches.poll();
                    delivering = true;
                }
                Collections.shuffle(next, ThreadLocalRandom.current());
                for (Runnable op : next) {
                    if (ThreadLocalRandom.current().nextInt(8) == 0) {
                        Thread.yield();
                    }
                    op.run();
                }
                synchronized (this) {
                    delivering = false;
                    notifyAll();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Posted mode: closes the batch and waits until every operation posted so far is delivered, or
     * the deliverer has died: a delivery into a heap an aborted job has closed throws there, and a
     * drain at JVM exit (an aborted job's runtimes finalize implicitly) must not wait for it forever.
     */
    private void drain() {
        if (!posted) {
            return;
        }
        synchronized (this) {
            closeBatch();
            while ((!batches.isEmpty() || delivering) && deliverer.isAlive()) {
                try {
                    wait(1);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
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
        MemorySegment target = heap(pe);
        if (!posted) {
            MemorySegment.copy(source, 0, target, offset, source.byteSize());
            VarHandle.fullFence();
            return;
        }
        MemorySegment copy = MemorySegment.ofArray(source.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        post(() -> {
            MemorySegment.copy(copy, 0, target, offset, copy.byteSize());
            VarHandle.fullFence();
        });
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
        post(() -> {
            switch (bytes) {
                case 8 -> LONG.setVolatile(s, offset, value);
                case 4 -> INT.setVolatile(s, offset, (int) value);
                case 2 -> Comm.SHORT.setVolatile(s, offset, (short) value);
                default -> Comm.BYTE.setVolatile(s, offset, (byte) value);
            }
        });
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
        if (posted && !fetching(op)) {
            post(() -> atomic64Now(s, offset, op, operand, compare));
            return 0;
        }
        return atomic64Now(s, offset, op, operand, compare);
    }

    private static long atomic64Now(MemorySegment s, long offset, AmoOp op, long operand, long compare) {
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
        if (posted && !fetching(op)) {
            post(() -> atomic32Now(s, offset, op, operand, compare));
            return 0;
        }
        return atomic32Now(s, offset, op, operand, compare);
    }

    private static int atomic32Now(MemorySegment s, long offset, AmoOp op, int operand, int compare) {
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
        if (posted) {
            closeBatch();
        }
        VarHandle.fullFence();
    }

    @Override
    public void quiet() {
        drain();
        VarHandle.fullFence();
    }

    @Override
    public void quiet(int pe) {
        drain();
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
        drain();
        closed = true;
        if (deliverer != null) {
            deliverer.interrupt();
        }
    }
}
