/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

import io.jshmem.core.base.Futex;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * How a PE waits for a word of symmetric memory to change: spin for up to a few microseconds,
 * then yield the core for up to about a millisecond, then sleep on a futex until a writer wakes it.
 *
 * <p><b>Adaptive spin.</b> How long a wait spins (its budget, in spin iterations) is learnt from
 * how this PE's recent waits ended, as in HotSpot's adaptive spinning: a spin only pays when the
 * partner arrives during it. The first call of a wait judges the previous wait that called this
 * class: one that ended while spinning doubles the budget; one that ended while yielding, soon
 * enough that a spin of at most the configured time would have caught it, grows it to twice the
 * spin that would have (the overrun is measured after each yield, so a yield that gave the core
 * away for a time slice counts as long); one that yielded longer than that, or slept, halves it.
 * The budget stays between about a microsecond (never zero, so it can recover) and the
 * configured spin time ({@code JSHMEM_WAIT_SPIN_US}, the maximum). Where PEs outnumber cores a
 * wait spins only when the PEs of the node that are not asleep fit on its cores ({@link AwakePes},
 * judged at the start of each wait); otherwise it yields at once, since a spin would only steal
 * time from the PE it waits for, and its yields teach the budget nothing. A partner that is
 * routinely late so costs a microsecond of spinning per wait, not the whole spin time. The state
 * is two plain fields shared by the PE's threads: a race between them only blurs what is learnt.
 *
 * <p><b>The wait-control line.</b> Every PE's segment starts with a line
 * ({@link SymmetricHeap#WAIT_CONTROL}) holding a count of threads sleeping on some word of that
 * segment ({@code sleepers}) and a 32-bit doorbell. A waiter for a word of PE j's segment
 * registers in j's line (an atomic increment), reads the doorbell, re-reads the word, and only if
 * it still holds the value it saw sleeps on the doorbell ({@code FUTEX_WAIT} compares the doorbell
 * in the kernel, so a ring between the read and the sleep is never lost). A writer that changes a
 * word of PE j's segment that someone may wait on stores, then reads j's {@code sleepers}, and
 * only when it is non-zero rings the bell (increment + {@code FUTEX_WAKE}), once per sleep: a
 * sleeper arms the bell ({@code armed}) before it sleeps and the writer that disarms it rings
 * (see ring). The fast path is a store and a load of a line that is read-shared until
 * someone sleeps. The waiter's increment
 * and the writer's store-then-load form a Dekker pair ({@link #signal}: store, full fence, load),
 * so synchronization flags and atomics never lose a wake-up. Plain puts ({@link #poke}) skip the
 * fence to stay as cheap as a store; the rare wake-up they miss is bounded by the sleep timeout.
 *
 * <p><b>With a network transport</b> the waiting PE progresses it (every 16th spin, and on every
 * yield round instead of yielding when there was something to do), and a wait that finds
 * something to progress starts spinning again (or, where it may not spin now,
 * restarts its yield period): a PE that is the target of a stream of gets or atomics keeps serving
 * them itself, and yields and sleeps only after they stop. Going to sleep, it hands the transport
 * to whoever else progresses it ({@link RemoteTransport#waiterSleeps}). Where every remote write
 * is applied by this PE's own progress, which then rings (TCP:
 * {@link RemoteTransport#remoteWritesWake}), it sleeps as long as on one node; where a network
 * card may write its memory silently (RDMA), at most {@value #MAX_SLEEP_NANOS_NETWORK} ns at a time.
 *
 * <p><b>Why yield before sleeping.</b> A sleeping PE wakes 25-65 us (p90 about 0.5 ms here) after
 * the bell, and in a barrier everyone waits for the last sleeper; a PE that was merely
 * descheduled (more PEs than cores) must not make every barrier cost that. Sleeping is for waits
 * that have already lasted a millisecond, when it saves the core for other work.
 *
 * <p>Usage, allocation-free (the state lives in a local {@code long}):
 * <pre>{@code
 * long v;
 * for (long w = 0; (v = (long) LONG.getAcquire(seg, off)) < epoch; ) w = waiter.idle(w, seg, off, 8, v);
 * }</pre>
 */
public final class Waiter {
    static final long SLEEPERS = SymmetricHeap.WAIT_CONTROL;
    static final long BELL = SymmetricHeap.WAIT_CONTROL + 4;
    /** 1 while a sleeper has gone to sleep on the current bell since it last rang: only then does a writer ring. */
    static final long ARMED = SymmetricHeap.WAIT_CONTROL + 8;
    /** Longest single sleep: bounds a missed wake-up from a plain put and how late an abort is noticed. */
    private static final long MAX_SLEEP_NANOS = 2_000_000;
    /** With a network transport whose writes may land without ringing (RDMA): sleep only briefly. */
    private static final long MAX_SLEEP_NANOS_NETWORK = 100_000;
    private static final long FIRST_SLEEP_NANOS = 50_000;
    /** The longest nap of a waiting virtual thread, which no futex wakes. */
    private static final long VIRTUAL_MAX_NAP_NANOS = 1_000_000;

    // State word layout: bits 62-63 the phase; in SPIN the iteration count; in YIELD the low 48 bits of
    // System.nanoTime() when the yield phase began; in SLEEP the number of sleeps so far.
    private static final long PHASE = 3L << 62;
    private static final long YIELD = 1L << 62;
    private static final long SLEEP = 2L << 62;
    private static final long LOW48 = (1L << 48) - 1;
    /** In YIELD: the wait did not spin (the node's awake PEs outnumbered its cores), so its yields teach nothing. */
    private static final long UNSPUN = 1L << 61;
    private static final int PROGRESS_EVERY = 16;
    /** Nanoseconds one {@link Thread#onSpinWait()} takes on this CPU (10-140 ns), measured once. */
    private static final double SPIN_NANOS = measureSpin();

    /** The shortest spin budget where spinning is allowed: about a microsecond. */
    private static final long MIN_SPIN_NANOS = 1_000;
    /** {@link #lastOverrun} of a wait last seen spinning; a wait that slept records {@link Long#MAX_VALUE}. */
    private static final long SPINNING = -1;

    /** The spin budget's bounds, in iterations; both 0 where nothing spins. */
    private final int maxSpins;
    private final int minSpins;
    /** The current spin budget (iterations): read by every spin, adapted once per wait (plain: races only blur it). */
    private int spins;
    /**
     * How the most recent wait that called {@link #idle} stands: {@link #SPINNING}, the
     * nanoseconds from the end of its spin to the return of its latest yield, or
     * {@link Long#MAX_VALUE} once it slept. Judged by the first call of the next wait.
     */
    private long lastOverrun = SPINNING;
    private final long yieldNanos;
    private final long maxSleepNanos;
    private final Runnable abortCheck;
    /** The network transport, progressed while waiting; null on one node. */
    private final RemoteTransport transport;
    /** Where PEs outnumber cores: spin only while the awake ones fit on them. Null: spin as configured. */
    private final AwakePes awakePes;

    /**
     * @param spinNanos    the longest a wait spins before yielding (0: never spins)
     * @param yieldNanos   how long to yield before sleeping
     * @param transport    the network transport, which may write this PE's memory without ringing
     *                     and needs progress from waiting PEs; null when every peer is on this node
     * @param abortCheck   run on the slow path; throws when the job is being aborted
     * @param awakePes     where this node's PEs outnumber its cores: a wait spins only when the PEs
     *                     not asleep fit on them, and otherwise yields at once (a spin would only
     *                     steal time from the PE being waited for); null: every wait may spin
     */
    Waiter(long spinNanos, long yieldNanos, RemoteTransport transport, Runnable abortCheck, AwakePes awakePes) {
        this.awakePes = awakePes;
        this.maxSpins = (int) Math.min(Integer.MAX_VALUE, spinNanos / SPIN_NANOS);
        this.minSpins = maxSpins == 0 ? 0 : (int) Math.max(1, Math.min(maxSpins, MIN_SPIN_NANOS / SPIN_NANOS));
        this.spins = maxSpins;
        this.yieldNanos = yieldNanos;
        // Idle PEs waking every 100 us over TCP took a tenth of a core each from the PEs at work
        // (4 PEs on 2 cores); over TCP every remote write rings (RemoteTransport.remoteWritesWake).
        this.maxSleepNanos = transport != null && !transport.remoteWritesWake() ? MAX_SLEEP_NANOS_NETWORK : MAX_SLEEP_NANOS;
        this.transport = transport;
        this.abortCheck = abortCheck;
    }

    private static double measureSpin() {
        // The fastest of 10 batches: a batch that was descheduled (a loaded machine) would make
        // every spin budget of this PE far shorter than configured.
        double best = Double.MAX_VALUE;
        for (int b = 0; b < 10; b++) {
            int n = 200;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                Thread.onSpinWait();
            }
            best = Math.min(best, (System.nanoTime() - t0) / (double) n);
        }
        return Math.max(5.0, best);
    }

    /**
     * Waits a little for some change of {@code seg} (a mapped heap; vector waits): sleeps are
     * bounded by a timeout, since there is no single word to re-check before sleeping.
     */
    public long idle(long w, MemorySegment seg) {
        return idle(w, seg, -1, 0, 0);
    }

    /**
     * Waits a little for the {@code width}-byte word at {@code off} of {@code seg} (a mapped heap)
     * to change from {@code seen}; returns the next state.
     */
    public long idle(long w, MemorySegment seg, long off, int width, long seen) {
        // Kept small enough to be inlined into every wait loop: the spin here, the rest out of line.
        if (w > 0 && w < spins) {
            return spin(w);
        }
        return w == 0 ? first() : later(w, seg, off, width, seen);
    }

    private long spin(long w) {
        // A progress call costs microseconds on TCP: one per PROGRESS_EVERY spins.
        if (transport != null && (w & (PROGRESS_EVERY - 1)) == 0) {
            transport.progress();
        } else {
            Thread.onSpinWait();
        }
        return w + 1;
    }

    /** The first call of a wait (a wait that never calls idle needed no spin): adapts the spin, then spins. */
    private long first() {
        if (maySpin()) {
            // Stores only changes: in the steady state the PE's threads share these fields read-only.
            long overrun = lastOverrun;
            if (overrun != SPINNING) {
                lastOverrun = SPINNING;
            }
            int s = spins;
            if (s != maxSpins || overrun != SPINNING) {
                spins = adapt(s, overrun, minSpins, maxSpins, SPIN_NANOS);
            }
            return spin(0);
        }
        abortCheck.run();
        return YIELD | UNSPUN | (System.nanoTime() & LOW48);
    }

    /** Whether a wait may spin now: spinning is configured and, where PEs outnumber cores, the awake ones fit. */
    private boolean maySpin() {
        return maxSpins > 0 && (awakePes == null || awakePes.fitCores());
    }

    private long later(long w, MemorySegment seg, long off, int width, long seen) {
        long phase = w & PHASE;
        if (phase == 0) { // the spin is over
            abortCheck.run();
            return YIELD | (System.nanoTime() & LOW48);
        }
        if (phase == YIELD) {
            long started = w & LOW48;
            long now = System.nanoTime();
            if (((now - started) & LOW48) < yieldNanos) {
                abortCheck.run();
                if (transport == null) {
                    yieldCore(w, started);
                    return w;
                }
                if (transport.progress()) {
                    // Peers' operations on this PE are being served: stay awake while they keep
                    // coming, and spin again (where spinning is allowed): over TCP a get or atomic on
                    // this PE needs this PE's progress; asleep, each would wait for the progress
                    // thread to wake (tens of us on this VM), and after a yield for whatever else
                    // got the core (a time slice, on a loaded machine).
                    return awake(now);
                }
                yieldCore(w, started);
                return w;
            }
            abortCheck.run();
            lastOverrun = Long.MAX_VALUE;
            return SLEEP;
        }
        long sleeps = w & ~PHASE;
        long nanos = Math.min(maxSleepNanos, FIRST_SLEEP_NANOS << Math.min(8, sleeps));
        if (transport != null) {
            transport.waiterSleeps();
        }
        if (Thread.currentThread().isVirtual()) {
            // A futex wait is a native call, which pins a virtual thread to its carrier: with one
            // carrier (a PE bound to one CPU) the thread that would set the flag could never run.
            // A timed park unmounts it; it sees the flag at its next look (backoff as below).
            LockSupport.parkNanos(Math.min(nanos, VIRTUAL_MAX_NAP_NANOS));
        } else if (Futex.ready()) {
            sleep(seg, off, width, seen, nanos);
        } else {
            Futex.warmUp(); // linked in the background: until then, timed naps
            LockSupport.parkNanos(Math.min(nanos, FIRST_SLEEP_NANOS));
        }
        abortCheck.run();
        if (transport != null && transport.progress()) {
            return awake(System.nanoTime()); // traffic again: awake, as above
        }
        return SLEEP | (sleeps + 1);
    }

    /**
     * Whether a wait whose state is {@code w} has spun out (it yields or sleeps now): then a caller
     * may afford a clock read per call, e.g. to notice a wait that lasts far too long.
     */
    public static boolean pastSpin(long w) {
        return (w & PHASE) != 0;
    }

    /** Yields the core, then records how long after its spin the current wait still waits. */
    private void yieldCore(long w, long started) {
        Thread.yield();
        if (maxSpins > 0 && (w & UNSPUN) == 0) { // nothing to learn where nothing spun
            lastOverrun = (System.nanoTime() - started) & LOW48;
        }
    }

    /**
     * After progress found traffic: spins again where spinning is allowed (from 1: not a new
     * wait to judge; the traffic, not the partner, woke it), else restarts the yield period.
     */
    private long awake(long now) {
        if (maySpin()) {
            lastOverrun = SPINNING;
            return 1;
        }
        return YIELD | UNSPUN | (now & LOW48);
    }

    /**
     * The next spin budget, from the current one and how the previous wait ended ({@code overrun},
     * as in {@link #lastOverrun}): see the class comment. Within {@code [min, max]}.
     */
    static int adapt(int spins, long overrun, int min, int max, double spinNanos) {
        long next;
        if (overrun < 0) {
            next = 2L * spins; // caught while spinning
        } else {
            // What would have caught it: the spin it had, then the overrun's worth of spinning.
            double needed = spins + overrun / spinNanos;
            next = needed <= max ? (long) (2 * needed) : spins / 2;
        }
        return (int) Math.max(min, Math.min(max, next));
    }

    /** The current spin budget, in iterations. */
    int spinBudget() {
        return spins;
    }

    /** The smallest spin budget, in iterations (0 where nothing spins). */
    int minSpins() {
        return minSpins;
    }

    /** The largest spin budget, in iterations: the configured spin time. */
    int maxSpins() {
        return maxSpins;
    }

    private static void sleep(MemorySegment seg, long off, int width, long seen, long nanos) {
        Comm.INT.getAndAdd(seg, SLEEPERS, 1); // full fence: the Dekker half of the waiter
        try {
            int bell = (int) Comm.INT.getVolatile(seg, BELL);
            // Arms the bell, then re-reads the word (an atomic: a full fence). A writer that
            // finds it unarmed skips the ring; then this re-read sees its store (Dekker, see ring).
            Comm.INT.getAndSet(seg, ARMED, 1);
            if (off < 0 || read(seg, off, width) == seen) {
                Futex.await(seg, BELL, bell, nanos);
            }
        } finally {
            Comm.INT.getAndAdd(seg, SLEEPERS, -1);
        }
    }

    private static long read(MemorySegment seg, long off, int width) {
        return switch (width) {
            case 8 -> (long) Comm.LONG.getVolatile(seg, off);
            case 4 -> (int) Comm.INT.getVolatile(seg, off);
            case 2 -> (short) Comm.SHORT.getVolatile(seg, off);
            default -> (byte) Comm.BYTE.getVolatile(seg, off);
        };
    }

    /**
     * After a store to {@code seg} that a PE may be waiting for (a synchronization flag): wakes the
     * sleepers of that segment, if any. Never loses a wake-up.
     */
    public static void signal(MemorySegment seg) {
        VarHandle.fullFence();
        if ((int) Comm.INT.getVolatile(seg, SLEEPERS) != 0) {
            ring(seg);
        }
    }

    /**
     * After a plain put or an atomic to {@code seg}: like {@link #signal} without the fence, so a
     * put costs one more load. After an atomic (itself a full fence) no wake-up is lost; after a
     * plain store one may be, rarely, and the sleeper's timeout recovers it.
     */
    static void poke(MemorySegment seg) {
        if ((int) Comm.INT.getOpaque(seg, SLEEPERS) != 0) {
            ring(seg);
        }
    }

    private static void ring(MemorySegment seg) {
        // Once per sleep, not once per write: a sleeper wakes 25-500 us after the bell, and until
        // it has, every put to its PE saw it registered and rang again (4-PE p2p on 2 cores: 151,000-
        // 195,000 FUTEX_WAKE calls a run for 1,300-3,400 sleeps, a system call on the put path each). The
        // writer that disarms the bell rings it; later ones, until a sleeper re-arms, have nothing
        // to wake: a sleeper armed on the old bell value is woken by this ring (or its FUTEX_WAIT
        // sees the bell moved), one that arms after this disarming sees the writer's store when
        // it re-reads its word (the writer's store, fence, read of ARMED against the sleeper's
        // write of ARMED, fence, read of the word), or sleeps on the new value and is rung by the
        // next write.
        if (!Futex.ready()) {
            Comm.INT.getAndAdd(seg, BELL, 1); // a sleeper not yet in FUTEX_WAIT sees it and returns
            Futex.warmUp(); // until it is linked, sleepers' timeouts wake them; the bell stays armed
            return;
        }
        VarHandle.fullFence(); // a plain put's store before the read of ARMED (signal has fenced already)
        if ((int) Comm.INT.getVolatile(seg, ARMED) == 0 || !Comm.INT.compareAndSet(seg, ARMED, 1, 0)) {
            return;
        }
        Comm.INT.getAndAdd(seg, BELL, 1);
        Futex.wakeAll(seg, BELL);
    }
}
