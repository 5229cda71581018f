/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.jshmem.Shmem;
import io.jshmem.core.base.Config;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.AmoOp;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The UCX transport of one PE (the RMA and atomic operations): one UCP context, the symmetric
 * heap registered with {@code ucp_mem_map} so peers can reach it, and a {@link Channel} (worker,
 * endpoints, request tracking) per transport: the PE's main one, served by the
 * {@link ProgressEngine}, and one per context made by {@link #openContext}.
 *
 * <h2>Who owns what</h2>
 * {@link WireUp} makes the PE's resources and hands them over as one immutable
 * {@link WireUp.Result}; from then on the PE's transport owns them and releases them, threads
 * first, then in reverse order of creation ({@link #release}): the progress thread, the contexts'
 * transports (each owns its channel), the main {@link Channel} (which owns its worker, endpoints
 * and the memory keys it unpacked), the {@link UcpContext} (context and heap registration), the
 * per-thread scratch, and the job's arena (the upcall stubs). Each release is idempotent and
 * bounded, so it is also right when a peer has died.
 *
 * <h2>Local buffers</h2>
 * UCX needs native addresses. A native segment is checked first as {@code MemorySegment.copy}
 * would check it ({@link LocalSegments}), then passed as is while nobody can free it under UCX
 * (the symmetric heap, a segment confined to the caller in a blocking call, an automatic or global
 * one); a shared arena's goes through the bounce buffer, and a non-blocking transfer of a caller's
 * segment through the channel's {@link NbiStaging}, since it may be closed before quiet. Blocking transfers above {@link Channel#CHUNK} are pipelined (non-blocking
 * ones are one request each: UCX fragments them itself, and a window of many did better so). A heap segment (a Java
 * array) goes through the calling thread's bounce buffer ({@link Scratch}), chunk by chunk with
 * several chunks in flight; the same scratch holds the operands, results and pre-filled
 * {@code ucp_request_param_t}s of atomics, so the hot path allocates nothing. Consequently a
 * non-blocking put from a heap array waits for local completion, and a non-blocking get into a
 * heap array is a blocking get; with native buffers both are truly non-blocking, completed at quiet.
 * Non-blocking fetching atomics into Java arrays are truly non-blocking too: their replies go to
 * native slots of the channel's {@link NbiFetches}, copied into the arrays at quiet.
 */
public final class UcxTransport implements RemoteTransport {
    final UcxJob job;
    /** What wire-up made: the PE's transport owns it, its contexts' transports only use it. */
    final WireUp.Result wiring;
    /** This transport's channel: the PE's main one, or a context's own (which that context's transport owns). */
    final Channel main;
    /** The PE's transport, for a context's transport; null for the PE's own. */
    private final UcxTransport parent;
    /** The thread serving the main channel: the PE's transport's; null for a context's. */
    private final ProgressEngine progress;
    private volatile boolean closed;

    /** Sends this transport's {@link Pushes} messages (pushes, flags, small puts with signal) through {@link #main}. */
    private final PushSends sends;
    private final ThreadLocal<Scratch> scratch;
    private final List<Scratch> scratches; // guarded by itself

    /** The PE's transport, owning what {@link WireUp} made. */
    UcxTransport(UcxJob job, WireUp.Result wiring) {
        this.job = job;
        this.wiring = wiring;
        this.main = wiring.main();
        this.parent = null;
        this.progress = wiring.progress();
        this.scratch = new ThreadLocal<>();
        this.scratches = new ArrayList<>();
        this.sends = new PushSends(this, main, wiring.amPutSignal());
    }

    /** A context's transport, owning {@code channel}; the rest is {@code root}'s. */
    private UcxTransport(UcxTransport root, Channel channel) {
        this.job = root.job;
        this.wiring = root.wiring;
        this.main = channel;
        this.parent = root;
        this.progress = null;
        this.scratch = root.scratch;
        this.scratches = root.scratches;
        this.sends = new PushSends(this, channel, wiring.amPutSignal());
    }

    /** Collective: see {@link WireUp}. */
    static UcxTransport create(Bootstrap bootstrap, SymmetricHeap heap, Config.Network settings, Map<String, String> env) {
        return WireUp.create(bootstrap, heap, settings, env);
    }

    /** For tests: settings and UCX_NET_DEVICES / JSHMEM_BOOTSTRAP from {@code env}. */
    static UcxTransport create(Bootstrap bootstrap, SymmetricHeap heap, Map<String, String> env) {
        return WireUp.create(bootstrap, heap, Config.Network.fromEnvironment(env), env);
    }

    // ================================================================== RMA

    // Local buffers are native segments, taken by address (with an offset and length: no slice
    // object), or heap segments (Java arrays), copied through the bounce buffer.

    @Override
    public void put(int pe, long offset, MemorySegment source) {
        put(pe, offset, source, 0, source.byteSize());
    }

    @Override
    public void put(int pe, long offset, MemorySegment source, long sourceOffset, long n) {
        if (!sends.put(pe, offset, source, sourceOffset, n)) {
            rma(Channel.PUT, pe, offset, source, sourceOffset, n);
        }
    }

    /** {@code source} is the caller's: see {@link #userNbi}. */
    @Override
    public void putNbi(int pe, long offset, MemorySegment source) {
        if (!source.isNative()) {
            put(pe, offset, source); // the array may be reused on return: copied, locally complete
            return;
        }
        userNbi(Channel.PUT, pe, offset, source, source.byteSize(), "put_nbi");
    }

    @Override
    public void get(int pe, long offset, MemorySegment dest) {
        get(pe, offset, dest, 0, dest.byteSize());
    }

    @Override
    public void get(int pe, long offset, MemorySegment dest, long destOffset, long n) {
        rma(Channel.GET, pe, offset, dest, destOffset, n);
    }

    /** {@code dest} is the caller's: see {@link #userNbi}. */
    @Override
    public void getNbi(int pe, long offset, MemorySegment dest) {
        if (!dest.isNative()) {
            get(pe, offset, dest, 0, dest.byteSize());
            return;
        }
        userNbi(Channel.GET, pe, offset, dest, dest.byteSize(), "get_nbi");
    }

    /**
     * A non-blocking put or get of the caller's native segment {@code local} (all {@code n} bytes
     * of it), which the caller may close once this returns. Checked first as shared memory's copy
     * would check it. A segment that is never released, or one within the symmetric heap (an
     * object's local view), is used in place; any other goes through the
     * channel's {@link NbiStaging}, or, above {@link NbiStaging#MAX_STAGED}, is transferred blocking.
     */
    private void userNbi(Channel.Rma op, int pe, long offset, MemorySegment local, long n, String what) {
        if (op == Channel.PUT) {
            LocalSegments.checkRead(local, 0, n);
        } else {
            LocalSegments.checkWrite(local, 0, n);
        }
        if (n == 0 || job.inHeap(local) || LocalSegments.neverReleased(local)) {
            nbi(op, pe, offset, local, 0, n, what);
        } else if (n > NbiStaging.MAX_STAGED) {
            rma(op, pe, offset, local, 0, n);
        } else {
            main.waiters.incrementAndGet();
            try {
                if (op == Channel.PUT) {
                    main.staging.put(pe, offset, local, 0, n);
                } else {
                    main.staging.get(pe, offset, local, 0, n);
                }
            } finally {
                main.waiters.decrementAndGet();
            }
        }
    }

    @Override
    public void getNbi(int pe, long offset, MemorySegment dest, long destOffset, long n) {
        if (!dest.isNative()) {
            get(pe, offset, dest, destOffset, n);
            return;
        }
        nbi(Channel.GET, pe, offset, dest, destOffset, n, "get_nbi");
    }

    /**
     * A blocking put or get of {@code n} bytes of {@code local} from {@code at}. A native segment
     * is checked as shared memory's copy would check it before UCX gets its address, and kept
     * reachable until the transfer is done (an automatic arena's memory is freed once its segment
     * is unreachable). A shared arena's segment, which another thread may close meanwhile, goes
     * through the bounce buffer, copied under the JDK's own protection; one within the symmetric
     * heap (whose mapping the runtime keeps until the transport is closed) does not.
     */
    private void rma(Channel.Rma op, int pe, long offset, MemorySegment local, long at, long n) {
        if (op == Channel.PUT) {
            LocalSegments.checkRead(local, at, n);
        } else {
            LocalSegments.checkWrite(local, at, n);
        }
        main.waiters.incrementAndGet();
        try {
            if (n == 0) {
                main.use(pe);
            } else if (local.isNative() && (job.inHeap(local) || LocalSegments.stableDuringCall(local))) {
                Transfers.transfer(main, op, pe, local.address() + at, n, offset, op == Channel.PUT ? "put" : "get", scratch().window);
            } else {
                bounced(op, pe, offset, at == 0 && n == local.byteSize() ? local : local.asSlice(at, n), null, 0, null, n);
            }
        } finally {
            main.waiters.decrementAndGet();
            Reference.reachabilityFence(local);
        }
    }

    /** A put or get of {@code n} bytes of the native segment {@code local} from {@code at}, completed by quiet. */
    private void nbi(Channel.Rma op, int pe, long offset, MemorySegment local, long at, long n, String what) {
        Objects.checkFromIndexSize(at, n, local.byteSize());
        main.waiters.incrementAndGet();
        try {
            if (n == 0) {
                main.use(pe);
                return;
            }
            main.defer(main.post(op, pe, local.address() + at, n, offset), pe, what);
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    @Override
    public void put(int pe, long offset, Object array, int index, ValueLayout layout, int count) {
        if (!sends.put(pe, offset, array, index, layout, count)) {
            arrayRma(Channel.PUT, pe, offset, array, index, layout, count);
        }
    }

    @Override
    public void get(int pe, long offset, Object array, int index, ValueLayout layout, int count) {
        arrayRma(Channel.GET, pe, offset, array, index, layout, count);
    }

    /** A blocking put or get of {@code count} elements of a Java array (range checked by the caller), through the bounce buffer. */
    private void arrayRma(Channel.Rma op, int pe, long offset, Object array, int index, ValueLayout layout, int count) {
        main.waiters.incrementAndGet();
        try {
            if (count == 0) {
                main.use(pe);
            } else {
                bounced(op, pe, offset, null, array, index, layout, layout.byteSize() * count);
            }
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    /**
     * A blocking put or get of {@code n} bytes of local data not in native memory, a heap segment
     * {@code seg} or else {@code array} from element {@code index}, through the bounce buffer:
     * chunks of {@link Channel#CHUNK} in the buffer's slots, up to one per slot in flight; a slot
     * is reused (put: refilled, get: copied out) once its request completed.
     */
    private void bounced(Channel.Rma op, int pe, long offset, MemorySegment seg, Object array, int index, ValueLayout layout, long n) {
        boolean put = op == Channel.PUT;
        String what = put ? "put" : "get";
        Scratch s = scratch();
        MemorySegment b = s.bounce(n);
        if (n <= Channel.CHUNK) {
            if (put) {
                copyLocal(true, seg, array, index, layout, 0, b, 0, n);
            }
            main.run(op, pe, b.address(), n, offset, what);
            if (!put) {
                copyLocal(false, seg, array, index, layout, 0, b, 0, n);
            }
            return;
        }
        int slots = (int) Math.max(1, Math.min(Channel.WINDOW, b.byteSize() / Channel.CHUNK));
        long[] window = s.window;
        long posted = 0; // chunks posted
        long completed = 0; // chunks completed
        long chunks = (n + Channel.CHUNK - 1) / Channel.CHUNK;
        try {
            while (completed < chunks) {
                if (posted < chunks && posted - completed < slots) {
                    int slot = (int) (posted % slots);
                    long at = posted * Channel.CHUNK;
                    long len = Math.min(Channel.CHUNK, n - at);
                    long region = (long) slot * Channel.CHUNK;
                    if (put) {
                        copyLocal(true, seg, array, index, layout, at, b, region, len);
                    }
                    window[slot] = main.post(op, pe, b.address() + region, len, offset + at);
                    posted++;
                    continue;
                }
                int slot = (int) (completed % slots);
                long r = window[slot];
                window[slot] = 0;
                main.await(r, pe, what);
                if (!put) {
                    long at = completed * Channel.CHUNK;
                    copyLocal(false, seg, array, index, layout, at, b, (long) slot * Channel.CHUNK, Math.min(Channel.CHUNK, n - at));
                }
                completed++;
            }
        } finally {
            main.abandonRequests(window, (int) (completed % slots), (int) (posted - completed));
        }
    }

    /**
     * Copies {@code len} bytes from byte {@code at} of the local data ({@code seg}, or else
     * {@code array} from element {@code index}: {@code at} and {@code len} are whole elements, a
     * chunk being a multiple of every element size) into the bounce buffer at {@code region}
     * ({@code in}), or back out of it.
     */
    private static void copyLocal(boolean in, MemorySegment seg, Object array, int index, ValueLayout layout, long at,
            MemorySegment bounce, long region, long len) {
        if (seg != null) {
            if (in) {
                MemorySegment.copy(seg, at, bounce, region, len);
            } else {
                MemorySegment.copy(bounce, region, seg, at, len);
            }
            return;
        }
        int first = index + (int) (at / layout.byteSize());
        int count = (int) (len / layout.byteSize());
        if (in) {
            MemorySegment.copy(array, first, bounce, layout, region, count);
        } else {
            MemorySegment.copy(bounce, layout, region, array, first, count);
        }
    }

    @Override
    public void putValue(int pe, long offset, long value, int bytes) {
        main.waiters.incrementAndGet();
        try {
            Scratch s = scratch();
            MemorySegment b = s.small;
            switch (bytes) {
                case 1 -> b.set(JAVA_BYTE, Scratch.OPERAND, (byte) value);
                case 2 -> b.set(JAVA_SHORT, Scratch.OPERAND, (short) value);
                case 4 -> b.set(JAVA_INT, Scratch.OPERAND, (int) value);
                case 8 -> b.set(JAVA_LONG, Scratch.OPERAND, value);
                default -> throw new IllegalArgumentException("putValue of " + bytes + " bytes");
            }
            if (!sends.putValue(s, pe, offset, s.operandAddress, bytes)) {
                main.run(Channel.PUT, pe, s.operandAddress, bytes, offset, "put");
            }
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    @Override
    public long getValue(int pe, long offset, int bytes) {
        if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
            throw new IllegalArgumentException("getValue of " + bytes + " bytes");
        }
        main.waiters.incrementAndGet();
        try {
            Scratch s = scratch();
            main.run(Channel.GET, pe, s.replyAddress, bytes, offset, "get");
            MemorySegment b = s.small;
            return switch (bytes) {
                case 1 -> b.get(JAVA_BYTE, Scratch.REPLY);
                case 2 -> b.get(JAVA_SHORT, Scratch.REPLY);
                case 4 -> b.get(JAVA_INT, Scratch.REPLY);
                default -> b.get(JAVA_LONG, Scratch.REPLY);
            };
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    // ================================================================== atomics

    @Override
    public long atomic64(int pe, long offset, AmoOp op, long operand, long compare) {
        main.waiters.incrementAndGet();
        try {
            Scratch s = scratch();
            MemorySegment b = s.small;
            boolean fetch = fetches(op);
            if (op == AmoOp.COMPARE_SWAP) {
                // CSWAP: buffer holds the value compared, reply_buffer the value stored (then the old value).
                b.set(JAVA_LONG, Scratch.OPERAND, compare);
                b.set(JAVA_LONG, Scratch.REPLY, operand);
            } else {
                b.set(JAVA_LONG, Scratch.OPERAND, op == AmoOp.FETCH ? 0L : operand);
            }
            main.await(main.postAtomic(pe, opcode(op), s.operandAddress, offset, fetch ? s.param64Fetch : s.param64, !fetch), pe, "atomic");
            return op == AmoOp.SET || !fetch ? 0L : b.get(JAVA_LONG, Scratch.REPLY);
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    @Override
    public int atomic32(int pe, long offset, AmoOp op, int operand, int compare) {
        main.waiters.incrementAndGet();
        try {
            Scratch s = scratch();
            MemorySegment b = s.small;
            boolean fetch = fetches(op);
            if (op == AmoOp.COMPARE_SWAP) {
                b.set(JAVA_INT, Scratch.OPERAND, compare);
                b.set(JAVA_INT, Scratch.REPLY, operand);
            } else {
                b.set(JAVA_INT, Scratch.OPERAND, op == AmoOp.FETCH ? 0 : operand);
            }
            main.await(main.postAtomic(pe, opcode(op), s.operandAddress, offset, fetch ? s.param32Fetch : s.param32, !fetch), pe, "atomic");
            return op == AmoOp.SET || !fetch ? 0 : b.get(JAVA_INT, Scratch.REPLY);
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    /**
     * One {@link Pushes} message, which quiet does not wait for: the target waits for the count,
     * and nobody needs to know when it landed.
     */
    @Override
    public void flagAdd(int pe, long offset, long increment) {
        sends.push(pe, 0, 0, 0, offset, increment);
    }

    /**
     * One {@link Pushes} message (data and count together); puts and atomics issued to {@code pe}
     * before it are completed first, only when there are any (a collective's pushes have none).
     */
    @Override
    public void putCounted(int pe, long offset, MemorySegment source, long sourceOffset, long n, long counterOffset, long increment) {
        if (!source.isNative()) {
            RemoteTransport.super.putCounted(pe, offset, source, sourceOffset, n, counterOffset, increment);
            return;
        }
        Objects.checkFromIndexSize(sourceOffset, n, source.byteSize());
        if (main.mayHaveIncomplete(pe)) {
            quiet(pe);
        }
        sends.push(pe, offset, source.address() + sourceOffset, n, counterOffset, increment);
    }

    /**
     * A small put with signal as one {@link Pushes} message ({@link PushSends}: when this channel's
     * endpoint to {@code pe} is one TCP lane), completed by quiet; else the default's put, fence and atomic.
     */
    @Override
    public void putSignal(int pe, long offset, MemorySegment source, long signalOffset, long signal, AmoOp op, boolean nbi) {
        if (!sends.putSignal(pe, offset, source, signalOffset, signal, op)) {
            RemoteTransport.super.putSignal(pe, offset, source, signalOffset, signal, op, nbi);
        }
    }

    @Override
    public void putSignal(int pe, long offset, Object array, int index, ValueLayout layout, int count, long signalOffset, long signal,
            AmoOp op) {
        if (!sends.putSignal(pe, offset, array, index, layout, count, signalOffset, signal, op)) {
            RemoteTransport.super.putSignal(pe, offset, array, index, layout, count, signalOffset, signal, op);
        }
    }

    /**
     * Posted with its operand and reply in a native slot of the channel's {@link NbiFetches}
     * ring: returns without waiting for the reply, which quiet copies into {@code fetch[index]}.
     */
    @Override
    public void atomicNbi(int pe, long offset, AmoOp op, long operand, long compare, int bytes, Object fetch, int index) {
        if (op == AmoOp.SET || !fetches(op)) {
            RemoteTransport.super.atomicNbi(pe, offset, op, operand, compare, bytes, fetch, index);
            return;
        }
        main.waiters.incrementAndGet();
        try {
            boolean cswap = op == AmoOp.COMPARE_SWAP;
            // CSWAP: the operand word holds the value compared, the reply word the value stored.
            main.fetches.post(pe, opcode(op), offset, cswap ? compare : op == AmoOp.FETCH ? 0L : operand, cswap ? operand : 0L,
                    bytes, fetch, index);
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    /** Whether the UCX operation for {@code op} needs a reply buffer (SET is a SWAP whose result is dropped). */
    static boolean fetches(AmoOp op) {
        return switch (op) {
            case ADD, AND, OR, XOR -> false;
            default -> true;
        };
    }

    /** The UCP opcode implementing {@code op}; FETCH is an atomic OR with 0. */
    static int opcode(AmoOp op) {
        return switch (op) {
            case FETCH, FETCH_OR, OR -> UcpAbi.UCP_ATOMIC_OP_OR;
            case SET, SWAP -> UcpAbi.UCP_ATOMIC_OP_SWAP;
            case COMPARE_SWAP -> UcpAbi.UCP_ATOMIC_OP_CSWAP;
            case FETCH_ADD, ADD -> UcpAbi.UCP_ATOMIC_OP_ADD;
            case FETCH_AND, AND -> UcpAbi.UCP_ATOMIC_OP_AND;
            case FETCH_XOR, XOR -> UcpAbi.UCP_ATOMIC_OP_XOR;
        };
    }

    /**
     * Decided at wire-up from the lanes UCX chose for atomics ({@link WireUp#atomicsCoherent}):
     * true when the target's CPU performs them (tcp, self, shared memory, or emulation over active
     * messages), false when a network card does (verbs rc/dc with device atomics).
     */
    @Override
    public boolean atomicsCoherentWithCpu() {
        return wiring.coherentAtomics();
    }

    /**
     * Decided at wire-up from the transports of this PE's endpoints ({@link WireUp#writesNeedProgress}):
     * true when each is one whose puts and atomics the target's progress carries out (tcp), so that
     * the progress thread (or a waiting thread, see {@link #progress}) rings sleepers after it.
     */
    @Override
    public boolean remoteWritesWake() {
        return wiring.remoteWritesWake();
    }

    // ================================================================== ordering and completion

    @Override
    public void fence() {
        main.waiters.incrementAndGet();
        try {
            main.fence();
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    @Override
    public void quiet() {
        main.waiters.incrementAndGet();
        try {
            main.checkOpen();
            main.flushAll();
            wiring.pushes().check(); // a message to this PE was dropped (see Pushes#onMessage)
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    /** Completes only the operations to {@code pe} (an endpoint flush and its kept requests). */
    @Override
    public void quiet(int pe) {
        main.waiters.incrementAndGet();
        try {
            main.flush(pe);
        } finally {
            main.waiters.decrementAndGet();
        }
    }

    /**
     * Progress from a PE waiting in the library (a barrier, a wait on its own memory), so that
     * remote operations on this PE's memory land without waiting for the progress thread to wake.
     * Never blocks: when another thread holds the worker, that thread is progressing it.
     */
    @Override
    public boolean progress() {
        if (closed) {
            return false;
        }
        wiring.pushes().check(); // a malformed message dropped by the handler: the wait it was for would never end
        boolean did = main.tryProgress(); // rings sleepers if it applied anything
        // A context's puts and atomics reach their target as its worker is progressed: a PE that
        // waits here may be waiting for the effect of one (an atomic on a context, then a wait).
        did |= job.contexts.progress();
        // Work the progress thread did counts too: a PE asleep in a wait while peers' operations
        // keep coming must wake up and serve them itself (polling, as a waiting PE does) instead
        // of leaving each to the progress thread's poll(2) wake-up, tens of microseconds apiece.
        ProgressEngine p = progress;
        if (p != null) {
            long s = p.served;
            if (s != seenServed) {
                seenServed = s;
                return true;
            }
        }
        return did;
    }

    @Override
    public void waiterSleeps() {
        ProgressEngine p = progress;
        if (p != null) {
            p.takeOver();
        }
    }

    /** {@link ProgressEngine#served} when {@link #progress} last looked (a racy read is harmless). */
    private long seenServed;

    @Override
    public void wakeOnRemoteWrites(Runnable wake) {
        main.wake = wake; // pushes arrive through the main worker too: its progress rings for them
    }

    // ================================================================== contexts

    /**
     * A context's own transport: its own worker with its own endpoints (created on first use) and
     * requests, so its quiet completes only its operations and waits for nobody else's. PRIVATE
     * and SERIALIZED contexts are used by one thread at a time: their quiets and non-blocking
     * bookkeeping take no lock (the worker's lock stays, for the progress below). Peers never
     * address its worker (they reach this PE's heap through the main worker); its operations
     * progress while it waits for them, and, while it has some posted since its last quiet, in
     * the PE's waits and its progress thread ({@link OpenContexts}).
     */
    @Override
    public RemoteTransport openContext(long options) {
        UcxTransport root = parent != null ? parent : this;
        job.checkOpen();
        boolean locked = (options & (Shmem.CTX_PRIVATE | Shmem.CTX_SERIALIZED)) == 0;
        synchronized (job.contexts) {
            job.checkOpen(); // the PE's teardown, which takes this lock, releases every context made before it
            UcxTransport t = new UcxTransport(root, new Channel(job, wiring.context(), locked, false));
            job.contexts.add(t);
            return t;
        }
    }

    @Override
    public String name() {
        return wiring.name();
    }

    /** The PEs this transport has endpoints to. */
    public int[] connectedPes() {
        return main.connectedPes();
    }

    /** For tests: the transports of the contexts open on this PE's transport. */
    List<UcxTransport> contexts() {
        return job.contexts.list();
    }

    // ================================================================== per-thread scratch

    Scratch scratch() {
        Scratch s = scratch.get();
        if (s == null) {
            job.checkOpen();
            s = new Scratch();
            synchronized (scratches) {
                scratches.add(s);
            }
            scratch.set(s);
        }
        return s;
    }

    private void releaseScratch() {
        synchronized (scratches) {
            for (Scratch s : scratches) {
                s.arena.close();
            }
            scratches.clear();
        }
    }

    // ================================================================== shutdown

    /**
     * For the PE's transport, shmem_finalize's part (collective, after the final barrier):
     * completes outstanding operations and waits at a bootstrap fence so no peer still talks to
     * this PE, then releases everything ({@link #release}); degrades to {@link #abandon}'s
     * release when the job is failing. For a context's, its destruction: completes its
     * operations, then releases its channel.
     */
    @Override
    public void close() {
        if (!markClosed()) {
            return;
        }
        if (parent == null) {
            boolean graceful = job.abortReason == null && !job.peerFailed && main.workerHandle != 0;
            if (graceful) {
                try {
                    closeChildren(true);
                    main.flushAll();
                    job.bootstrap.fence();
                } catch (RuntimeException e) {
                    graceful = false;
                }
            }
            release(graceful);
            return;
        }
        try {
            if (!job.closed && job.abortReason == null && !job.peerFailed) {
                main.flushAll();
            }
        } finally {
            main.release(!job.closed && job.abortReason == null && !job.peerFailed);
            job.contexts.remove(this);
        }
    }

    /**
     * Non-collective teardown for a PE going down abnormally (init failed, an uncaught exception,
     * abort): waits for no one; afterwards no thread, endpoint, listener or registration of this
     * transport remains and the heap may be unmapped.
     */
    @Override
    public void abandon() {
        if (!markClosed()) {
            return;
        }
        if (parent == null) {
            release(false);
        } else {
            main.release(false);
            job.contexts.remove(this);
        }
    }

    /**
     * Releases what the PE's transport owns (see the class comment), once: marks the job closed
     * (later calls fail with "closed"), stops the progress thread (nothing touches the main
     * worker behind our back), releases the contexts' channels, then the main channel (endpoints
     * flushed when {@code graceful}, forced otherwise, never waiting for a dead peer beyond a
     * bounded 200 ms), then unregisters the heap and cleans the context up, so the runtime may
     * unmap the heap afterwards, and frees the native scratch memory and the job's arena.
     */
    private void release(boolean graceful) {
        job.closed = true;
        progress.stop();
        closeChildren(false);
        main.release(graceful);
        wiring.context().close();
        releaseScratch();
        job.arena.close();
    }

    /** Sets the closed flag; false if it was already set. */
    private synchronized boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        return true;
    }

    /** Releases the contexts' channels (flushed first if {@code graceful}). */
    private void closeChildren(boolean graceful) {
        for (UcxTransport c : job.contexts.takeAll()) {
            if (c.markClosed()) {
                boolean flushed = false;
                if (graceful) {
                    try {
                        c.main.flushAll();
                        flushed = true;
                    } catch (RuntimeException e) {
                        // released below without waiting
                    }
                }
                c.main.release(flushed);
            }
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** For tests: the progress thread. */
    ProgressEngine progressEngine() {
        return progress;
    }
}
