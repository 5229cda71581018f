/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import io.jshmem.ShmemException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One UCP worker with its endpoints (one per PE, created on first use, this PE included) and
 * request tracking: the PE's main channel (served by the {@link ProgressEngine}, the one peers
 * connect to) or a context's own ({@link UcxTransport#openContext}), whose quiet completes only
 * its own operations.
 *
 * <h2>Threads</h2>
 * Workers are created in {@code UCS_THREAD_MODE_SERIALIZED}; every call on the worker (and on its
 * endpoints and requests) is made holding {@link #lock}. Chosen over {@code UCS_THREAD_MODE_MULTI}
 * because MULTI guards the worker with a recursive spinlock, which on a 2-core node burns the core
 * the lock holder (or the target PE) needs, and because the pending-request list needs the same
 * lock anyway. The lock is held for one UCX call at a time (never while waiting), so a thread
 * waiting for its operation progresses the worker in short critical sections and others
 * interleave. A PRIVATE context's channel has the lock too: the PE's waits and progress thread progress
 * a context's worker while it has operations posted ({@link #wantsProgress}; over TCP they need it).
 *
 * <h2>Waits</h2>
 * Every wait is bounded: it ends with a {@link ShmemException} naming the peer and the UCX status
 * when the operation fails (endpoints use UCP_ERR_HANDLING_MODE_PEER unless JSHMEM_UCX_ERR_MODE=none,
 * so a peer that dies makes its operations fail), when the job is being aborted, or after
 * JSHMEM_UCX_TIMEOUT.
 */
final class Channel {
    /** Waits spin (each round calls ucp_worker_progress, 1-4 us on tcp) this many rounds before yielding. */
    private static final int SPIN_ROUNDS = 2_000;
    /**
     * The same where this node's PEs outnumber its cores: the operation awaited usually needs a
     * peer that waits for this core (a flush needs the target's progress), and 2,000 rounds held
     * it for milliseconds (4 PEs on 2 cores over TCP: runs of 2.5 ms without a switch).
     */
    private static final int SPIN_ROUNDS_OVERSUBSCRIBED = 4;
    private static final int YIELD_ROUNDS = 20_000;
    /**
     * Transfers larger than this go in chunks of this size with up to {@link #WINDOW} requests in
     * flight: a single large get over TCP is served by the target one fragment at a time, several
     * keep both directions of the link busy.
     */
    static final long CHUNK = 256 << 10;
    static final int WINDOW = 8;

    /** A put or get: {@code ucp_put_nbx} or {@code ucp_get_nbx}. */
    @FunctionalInterface
    interface Rma {
        long call(long ep, long buffer, long count, long remoteAddress, long rkey, MemorySegment param);
    }

    static final Rma PUT = Ucp::putNbx;
    static final Rma GET = Ucp::getNbx;

    final UcxJob job;
    /** Guards every call on the worker (see "Threads"). */
    final ReentrantLock lock;
    /** Operations posted since the last quiet began: then the PE's waits and progress thread progress a context's worker. */
    volatile boolean wantsProgress;
    /**
     * Held through a whole quiet of a shared channel: threads' quiets run one after the other (two at
     * once shared the flush request slots, and one could return before its puts completed).
     */
    private final OptionalLock quietLock;
    /** Application threads inside the transport (posting, or waiting and progressing the worker themselves): the progress thread stays out of their way. */
    final AtomicInteger waiters = new AtomicInteger();
    /** This channel's worker, made by its constructor and destroyed by {@link #release}. */
    private final MemorySegment worker;
    /** {@code worker.address()}, for the hot-path calls; 0 once destroyed. */
    volatile long workerHandle;
    /** The worker's event fd (for the {@link ProgressEngine}), or -1 if it was made without one. */
    final int eventFd;
    /** The endpoints made so far (on first use), with the peers' memory keys and heap bases. */
    private final Endpoints endpoints;
    /** The PEs whose operations the next quiet must complete (see {@link UcxTransport#flagAdd}). */
    private final OutstandingPeers outstanding;
    /**
     * Whether each PE's endpoint is one ordered lane ({@link WireUp#orderedLane}), for a put with signal as one
     * active message ({@link PushSends}): set in {@link #connect} before it is published; a racy miss reads false.
     */
    private final boolean[] oneLane;
    /** Set by eager wire-up while it connects to every peer: each endpoint made is folded in. */
    volatile EndpointFacts facts;
    private final boolean peerErrors;
    /**
     * Wakes this PE's threads sleeping on its memory ({@code RemoteTransport#wakeOnRemoteWrites}), on the main
     * channel only: run after every progress call on it that did something (it may have applied a peer's write).
     */
    volatile Runnable wake;

    /** Runs {@link #wake}, if set; cheap when nobody sleeps. */
    void wakeSleepers() {
        Runnable w = wake;
        if (w != null) {
            w.run();
        }
    }

    /** Set by {@link #release}: the worker is gone, nothing may touch it. */
    private volatile boolean released;

    /** Requests of non-blocking operations, completed (and freed) at quiet. Guarded by {@link #lock}. */
    private long[] pendingRequests = new long[64];
    private int[] pendingPes = new int[64];
    private int pendingCount;
    /** Non-blocking fetching atomics in flight, completed at quiet. */
    final NbiFetches fetches;
    /** The non-blocking puts and gets whose buffers are the caller's and may be released before quiet. */
    final NbiStaging staging;

    /**
     * Makes the channel's worker on {@code context} (with an event fd if {@code wakeup}); nothing
     * to release if it fails. From then on the channel owns the worker, its endpoints and the
     * memory keys it unpacks: {@link #release} frees them.
     */
    Channel(UcxJob job, UcpContext context, boolean locked, boolean wakeup) {
        this.job = job;
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment wparams = tmp.allocate(UcpAbi.WORKER_PARAMS);
            wparams.set(JAVA_LONG, UcpAbi.WORKER_FIELD_MASK, UcpAbi.UCP_WORKER_PARAM_FIELD_THREAD_MODE);
            wparams.set(JAVA_INT, UcpAbi.WORKER_THREAD_MODE, UcpAbi.UCS_THREAD_MODE_SERIALIZED);
            MemorySegment out = tmp.allocate(ADDRESS);
            job.check(Ucp.workerCreate(context.handle(), wparams, out), "ucp_worker_create");
            MemorySegment w = out.get(ADDRESS, 0);
            int fd = -1;
            if (wakeup) {
                MemorySegment efd = tmp.allocate(JAVA_INT);
                byte st = Ucp.workerGetEfd(w, efd);
                if (st != UcpAbi.UCS_OK) {
                    Ucp.workerDestroy(w);
                    job.check(st, "ucp_worker_get_efd");
                }
                fd = efd.get(JAVA_INT, 0);
            }
            this.worker = w;
            this.workerHandle = w.address();
            this.eventFd = fd;
        }
        this.lock = new ReentrantLock();
        this.quietLock = new OptionalLock(locked);
        this.fetches = new NbiFetches(this, locked);
        this.staging = new NbiStaging(this, locked);
        this.endpoints = new Endpoints(job.npes);
        this.outstanding = new OutstandingPeers(job.npes);
        this.oneLane = new boolean[job.npes];
        this.peerErrors = job.settings.ucxPeerErrors();
    }

    /** This worker's address, for the peers. */
    byte[] address() {
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment out = tmp.allocate(ADDRESS);
            MemorySegment len = tmp.allocate(JAVA_LONG);
            job.check(Ucp.workerGetAddress(worker, out, len), "ucp_worker_get_address");
            MemorySegment addr = out.get(ADDRESS, 0);
            byte[] a = addr.reinterpret(len.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
            Ucp.workerReleaseAddress(worker, addr);
            return a;
        }
    }

    // ------------------------------------------------------------------ locking

    /**
     * Takes {@link #lock} for an application thread: spins briefly first, since the holder keeps
     * it for one UCX call only, and parking costs a futex wake-up on release, tens of microseconds
     * on a loaded machine.
     */
    void lock() {
        ReentrantLock l = lock;
        if (l.tryLock()) {
            return;
        }
        for (int i = 0; i < 500; i++) {
            Thread.onSpinWait();
            if (l.tryLock()) {
                return;
            }
        }
        l.lock();
    }

    void unlock() {
        lock.unlock();
    }

    // ------------------------------------------------------------------ endpoints

    /**
     * The index of the endpoint to {@code pe} in {@link #endpoints}, made at the first operation to
     * it (this PE and on-node PEs included): once made, one array read, no lock or allocation. Read
     * the entry under {@link #lock}.
     */
    int use(int pe) {
        if (pe < 0 || pe >= job.npes) {
            job.checkOpen();
            throw new ShmemException("PE " + job.me + ": PE " + pe + " is out of range (0.." + (job.npes - 1) + ")");
        }
        int i = endpoints.index(pe);
        if (i < 0) {
            i = connect(pe);
        }
        if (job.peerFailed && job.peerStatus[pe] != 0) {
            throw job.peerError(pe, "PE " + pe + " is unreachable over UCX", job.peerStatus[pe]);
        }
        if (job.closed) {
            job.checkOpen();
        }
        if (!wantsProgress) {
            wantsProgress = true;
        }
        return i;
    }

    /** Throws once this channel (or the whole transport) is released. */
    void checkOpen() {
        job.checkOpen();
        if (released) {
            throw new ShmemException("PE " + job.me + ": this context's UCX worker is released (context used after it was destroyed)");
        }
    }

    boolean connected(int pe) {
        return endpoints.index(pe) >= 0;
    }

    /**
     * Creates the endpoint to {@code pe} and unpacks its memory key, once per channel and peer;
     * returns its index. What the peer published is fetched before the lock is taken (it may be a
     * remote lookup); threads that race here all wait for the lock and the first one creates it.
     */
    int connect(int pe) {
        checkOpen();
        UcxJob.Peer peer = job.peer(pe);
        try (Arena tmp = Arena.ofConfined()) {
            MemorySegment eparams = tmp.allocate(UcpAbi.EP_PARAMS);
            MemorySegment out = tmp.allocate(ADDRESS);
            eparams.set(ADDRESS, UcpAbi.EP_ADDRESS, tmp.allocateFrom(JAVA_BYTE, peer.address()));
            if (peerErrors) {
                // Operations to a peer that died fail (and the handler marks it) instead of hanging.
                eparams.set(JAVA_LONG, UcpAbi.EP_FIELD_MASK, UcpAbi.UCP_EP_PARAM_FIELD_REMOTE_ADDRESS
                        | UcpAbi.UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UcpAbi.UCP_EP_PARAM_FIELD_ERR_HANDLER);
                eparams.set(JAVA_INT, UcpAbi.EP_ERR_MODE, UcpAbi.UCP_ERR_HANDLING_MODE_PEER);
                eparams.set(ADDRESS, UcpAbi.EP_ERR_HANDLER_CB, job.errHandler);
                eparams.set(ADDRESS, UcpAbi.EP_ERR_HANDLER_ARG, MemorySegment.ofAddress(pe));
            } else {
                eparams.set(JAVA_LONG, UcpAbi.EP_FIELD_MASK, UcpAbi.UCP_EP_PARAM_FIELD_REMOTE_ADDRESS);
            }
            lock();
            try {
                int existing = endpoints.index(pe);
                if (existing >= 0) {
                    return existing; // another thread connected meanwhile
                }
                checkOpen();
                byte s = Ucp.epCreate(worker, eparams, out);
                if (s != UcpAbi.UCS_OK) {
                    throw job.peerError(pe, "cannot create a UCX endpoint to PE " + pe + " (ucp_ep_create)", s);
                }
                long ep = out.get(ADDRESS, 0).address();
                s = Ucp.epRkeyUnpack(ep, tmp.allocateFrom(JAVA_BYTE, peer.rkey()), out);
                if (s != UcpAbi.UCS_OK) {
                    Ucp.epCloseNbx(ep, job.forceCloseParam);
                    throw job.peerError(pe, "cannot unpack the memory key of PE " + pe + " (ucp_ep_rkey_unpack)", s);
                }
                boolean am = job.settings.ucxPutSignal() == io.jshmem.core.base.Config.UcxPutSignal.AM;
                EndpointFacts f = facts;
                String info = am || f != null ? Ucp.epInfo(ep) : null; // printed once for both
                if (f != null) {
                    f.add(info);
                }
                oneLane[pe] = am && WireUp.orderedLane(info);
                endpointsCreated++;
                return endpoints.add(pe, ep, out.get(ADDRESS, 0).address(), peer.base());
            } finally {
                unlock();
            }
        }
    }

    /** Whether the endpoint to {@code pe} (made now if it is not yet) is known to be one ordered lane: {@link #oneLane}. */
    boolean oneLane(int pe) {
        use(pe);
        return oneLane[pe];
    }

    /** For tests: treats the endpoint to {@code pe} (made now if it is not yet) as having several lanes. */
    void assumeSeveralLanes(int pe) {
        use(pe);
        oneLane[pe] = false; // the test's own thread reads it next
    }

    /** {@code ucp_ep_print_info} of the endpoint to {@code pe}, or null if there is none. */
    String epInfo(int pe) {
        lock();
        try {
            int i = endpoints.index(pe);
            return i < 0 ? null : Ucp.epInfo(endpoints.ep(i));
        } finally {
            unlock();
        }
    }

    // ------------------------------------------------------------------ posting and waiting

    /** Posts a put or get of {@code n} bytes at local address {@code local} and {@code pe}'s heap offset. */
    long post(Rma op, int pe, long local, long n, long offset) {
        int i = use(pe);
        lock();
        try {
            if (op == PUT) {
                outstanding.add(pe, OutstandingPeers.DIRTY);
            }
            Endpoints e = endpoints;
            return op.call(e.ep(i), local, n, e.base(i) + offset, e.rkey(i), job.plainParam);
        } finally {
            unlock();
        }
    }

    /**
     * Posts an atomic; {@code param} is the calling thread's pre-filled {@code ucp_request_param_t}.
     * {@code tracked}: quiet must complete it (a fetching atomic completes when awaited; a
     * synchronization flag is nobody's to complete).
     */
    long postAtomic(int pe, int opcode, long operand, long offset, MemorySegment param, boolean tracked) {
        int i = use(pe);
        lock();
        try {
            if (tracked) {
                outstanding.add(pe, OutstandingPeers.DIRTY);
            }
            Endpoints e = endpoints;
            return Ucp.atomicOpNbx(e.ep(i), opcode, operand, e.base(i) + offset, e.rkey(i), param);
        } finally {
            unlock();
        }
    }

    /**
     * Posts a {@link Pushes} message to {@code pe}: the header at native address {@code header}
     * and {@code n} bytes at {@code data}; {@code param} is the calling thread's push param.
     * {@code completedByQuiet}: a put with signal, which quiet must complete (a push's target waits
     * for its count, nobody needs to complete it).
     */
    long postPush(int pe, long header, long data, long n, MemorySegment param, boolean completedByQuiet) {
        int i = use(pe);
        lock();
        try {
            if (completedByQuiet) {
                outstanding.add(pe, OutstandingPeers.SIGNALLED);
            }
            return Ucp.amSendNbx(endpoints.ep(i), Pushes.AM_ID, header, Pushes.HEADER_BYTES, data, n, param);
        } finally {
            unlock();
        }
    }

    /** For tests: how many PEs the next quiet visits. */
    int outstandingPes() {
        lock();
        try {
            return outstanding.count();
        } finally {
            unlock();
        }
    }

    /**
     * Whether puts or posted atomics to {@code pe} may not have completed: issued since its last flush, or another
     * thread's quiet is in progress (it takes {@link #quietLock} before it clears the flag). Racy reads, in that order.
     */
    boolean mayHaveIncomplete(int pe) {
        if (outstanding.dirty(pe)) { // not SIGNALLED: puts with signal are messages on the pushes' one lane, ordered with them
            return true;
        }
        VarHandle.acquireFence(); // the flag's read before the lock's
        return quietLock.isLocked();
    }

    /** A blocking put or get: posted, then awaited. */
    void run(Rma op, int pe, long local, long n, long offset, String what) {
        await(post(op, pe, local, n, offset), pe, what);
    }

    /** Frees {@code count} requests of a ring from {@code head} after cancelling them; clears the slots. */
    void abandonRequests(long[] window, int head, int count) {
        for (int i = 0; i < count; i++) {
            int slot = (head + i) % window.length;
            long r = window[slot];
            window[slot] = 0;
            if (Ucp.isRequest(r)) {
                lock();
                try {
                    Ucp.requestCancel(workerHandle, r);
                    Ucp.requestFree(r);
                } finally {
                    unlock();
                }
            }
        }
    }

    /** Keeps a non-blocking operation's request for quiet. */
    void defer(long r, int pe, String what) {
        if (r == 0) {
            return;
        }
        if (Ucp.isError(r)) {
            throw job.peerError(pe, "UCX " + what + " to PE " + pe + " failed", (byte) r);
        }
        lock();
        try {
            if (pendingCount == pendingRequests.length) {
                pendingRequests = Arrays.copyOf(pendingRequests, pendingCount * 2);
                pendingPes = Arrays.copyOf(pendingPes, pendingCount * 2);
            }
            pendingRequests[pendingCount] = r;
            pendingPes[pendingCount++] = pe;
        } finally {
            unlock();
        }
    }

    /** Waits for the kept requests to {@code pe} (-1: all), frees them; throws the first failure. */
    void completePending(int pe) {
        ShmemException first = null;
        while (true) {
            long r = 0;
            int target = -1;
            lock();
            try {
                for (int i = pendingCount - 1; i >= 0; i--) {
                    if (pe < 0 || pendingPes[i] == pe) {
                        r = pendingRequests[i];
                        target = pendingPes[i];
                        pendingCount--;
                        pendingRequests[i] = pendingRequests[pendingCount];
                        pendingPes[i] = pendingPes[pendingCount];
                        break;
                    }
                }
            } finally {
                unlock();
            }
            if (r == 0) {
                break;
            }
            try {
                await(r, target, "non-blocking operation");
            } catch (ShmemException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Completes every operation of this channel: a flush of each endpoint with operations that may
     * be incomplete (all posted, then awaited), then the kept requests. Not a worker flush: that also flushes the endpoints
     * UCX made on this worker for peers' contexts that connected to it, and completing those needs
     * the peer to progress its context's worker, which nobody does while that PE waits in a barrier
     * (two PEs hung in their barrier's quiet that way). This PE's operations are all on its own endpoints.
     */
    void flushAll() {
        quietLock.lock();
        try {
            flushAllHeld();
        } finally {
            quietLock.unlock();
        }
    }

    private void flushAllHeld() {
        int posted = 0;
        long[] flushRequests;
        int[] flushPes;
        lock();
        try {
            wantsProgress = false; // this quiet completes what was posted before; its caller progresses the worker
            // Only the PEs written since the last quiet (each has an endpoint, so its at most two
            // requests fit); the request arrays read here stay this quiet's even if a connect
            // grows them meanwhile.
            Endpoints e = endpoints;
            flushRequests = e.flushRequests();
            flushPes = e.flushPes();
            while (outstanding.count() > 0) {
                int pe = outstanding.removeLast();
                byte o = outstanding.clear(pe);
                int i = e.index(pe);
                if ((o & OutstandingPeers.DIRTY) != 0) {
                    long r = Ucp.epFlushNbx(e.ep(i), job.plainParam);
                    if (r != 0) {
                        flushPes[posted] = pe;
                        flushRequests[posted++] = r;
                    }
                }
                if ((o & OutstandingPeers.SIGNALLED) != 0) {
                    long r = completeSignals(e, i);
                    if (r != 0) {
                        flushPes[posted] = pe;
                        flushRequests[posted++] = r;
                    }
                }
            }
        } finally {
            unlock();
        }
        for (int i = 0; i < posted; i++) {
            try {
                await(flushRequests[i], flushPes[i], "quiet (endpoint flush)");
            } catch (RuntimeException e) {
                abandonRequests(flushRequests, i + 1, posted - i - 1);
                throw e;
            }
        }
        try {
            completePending(-1);
        } finally {
            try {
                staging.completeAll();
            } finally {
                fetches.completeAll();
            }
        }
    }

    /** Completes this channel's operations to {@code pe}: an endpoint flush, then its kept requests. */
    void flush(int pe) {
        if (pe >= 0 && pe < job.npes && endpoints.index(pe) < 0) {
            checkOpen();
            return; // never used: nothing to complete
        }
        quietLock.lock();
        try {
            flushHeld(pe);
        } finally {
            quietLock.unlock();
        }
    }

    private void flushHeld(int pe) {
        int i = use(pe);
        long r = 0;
        long g = 0;
        lock();
        try {
            byte o = outstanding.clear(pe);
            if ((o & OutstandingPeers.DIRTY) != 0) {
                r = Ucp.epFlushNbx(endpoints.ep(i), job.plainParam);
            }
            if ((o & OutstandingPeers.SIGNALLED) != 0) {
                g = completeSignals(endpoints, i);
            }
        } finally {
            unlock();
        }
        try {
            await(r, pe, "quiet (endpoint flush)");
        } catch (RuntimeException e) {
            long[] rest = {g};
            abandonRequests(rest, 0, 1);
            throw e;
        }
        await(g, pe, "quiet (completing puts with signal)");
        try {
            completePending(pe);
        } finally {
            try {
                staging.complete(pe);
            } finally {
                fetches.completeAll(); // all of them: they are few, and kept in posting order
            }
        }
    }

    /**
     * Posts an 8-byte get from the heap of endpoint {@code i}'s PE (under the lock), dropped: it completes only
     * after the target handled every message this endpoint sent before it, puts with signal included (one lane, {@link #oneLane}).
     */
    private long completeSignals(Endpoints e, int i) {
        return Ucp.getNbx(e.ep(i), job.sink.address(), 8, e.base(i), e.rkey(i), job.plainParam);
    }

    void fence() {
        checkOpen();
        byte st;
        lock();
        try {
            st = Ucp.fence(workerHandle);
        } finally {
            unlock();
        }
        if (st != UcpAbi.UCS_OK) {
            throw new ShmemException("PE " + job.me + ": UCX fence failed: " + Ucp.statusString(st));
        }
    }

    /**
     * Waits for a status pointer returned by a UCX call: nothing to do for NULL, throws for an
     * error, else progresses the worker until the request completes, then frees it. Bounded by
     * the abort notice, the peer's failure and the timeout. {@code pe} is -1 for worker-wide operations.
     */
    void await(long r, int pe, String what) {
        if (r == 0) {
            return;
        }
        if (Ucp.isError(r)) {
            throw job.peerError(pe, "UCX " + what + (pe >= 0 ? " to PE " + pe : "") + " failed", (byte) r);
        }
        long start = 0;
        int spinRounds = job.coreShared ? SPIN_ROUNDS_OVERSUBSCRIBED : SPIN_ROUNDS;
        int idle = 0; // rounds since the last one in which progress did something
        for (int i = 0; ; i++) {
            byte st;
            lock();
            try {
                idle = Ucp.progress(workerHandle) != 0 ? 0 : idle + 1;
                st = Ucp.requestCheckStatus(r);
                if (st != UcpAbi.UCS_INPROGRESS) {
                    Ucp.requestFree(r);
                }
            } finally {
                unlock();
            }
            if (idle == 0) {
                wakeSleepers();
            }
            if (st == UcpAbi.UCS_OK) {
                return;
            }
            if (st != UcpAbi.UCS_INPROGRESS) {
                throw job.peerError(pe, "UCX " + what + (pe >= 0 ? " to PE " + pe : "") + " failed", st);
            }
            // Back off only while nothing moves: a large transfer progressing keeps being driven
            // (sleeping between fragments halved the 1 MiB get bandwidth over TCP), and the timeout
            // and failure checks still run now and then.
            if (idle >= spinRounds || (i & 1023) == 1023) {
                if (start == 0) {
                    start = System.nanoTime();
                }
                String stuck = job.stuckReason(pe, start);
                if (stuck != null) {
                    lock();
                    try {
                        Ucp.requestCancel(workerHandle, r);
                        Ucp.requestFree(r);
                    } finally {
                        unlock();
                    }
                    throw new ShmemException("PE " + job.me + ": UCX " + what + (pe >= 0 ? " to PE " + pe : "")
                            + " did not complete: " + stuck);
                }
                if (idle < spinRounds) {
                    continue;
                }
                if (idle < YIELD_ROUNDS) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(50_000);
                }
            }
        }
    }

    /** When an application thread last progressed this worker in a wait ({@link #tryProgress}): {@link ProgressEngine} then keeps away. */
    volatile long lastAppProgress;

    /** One non-blocking round of progress; false when another thread holds the worker (it progresses it). */
    boolean tryProgress() {
        lastAppProgress = System.nanoTime();
        if (!lock.tryLock()) {
            return false;
        }
        boolean did;
        try {
            long w = workerHandle;
            did = w != 0 && Ucp.progress(w) != 0;
        } finally {
            unlock();
        }
        if (did) {
            wakeSleepers();
        }
        return did;
    }

    /** The PEs this channel has endpoints to, in the order they were made. */
    int[] connectedPes() {
        lock();
        try {
            return endpoints.connectedPes();
        } finally {
            unlock();
        }
    }

    /** For tests: how many endpoints this channel has created (once per peer, however many threads raced). */
    int endpointsCreated() {
        lock();
        try {
            return endpointsCreated;
        } finally {
            unlock();
        }
    }

    /** Guarded by {@link #lock}. */
    private int endpointsCreated;

    // ------------------------------------------------------------------ release

    /**
     * Releases what this channel made, in reverse order: its kept requests, the memory keys it
     * unpacked, its endpoints, then its worker (and the staging memory), without waiting for
     * anyone but a bounded endpoint close: {@code graceful} closes in flush mode (peers are at the
     * same point of a collective finalize) for up to 2 s, otherwise force-closes (a failing PE
     * must not wait for dead peers) for up to 200 ms. Idempotent; the caller has stopped the
     * progress thread.
     */
    void release(boolean graceful) {
        long[] closing;
        lock();
        try {
            if (workerHandle == 0) {
                return;
            }
            Endpoints e = endpoints;
            closing = new long[e.count()];
            released = true;
            for (int i = 0; i < pendingCount; i++) {
                Ucp.requestFree(pendingRequests[i]); // released by UCX when it completes (or fails)
            }
            pendingCount = 0;
            fetches.freeRequests();
            staging.freeRequests();
            for (int i = 0; i < e.count(); i++) {
                Ucp.rkeyDestroy(e.rkey(i));
            }
            for (int i = 0; i < e.count(); i++) {
                boolean force = !graceful || job.peerStatus[e.pe(i)] != 0;
                closing[i] = Ucp.epCloseNbx(e.ep(i), force ? job.forceCloseParam : job.plainParam);
            }
            e.clear();
        } finally {
            unlock();
        }
        long deadline = System.nanoTime() + (graceful ? 2_000_000_000L : 200_000_000L);
        for (long r : closing) {
            if (!Ucp.isRequest(r)) {
                continue;
            }
            while (true) {
                lock();
                try {
                    Ucp.progress(workerHandle);
                    if (Ucp.requestCheckStatus(r) != UcpAbi.UCS_INPROGRESS || System.nanoTime() > deadline) {
                        Ucp.requestFree(r);
                        break;
                    }
                } finally {
                    unlock();
                }
                Thread.onSpinWait();
            }
        }
        lock();
        try {
            if (workerHandle != 0) {
                workerHandle = 0;
                Ucp.workerDestroy(worker);
                fetches.releaseMemory();
                staging.releaseMemory();
            }
        } finally {
            unlock();
        }
    }
}
