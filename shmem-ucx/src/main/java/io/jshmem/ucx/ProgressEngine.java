/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.jshmem.core.base.Log;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;
import jdk.jfr.FlightRecorder;

/**
 * The background progress thread of a PE's main {@link Channel}. Over tcp (and over shared memory for
 * memory UCX did not allocate) an operation completes only when the TARGET progresses its worker,
 * so a PE busy in its own Java code would stall every peer without it.
 *
 * <p>Loop: under the transport's lock, call {@code ucp_worker_progress} until it reports nothing
 * done; keep polling for {@code spinNanos} after the last event (requests usually come in bursts,
 * and waking a sleeping thread costs tens of microseconds); then {@code ucp_worker_arm} and, if
 * armed, sleep in {@code poll(2)} on the worker's event fd (outside the lock) for at most
 * {@value #POLL_MILLIS} ms. An idle PE thus costs no CPU, the thread wakes as soon as a message
 * arrives, and {@link #stop()} (which also signals the worker) ends it promptly.
 *
 * <p>Each round also progresses the workers of the PE's contexts that have operations posted
 * ({@link OpenContexts}), which no thread of their own serves.
 *
 * <p>While an application thread of this PE is inside the transport (waiting for its own
 * operation, which it progresses itself, or queued for the lock) the thread naps instead: it
 * would only compete for the lock and be woken by every reply the application thread waits for.
 */
final class ProgressEngine implements Runnable {
    private static final Log LOG = Log.of("io.jshmem.ucx");
    /** Longest sleep: bounds how late a stop or an unsignalled local event is noticed. */
    static final int POLL_MILLIS = 5;
    /** The same while a context has operations posted since its last quiet ({@link OpenContexts}). */
    static final int CONTEXT_POLL_MILLIS = 1;
    /** Upper bound of progress calls per locked round, so waiting threads get the lock. */
    private static final int MAX_ROUNDS = 64;
    /**
     * Sleep while an application thread is progressing the worker itself. Long: each wake-up is a
     * context switch on the PE's core, and with more PEs than cores every such switch delays a
     * waiting PE (4 PEs on 2 cores over TCP: barrier p50 about 105-140 us with 1 ms against
     * 160-190 us with 100 us, in alternating runs). The first nap; see {@link #WAITER_NAP_MAX_NANOS}.
     */
    private static final long WAITER_NAP_NANOS = 1_000_000;
    /**
     * Naps double up to this while the application thread is still in the library at every
     * wake-up: each wake-up preempts the PE's thread on its core (PEs bound to a core each: 2,000
     * context switches a second with 1 ms naps, and a 2-PE fetch_add over TCP 19.8-22.1 us against
     * 18.4-18.8 with 10 ms, in alternating runs). A PE that leaves the library after a long stretch
     * inside it is served by this thread at most this much later; after a short one, 1 ms.
     */
    private static final long WAITER_NAP_MAX_NANOS = 8_000_000;
    /** An application thread that progressed the worker this recently is still polling it. */
    private static final long APP_POLL_NANOS = 50_000;
    /**
     * The same where PEs outnumber cores: a waiting thread there yields between polls, and a yield
     * often returns only after other PEs ran for hundreds of microseconds. With 50 us this thread
     * took over in those gaps, armed the worker and was woken by the messages the waiting thread
     * was about to handle (4 PEs on 2 cores over TCP, a barrier loop: 7,000 wake-ups a second,
     * 20 us each, 8% of the CPU).
     */
    private static final long APP_POLL_NANOS_OVERSUBSCRIBED = 1_000_000;

    private final Channel transport;
    private final MemorySegment pollfd;
    private final Thread thread;
    private final long spinNanos;
    private final long appPollNanos;
    private volatile boolean stopping;
    /** Rounds in which this thread found work: a PE waiting in the library reads it to take over (see {@link UcxTransport#progress}). */
    volatile long served;

    ProgressEngine(Channel transport, int eventFd, Arena arena, long spinNanos) {
        this.transport = transport;
        this.spinNanos = spinNanos;
        this.appPollNanos = transport.job.oversubscribed ? APP_POLL_NANOS_OVERSUBSCRIBED : APP_POLL_NANOS;
        this.pollfd = arena.allocate(UcpAbi.POLLFD);
        pollfd.set(JAVA_INT, 0, eventFd);
        pollfd.set(JAVA_SHORT, 4, UcpAbi.POLLIN);
        this.thread = Thread.ofPlatform().daemon().name("jshmem-ucx-progress").unstarted(this);
    }

    void start() {
        thread.start();
    }

    /** Stops the thread and waits (at most a second) for it to leave the worker alone. */
    void stop() {
        stopping = true;
        LockSupport.unpark(thread); // out of a nap
        transport.lock.lock();
        try {
            long w = transport.workerHandle;
            if (w != 0) {
                Ucp.workerSignal(w);
            }
        } finally {
            transport.lock.unlock();
        }
        if (Thread.currentThread() != thread) {
            try {
                thread.join(1_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The application thread that was polling the worker goes to sleep: stop napping (this thread
     * keeps out of a polling thread's way for up to {@link #WAITER_NAP_NANOS}) and serve peers now.
     */
    void takeOver() {
        transport.lastAppProgress = 0;
        LockSupport.unpark(thread);
    }

    boolean alive() {
        return thread.isAlive();
    }

    /** Parks for {@code nanos}; returns the next nap, twice as long up to {@link #WAITER_NAP_MAX_NANOS}. */
    private static long nap(long nanos) {
        LockSupport.parkNanos(nanos);
        return Math.min(2 * nanos, WAITER_NAP_MAX_NANOS);
    }

    @Override
    public void run() {
        long worker = transport.workerHandle;
        long lastEvent = 0;
        UcxProgressEvent busy = null;
        long nap = WAITER_NAP_NANOS;
        try {
            while (!stopping) {
                if (transport.waiters.get() > 0 || transport.lock.hasQueuedThreads()
                        || System.nanoTime() - transport.lastAppProgress < appPollNanos) {
                    // An application thread is posting an operation or progressing the worker while
                    // it waits (for one of its operations, or in a barrier or wait on its memory): do
                    // not take the lock from it (the lock is not fair) or get woken by every message
                    // it is about to handle itself. It stops progressing when its wait ends or it
                    // goes to sleep; this thread takes over a nap later.
                    nap = nap(nap);
                    lastEvent = System.nanoTime();
                    continue;
                }
                if (!transport.lock.tryLock()) {
                    // An application thread holds the worker: it progresses it. Queueing for the
                    // lock instead made every release of it an unpark of this thread, which then
                    // preempted that thread on its core (PEs bound to a core each: a third of the
                    // barriers over TCP took 50-150 us instead of 14).
                    nap = nap(nap);
                    lastEvent = System.nanoTime();
                    continue;
                }
                nap = WAITER_NAP_NANOS;
                int done = 0;
                byte armed = UcpAbi.UCS_ERR_BUSY;
                try {
                    if (stopping) {
                        break;
                    }
                    for (int i = 0, n; i < MAX_ROUNDS && (n = Ucp.progress(worker)) != 0; i++) {
                        done += n;
                    }
                    if (done == 0 && (spinNanos == 0 || System.nanoTime() - lastEvent > spinNanos)) {
                        armed = Ucp.workerArm(worker);
                    }
                } finally {
                    transport.lock.unlock();
                }
                OpenContexts contexts = transport.job.contexts;
                if (contexts.progress()) {
                    done++;
                }
                if (done != 0) {
                    lastEvent = System.nanoTime();
                    served++; // only this thread writes it
                    // What progress did may have been a peer's write into this PE's memory that a
                    // thread of this PE sleeps on: wake it now, not at its sleep's timeout.
                    transport.wakeSleepers();
                    // isInitialized first: the event class's first use starts JFR's machinery
                    // (~0.2 CPU-s), for nothing when no recording runs.
                    if (busy == null && FlightRecorder.isInitialized() && UcxProgressEvent.ON.isEnabled()) {
                        busy = new UcxProgressEvent();
                        busy.begin();
                    }
                    if (busy != null) {
                        busy.completions += done;
                    }
                    continue;
                }
                if (armed == UcpAbi.UCS_OK) {
                    if (busy != null) {
                        busy.commit();
                        busy = null;
                    }
                    // A context with operations posted is progressed again soon: its worker has no
                    // event fd here, and a put or atomic of it waits for that progress to leave.
                    Ucp.poll(pollfd, contexts.wantProgress() ? CONTEXT_POLL_MILLIS : POLL_MILLIS);
                } else if (armed == UcpAbi.UCS_ERR_BUSY) {
                    // Events pending (or still inside the spin window): progress again.
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(POLL_MILLIS * 1_000_000L);
                }
            }
        } catch (Throwable t) {
            if (!stopping) {
                LOG.error("jshmem: UCX progress thread failed (peers may stall): " + t);
            }
        }
    }
}
