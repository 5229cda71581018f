package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import io.jshmem.ShmemException;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.AmoOp;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The UCX transport of one PE: one UCP context and worker, an endpoint and an unpacked rkey per
 * peer that is not mapped directly, and this PE's whole symmetric heap segment registered with
 * {@code ucp_mem_map} so peers can reach it.
 *
 * <h2>Threads</h2>
 * The runtime provides THREAD_MULTIPLE, so several application threads may call in at once, and
 * the {@link ProgressEngine} thread progresses the worker in the background. The worker is
 * created in {@code UCS_THREAD_MODE_SERIALIZED} and every call on it (and on its endpoints and
 * requests) is made holding {@link #lock}, a {@link ReentrantLock}. Chosen over
 * {@code UCS_THREAD_MODE_MULTI} because MULTI guards the worker with a recursive spinlock, which
 * on a 2-core node burns the core the lock holder (or the target PE) needs, and because the
 * transport keeps its own state under the same lock anyway (the pending-request list). The lock
 * is held only for the duration of a UCX call (never while waiting), so a thread waiting for its
 * operation progresses the worker in short critical sections and the others interleave.
 *
 * <h2>Local buffers</h2>
 * UCX needs native addresses. A native segment (an arena allocation, the symmetric heap itself)
 * is passed as is. A heap segment (a Java array) is copied through the calling thread's bounce
 * buffer ({@link Scratch}: a native block per thread, grown on demand up to
 * {@value #MAX_BOUNCE} bytes, larger transfers go in chunks); the same block holds the operands,
 * results and pre-filled {@code ucp_request_param_t}s of atomics, so the hot path allocates
 * nothing. Consequently a non-blocking put from a heap array waits for local completion (the copy
 * is made by UCX at once for short and bcopy messages), and a non-blocking get into a heap array
 * is a blocking get; with native buffers both are truly non-blocking and completed at quiet.
 *
 * <h2>Failures</h2>
 * Every wait is bounded: it ends with a {@link ShmemException} naming the peer and the UCX status
 * when the operation fails (endpoints use UCP_ERR_HANDLING_MODE_PEER, so a peer that dies makes
 * its operations fail), when the job is being aborted (the bootstrap's abort notice), or after
 * {@link #timeoutNanos} (JSHMEM_UCX_TIMEOUT seconds, default 60).
 */
public final class UcxTransport implements RemoteTransport, AutoCloseable {
    /** Largest per-thread bounce buffer; larger heap-array transfers are chunked. */
    static final int MAX_BOUNCE = 4 << 20;
    private static final int FIRST_BOUNCE = 64 << 10;
    /** Waits spin (each round calls ucp_worker_progress, 1-4 us on tcp) this many rounds before yielding. */
    private static final int SPIN_ROUNDS = 2_000;
    private static final int YIELD_ROUNDS = 20_000;
    private static final long DEFAULT_TIMEOUT_SECONDS = 60;
    /**
     * How long the progress thread keeps polling after an event before it sleeps on the event fd,
     * when this node has a core per PE (else 0: spinning would take the core a PE needs).
     */
    static final long DEFAULT_SPIN_MICROS = 50;

    private final int me;
    private final int npes;
    private final Bootstrap bootstrap;
    private final long timeoutNanos;
    private final long spinNanos;
    /** UCP_ERR_HANDLING_MODE_PEER (default: failed peers are reported) or NONE (JSHMEM_UCX_ERR_MODE=none). */
    private final boolean peerErrors;
    /** Owns every native block of this transport: params, upcall stub, scratches' parent list. */
    private final Arena arena = Arena.ofShared();
    final ReentrantLock lock = new ReentrantLock();
    /** Application threads inside the transport (posting, or waiting and progressing the worker themselves): the progress thread stays out of their way. */
    final AtomicInteger waiters = new AtomicInteger();

    private MemorySegment context = MemorySegment.NULL;
    private MemorySegment worker = MemorySegment.NULL;
    /** {@code worker.address()}, for the hot-path calls. */
    long workerHandle;
    private MemorySegment memh = MemorySegment.NULL;
    private int eventFd = -1;
    private final long[] eps;
    private final long[] rkeys;
    private final long[] bases;
    /** UCX status of a failed endpoint, by PE (0: healthy). Written by the error handler. */
    private final byte[] peerStatus;
    private volatile boolean peerFailed;
    private volatile String abortReason;
    private volatile boolean closed;
    private final MemorySegment plainParam;
    private final MemorySegment closeParam;
    private final MemorySegment forceCloseParam;
    private ProgressEngine progress;
    private String name = "ucx";

    /** Requests of non-blocking operations, completed (and freed) at quiet. Guarded by {@link #lock}. */
    private long[] pendingRequests = new long[64];
    private int[] pendingPes = new int[64];
    private int pendingCount;

    private final ThreadLocal<Scratch> scratch = new ThreadLocal<>();
    private final List<Scratch> scratches = new ArrayList<>(); // guarded by itself

    private UcxTransport(Bootstrap bootstrap, int me, int npes, long timeoutNanos, long spinNanos, boolean peerErrors) {
        this.bootstrap = bootstrap;
        this.peerErrors = peerErrors;
        this.spinNanos = spinNanos;
        this.me = me;
        this.npes = npes;
        this.timeoutNanos = timeoutNanos;
        this.eps = new long[npes];
        this.rkeys = new long[npes];
        this.bases = new long[npes];
        this.peerStatus = new byte[npes];
        this.plainParam = arena.allocate(Ucp.REQUEST_PARAM);
        this.closeParam = arena.allocate(Ucp.REQUEST_PARAM);
        this.forceCloseParam = arena.allocate(Ucp.REQUEST_PARAM);
        forceCloseParam.set(JAVA_INT, Ucp.REQ_OP_ATTR_MASK, Ucp.UCP_OP_ATTR_FIELD_FLAGS);
        forceCloseParam.set(JAVA_INT, Ucp.REQ_FLAGS, Ucp.UCP_EP_CLOSE_FLAG_FORCE);
    }

    // ================================================================== wire-up

    /**
     * Collective: creates the context and worker, registers the heap, exchanges worker addresses
     * and rkeys through the bootstrap ("ucx.addr.PE", "ucx.rkey.PE", "ucx.base.PE"), connects to
     * every PE that {@code heap.peers()} does not map, and checks each connection with an 8-byte get.
     */
    static UcxTransport create(Bootstrap bootstrap, SymmetricHeap heap, Map<String, String> env) {
        Ucp.require();
        UcxTransport t = new UcxTransport(bootstrap, bootstrap.rank(), bootstrap.size(), timeoutNanos(env),
                microsNanos(env, "JSHMEM_UCX_PROGRESS_SPIN_US", defaultSpinMicros(heap, Runtime.getRuntime().availableProcessors())),
                peerErrors(env));
        bootstrap.onAbort(reason -> t.abortReason = reason);
        try {
            t.wireUp(heap);
        } catch (RuntimeException | Error e) {
            t.teardown(false);
            throw e;
        }
        return t;
    }

    /** {@link #DEFAULT_SPIN_MICROS} if the PEs on this PE's node are no more than its cores, else 0. */
    static long defaultSpinMicros(SymmetricHeap heap, int cores) {
        String node = heap.nodeOf(heap.myPe());
        int local = 0;
        for (int pe = 0; pe < heap.peers().length; pe++) {
            local += node.equals(heap.nodeOf(pe)) ? 1 : 0;
        }
        return local <= cores ? DEFAULT_SPIN_MICROS : 0;
    }

    static boolean peerErrors(Map<String, String> env) {
        String v = env.getOrDefault("JSHMEM_UCX_ERR_MODE", "peer").trim().toLowerCase(java.util.Locale.ROOT);
        return switch (v) {
            case "", "peer" -> true;
            case "none" -> false;
            default -> throw new ShmemException("JSHMEM_UCX_ERR_MODE=" + v + " is not valid: use peer or none");
        };
    }

    static long microsNanos(Map<String, String> env, String variable, long defaultMicros) {
        String v = env.get(variable);
        if (v == null || v.isBlank()) {
            return defaultMicros * 1_000L;
        }
        try {
            long us = Long.parseLong(v.trim());
            if (us >= 0) {
                return us * 1_000L;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new ShmemException(variable + "=" + v + " is not a number of microseconds (0 or more)");
    }

    static long timeoutNanos(Map<String, String> env) {
        String v = env.get("JSHMEM_UCX_TIMEOUT");
        long seconds = DEFAULT_TIMEOUT_SECONDS;
        if (v != null && !v.isBlank()) {
            try {
                seconds = Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                throw new ShmemException("JSHMEM_UCX_TIMEOUT=" + v + " is not a number of seconds");
            }
            if (seconds <= 0) {
                throw new ShmemException("JSHMEM_UCX_TIMEOUT=" + v + " must be positive");
            }
        }
        return seconds * 1_000_000_000L;
    }

    private void wireUp(SymmetricHeap heap) {
        try (Arena tmp = Arena.ofConfined()) {
            // Context.
            MemorySegment params = tmp.allocate(Ucp.PARAMS);
            params.set(JAVA_LONG, Ucp.PARAMS_FIELD_MASK, Ucp.UCP_PARAM_FIELD_FEATURES | Ucp.UCP_PARAM_FIELD_ESTIMATED_NUM_EPS
                    | Ucp.UCP_PARAM_FIELD_NAME);
            params.set(JAVA_LONG, Ucp.PARAMS_FEATURES, Ucp.UCP_FEATURE_RMA | Ucp.UCP_FEATURE_AMO64 | Ucp.UCP_FEATURE_AMO32
                    | Ucp.UCP_FEATURE_WAKEUP);
            params.set(JAVA_LONG, Ucp.PARAMS_ESTIMATED_NUM_EPS, npes);
            params.set(ADDRESS, Ucp.PARAMS_NAME, arena.allocateFrom("jshmem-pe" + me));
            MemorySegment out = tmp.allocate(ADDRESS);
            check(Ucp.configRead(out), "ucp_config_read (check the UCX_* environment variables)");
            MemorySegment config = out.get(ADDRESS, 0);
            byte st;
            try {
                st = Ucp.init(params, config, out);
            } finally {
                Ucp.configRelease(config);
            }
            check(st, "ucp_init (no usable UCX transport? check UCX_TLS and UCX_NET_DEVICES)");
            context = out.get(ADDRESS, 0);

            // Worker, serialized by this.lock.
            MemorySegment wparams = tmp.allocate(Ucp.WORKER_PARAMS);
            wparams.set(JAVA_LONG, Ucp.WORKER_FIELD_MASK, Ucp.UCP_WORKER_PARAM_FIELD_THREAD_MODE);
            wparams.set(JAVA_INT, Ucp.WORKER_THREAD_MODE, Ucp.UCS_THREAD_MODE_SERIALIZED);
            check(Ucp.workerCreate(context, wparams, out), "ucp_worker_create");
            worker = out.get(ADDRESS, 0);
            workerHandle = worker.address();
            MemorySegment fd = tmp.allocate(JAVA_INT);
            check(Ucp.workerGetEfd(worker, fd), "ucp_worker_get_efd");
            eventFd = fd.get(JAVA_INT, 0);

            // This PE's address and its registered heap.
            MemorySegment len = tmp.allocate(JAVA_LONG);
            check(Ucp.workerGetAddress(worker, out, len), "ucp_worker_get_address");
            MemorySegment addr = out.get(ADDRESS, 0);
            byte[] myAddress = addr.reinterpret(len.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
            Ucp.workerReleaseAddress(worker, addr);

            MemorySegment self = heap.self();
            MemorySegment mparams = tmp.allocate(Ucp.MEM_MAP_PARAMS);
            mparams.set(JAVA_LONG, Ucp.MEM_MAP_FIELD_MASK, Ucp.UCP_MEM_MAP_PARAM_FIELD_ADDRESS
                    | Ucp.UCP_MEM_MAP_PARAM_FIELD_LENGTH | Ucp.UCP_MEM_MAP_PARAM_FIELD_PROT);
            mparams.set(ADDRESS, Ucp.MEM_MAP_ADDRESS, self);
            mparams.set(JAVA_LONG, Ucp.MEM_MAP_LENGTH, self.byteSize());
            mparams.set(JAVA_INT, Ucp.MEM_MAP_PROT, Ucp.UCP_MEM_MAP_PROT_LOCAL_READ | Ucp.UCP_MEM_MAP_PROT_LOCAL_WRITE
                    | Ucp.UCP_MEM_MAP_PROT_REMOTE_READ | Ucp.UCP_MEM_MAP_PROT_REMOTE_WRITE);
            check(Ucp.memMap(context, mparams, out), "ucp_mem_map of the symmetric heap (" + self.byteSize() + " bytes)");
            memh = out.get(ADDRESS, 0);
            check(Ucp.rkeyPack(context, memh, out, len), "ucp_rkey_pack");
            MemorySegment rkeyBuffer = out.get(ADDRESS, 0);
            byte[] myRkey = rkeyBuffer.reinterpret(len.get(JAVA_LONG, 0)).toArray(JAVA_BYTE);
            Ucp.rkeyBufferRelease(rkeyBuffer);

            // Peers must be served from now on: they connect to us as soon as the fence is passed.
            progress = new ProgressEngine(this, eventFd, arena, spinNanos);
            progress.start();

            bootstrap.put("ucx.addr." + me, myAddress);
            bootstrap.put("ucx.rkey." + me, myRkey);
            bootstrap.put("ucx.base." + me, longBytes(self.address()));
            bootstrap.fence();

            MemorySegment errHandler = errorHandlerStub();
            MemorySegment eparams = tmp.allocate(Ucp.EP_PARAMS);
            MemorySegment[] peers = heap.peers();
            for (int pe = 0; pe < npes; pe++) {
                if (pe == me || peers[pe] != null) {
                    continue;
                }
                byte[] a = published("ucx.addr.", pe);
                byte[] k = published("ucx.rkey.", pe);
                byte[] b = published("ucx.base.", pe);
                MemorySegment remoteAddress = tmp.allocateFrom(JAVA_BYTE, a);
                eparams.fill((byte) 0);
                eparams.set(ADDRESS, Ucp.EP_ADDRESS, remoteAddress);
                if (peerErrors) {
                    // Operations to a peer that died fail (and the handler marks it) instead of hanging.
                    eparams.set(JAVA_LONG, Ucp.EP_FIELD_MASK, Ucp.UCP_EP_PARAM_FIELD_REMOTE_ADDRESS
                            | Ucp.UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | Ucp.UCP_EP_PARAM_FIELD_ERR_HANDLER);
                    eparams.set(JAVA_INT, Ucp.EP_ERR_MODE, Ucp.UCP_ERR_HANDLING_MODE_PEER);
                    eparams.set(ADDRESS, Ucp.EP_ERR_HANDLER_CB, errHandler);
                    eparams.set(ADDRESS, Ucp.EP_ERR_HANDLER_ARG, MemorySegment.ofAddress(pe));
                } else {
                    eparams.set(JAVA_LONG, Ucp.EP_FIELD_MASK, Ucp.UCP_EP_PARAM_FIELD_REMOTE_ADDRESS);
                }
                lockApp();
                try {
                    byte s = Ucp.epCreate(worker, eparams, out);
                    if (s != Ucp.UCS_OK) {
                        throw peerError(pe, "cannot create a UCX endpoint to PE " + pe + " (ucp_ep_create)", s);
                    }
                    eps[pe] = out.get(ADDRESS, 0).address();
                    s = Ucp.epRkeyUnpack(eps[pe], tmp.allocateFrom(JAVA_BYTE, k), out);
                    if (s != Ucp.UCS_OK) {
                        throw peerError(pe, "cannot unpack the memory key of PE " + pe + " (ucp_ep_rkey_unpack)", s);
                    }
                    rkeys[pe] = out.get(ADDRESS, 0).address();
                } finally {
                    lock.unlock();
                }
                bases[pe] = ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getLong();
            }
        }
        checkConnections();
        name = "ucx (" + selectedTransports() + ")";
    }

    private byte[] published(String prefix, int pe) {
        byte[] v = bootstrap.get(prefix + pe);
        if (v == null) {
            throw new ShmemException("PE " + me + ": PE " + pe + " published no " + prefix + pe
                    + ": every PE must use the UCX transport (same SHMEM_TRANSPORT and class path)");
        }
        return v;
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(v).array();
    }

    private void check(byte status, String what) {
        if (status != Ucp.UCS_OK) {
            throw new ShmemException("PE " + me + ": UCX initialization failed: " + what + ": " + Ucp.statusString(status));
        }
    }

    /** An 8-byte get from every peer, all in flight together: reports an unreachable peer at init, by number. */
    private void checkConnections() {
        Scratch s = scratch();
        MemorySegment slots = s.arena.allocate(8L * npes, 8);
        long[] requests = new long[npes];
        for (int pe = 0; pe < npes; pe++) {
            if (eps[pe] != 0) {
                lockApp();
                try {
                    requests[pe] = Ucp.getNbx(eps[pe], slots.address() + 8L * pe, 8, bases[pe], rkeys[pe], plainParam);
                } finally {
                    lock.unlock();
                }
            }
        }
        for (int pe = 0; pe < npes; pe++) {
            if (eps[pe] != 0) {
                await(requests[pe], pe, "connection check (8-byte get)");
            }
        }
    }

    /** Which UCX transports the endpoints use, from {@code ucp_ep_print_info}: e.g. "tcp" or "posix, sysv". */
    private String selectedTransports() {
        TreeSet<String> tls = new TreeSet<>();
        for (int pe = 0; pe < npes; pe++) {
            if (eps[pe] != 0) {
                String info;
                lockApp();
                try {
                    info = Ucp.epInfo(eps[pe]);
                } finally {
                    lock.unlock();
                }
                tls.addAll(transportsIn(info));
            }
        }
        return tls.isEmpty() ? "no endpoints" : String.join(", ", tls);
    }

    private static final Pattern LANE_TL = Pattern.compile("lane\\[\\d+\\]:\\s+\\d+:([A-Za-z0-9_]+)/");

    /** Transport names of the lanes listed by ucp_ep_print_info ("lane[0]:  2:tcp/lo.0 md[1] ..."). */
    static List<String> transportsIn(String epInfo) {
        List<String> out = new ArrayList<>();
        Matcher m = LANE_TL.matcher(epInfo);
        while (m.find()) {
            if (!out.contains(m.group(1))) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    private MemorySegment errorHandlerStub() {
        try {
            MethodHandle h = MethodHandles.lookup().findVirtual(UcxTransport.class, "onEndpointError",
                    MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, byte.class)).bindTo(this);
            return Linker.nativeLinker().upcallStub(h, Ucp.ERR_HANDLER, arena);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** ucp_err_handler_cb_t, called inside ucp_worker_progress when an endpoint fails. Must not throw. */
    @SuppressWarnings("unused")
    private void onEndpointError(MemorySegment arg, MemorySegment ep, byte status) {
        try {
            long pe = arg.address();
            if (pe >= 0 && pe < npes) {
                peerStatus[(int) pe] = status == 0 ? Ucp.UCS_ERR_CONNECTION_RESET : status;
                peerFailed = true;
            }
        } catch (Throwable ignored) {
            // An exception must not cross the upcall: it would end the JVM.
        }
    }

    // ================================================================== RemoteTransport

    @Override
    public void put(int pe, long offset, MemorySegment source) {
        waiters.incrementAndGet();
        try {
            putImpl(pe, offset, source);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void putImpl(int pe, long offset, MemorySegment source) {
        long n = source.byteSize();
        long ep = ep(pe);
        if (n == 0) {
            return;
        }
        long remote = bases[pe] + offset;
        if (source.isNative()) {
            long r;
            lockApp();
            try {
                r = Ucp.putNbx(ep, source.address(), n, remote, rkeys[pe], plainParam);
            } finally {
                lock.unlock();
            }
            await(r, pe, "put");
            return;
        }
        Scratch s = scratch();
        for (long done = 0; done < n; ) {
            long chunk = Math.min(n - done, MAX_BOUNCE);
            MemorySegment bounce = s.bounce(chunk);
            MemorySegment.copy(source, done, bounce, 0, chunk);
            long r;
            lockApp();
            try {
                r = Ucp.putNbx(ep, bounce.address(), chunk, remote + done, rkeys[pe], plainParam);
            } finally {
                lock.unlock();
            }
            await(r, pe, "put");
            done += chunk;
        }
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment source) {
        waiters.incrementAndGet();
        try {
            putNbiImpl(pe, offset, source);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void putNbiImpl(int pe, long offset, MemorySegment source) {
        if (!source.isNative()) {
            // The array may be reused on return: copy through the bounce buffer, wait for local completion.
            putImpl(pe, offset, source);
            return;
        }
        long n = source.byteSize();
        long ep = ep(pe);
        if (n == 0) {
            return;
        }
        lockApp();
        try {
            long r = Ucp.putNbx(ep, source.address(), n, bases[pe] + offset, rkeys[pe], plainParam);
            deferLocked(r, pe, "put_nbi");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void get(int pe, long offset, MemorySegment dest) {
        waiters.incrementAndGet();
        try {
            getImpl(pe, offset, dest);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void getImpl(int pe, long offset, MemorySegment dest) {
        long n = dest.byteSize();
        long ep = ep(pe);
        if (n == 0) {
            return;
        }
        long remote = bases[pe] + offset;
        if (dest.isNative()) {
            long r;
            lockApp();
            try {
                r = Ucp.getNbx(ep, dest.address(), n, remote, rkeys[pe], plainParam);
            } finally {
                lock.unlock();
            }
            await(r, pe, "get");
            return;
        }
        Scratch s = scratch();
        for (long done = 0; done < n; ) {
            long chunk = Math.min(n - done, MAX_BOUNCE);
            MemorySegment bounce = s.bounce(chunk);
            long r;
            lockApp();
            try {
                r = Ucp.getNbx(ep, bounce.address(), chunk, remote + done, rkeys[pe], plainParam);
            } finally {
                lock.unlock();
            }
            await(r, pe, "get");
            MemorySegment.copy(bounce, 0, dest, done, chunk);
            done += chunk;
        }
    }

    @Override
    public void getNbi(int pe, long offset, MemorySegment dest) {
        waiters.incrementAndGet();
        try {
            getNbiImpl(pe, offset, dest);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void getNbiImpl(int pe, long offset, MemorySegment dest) {
        if (!dest.isNative()) {
            getImpl(pe, offset, dest);
            return;
        }
        long n = dest.byteSize();
        long ep = ep(pe);
        if (n == 0) {
            return;
        }
        lockApp();
        try {
            long r = Ucp.getNbx(ep, dest.address(), n, bases[pe] + offset, rkeys[pe], plainParam);
            deferLocked(r, pe, "get_nbi");
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void putValue(int pe, long offset, long value, int bytes) {
        waiters.incrementAndGet();
        try {
            putValueImpl(pe, offset, value, bytes);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void putValueImpl(int pe, long offset, long value, int bytes) {
        long ep = ep(pe);
        Scratch s = scratch();
        MemorySegment b = s.small;
        switch (bytes) {
            case 1 -> b.set(JAVA_BYTE, Scratch.OPERAND, (byte) value);
            case 2 -> b.set(JAVA_SHORT, Scratch.OPERAND, (short) value);
            case 4 -> b.set(JAVA_INT, Scratch.OPERAND, (int) value);
            case 8 -> b.set(JAVA_LONG, Scratch.OPERAND, value);
            default -> throw new IllegalArgumentException("putValue of " + bytes + " bytes");
        }
        long r;
        lockApp();
        try {
            r = Ucp.putNbx(ep, s.operandAddress, bytes, bases[pe] + offset, rkeys[pe], plainParam);
        } finally {
            lock.unlock();
        }
        await(r, pe, "put");
    }

    @Override
    public long getValue(int pe, long offset, int bytes) {
        waiters.incrementAndGet();
        try {
            return getValueImpl(pe, offset, bytes);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private long getValueImpl(int pe, long offset, int bytes) {
        if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
            throw new IllegalArgumentException("getValue of " + bytes + " bytes");
        }
        long ep = ep(pe);
        Scratch s = scratch();
        long r;
        lockApp();
        try {
            r = Ucp.getNbx(ep, s.replyAddress, bytes, bases[pe] + offset, rkeys[pe], plainParam);
        } finally {
            lock.unlock();
        }
        await(r, pe, "get");
        MemorySegment b = s.small;
        return switch (bytes) {
            case 1 -> b.get(JAVA_BYTE, Scratch.REPLY);
            case 2 -> b.get(JAVA_SHORT, Scratch.REPLY);
            case 4 -> b.get(JAVA_INT, Scratch.REPLY);
            default -> b.get(JAVA_LONG, Scratch.REPLY);
        };
    }

    @Override
    public long atomic64(int pe, long offset, AmoOp op, long operand, long compare) {
        waiters.incrementAndGet();
        try {
            return atomic64Impl(pe, offset, op, operand, compare);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private long atomic64Impl(int pe, long offset, AmoOp op, long operand, long compare) {
        long ep = ep(pe);
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
        long r;
        lockApp();
        try {
            r = Ucp.atomicOpNbx(ep, opcode(op), s.operandAddress, bases[pe] + offset, rkeys[pe],
                    fetch ? s.param64Fetch : s.param64);
        } finally {
            lock.unlock();
        }
        await(r, pe, "atomic");
        return op == AmoOp.SET || !fetch ? 0L : b.get(JAVA_LONG, Scratch.REPLY);
    }

    @Override
    public int atomic32(int pe, long offset, AmoOp op, int operand, int compare) {
        waiters.incrementAndGet();
        try {
            return atomic32Impl(pe, offset, op, operand, compare);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private int atomic32Impl(int pe, long offset, AmoOp op, int operand, int compare) {
        long ep = ep(pe);
        Scratch s = scratch();
        MemorySegment b = s.small;
        boolean fetch = fetches(op);
        if (op == AmoOp.COMPARE_SWAP) {
            b.set(JAVA_INT, Scratch.OPERAND, compare);
            b.set(JAVA_INT, Scratch.REPLY, operand);
        } else {
            b.set(JAVA_INT, Scratch.OPERAND, op == AmoOp.FETCH ? 0 : operand);
        }
        long r;
        lockApp();
        try {
            r = Ucp.atomicOpNbx(ep, opcode(op), s.operandAddress, bases[pe] + offset, rkeys[pe],
                    fetch ? s.param32Fetch : s.param32);
        } finally {
            lock.unlock();
        }
        await(r, pe, "atomic");
        return op == AmoOp.SET || !fetch ? 0 : b.get(JAVA_INT, Scratch.REPLY);
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
            case FETCH, FETCH_OR, OR -> Ucp.UCP_ATOMIC_OP_OR;
            case SET, SWAP -> Ucp.UCP_ATOMIC_OP_SWAP;
            case COMPARE_SWAP -> Ucp.UCP_ATOMIC_OP_CSWAP;
            case FETCH_ADD, ADD -> Ucp.UCP_ATOMIC_OP_ADD;
            case FETCH_AND, AND -> Ucp.UCP_ATOMIC_OP_AND;
            case FETCH_XOR, XOR -> Ucp.UCP_ATOMIC_OP_XOR;
        };
    }

    @Override
    public void fence() {
        waiters.incrementAndGet();
        try {
            fenceImpl();
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void fenceImpl() {
        checkOpen();
        byte st;
        lockApp();
        try {
            st = Ucp.fence(workerHandle);
        } finally {
            lock.unlock();
        }
        if (st != Ucp.UCS_OK) {
            throw new ShmemException("PE " + me + ": UCX fence failed: " + Ucp.statusString(st));
        }
    }

    @Override
    public void quiet() {
        waiters.incrementAndGet();
        try {
            quietImpl();
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void quietImpl() {
        checkOpen();
        quietAll();
    }

    private void quietAll() {
        long r;
        lockApp();
        try {
            r = Ucp.workerFlushNbx(workerHandle, plainParam);
        } finally {
            lock.unlock();
        }
        await(r, -1, "quiet (worker flush)");
        completePending(-1);
    }

    @Override
    public void quiet(int pe) {
        waiters.incrementAndGet();
        try {
            quietImpl(pe);
        } finally {
            waiters.decrementAndGet();
        }
    }

    private void quietImpl(int pe) {
        long ep = ep(pe);
        long r;
        lockApp();
        try {
            r = Ucp.epFlushNbx(ep, plainParam);
        } finally {
            lock.unlock();
        }
        await(r, pe, "quiet (endpoint flush)");
        completePending(pe);
    }

    /**
     * Progress from a PE waiting in the library (a barrier, a wait on its own memory), so that
     * remote operations on this PE's memory land without waiting for the progress thread to wake.
     * Never blocks: when another thread holds the worker, that thread is progressing it.
     */
    @Override
    public boolean progress() {
        if (closed || !lock.tryLock()) {
            return false;
        }
        try {
            return !closed && Ucp.progress(workerHandle) != 0;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String name() {
        return name;
    }

    /** The PEs this transport has endpoints to. */
    public int[] connectedPes() {
        return java.util.stream.IntStream.range(0, npes).filter(pe -> eps[pe] != 0).toArray();
    }

    // ================================================================== requests and waiting

    private long ep(int pe) {
        if (pe < 0 || pe >= npes || eps[pe] == 0) {
            checkOpen();
            throw new ShmemException("PE " + me + ": PE " + pe + " is not reached through UCX"
                    + (pe >= 0 && pe < npes ? " (it is mapped directly)" : " (out of range)"));
        }
        if (peerFailed && peerStatus[pe] != 0) {
            throw peerError(pe, "PE " + pe + " is unreachable over UCX", peerStatus[pe]);
        }
        if (closed) {
            checkOpen();
        }
        return eps[pe];
    }

    private void checkOpen() {
        if (closed) {
            throw new ShmemException("PE " + me + ": the UCX transport is closed (used after shmem finalize)");
        }
    }

    /**
     * Takes {@link #lock} for an application thread: spins briefly first, since the holder (the
     * progress thread, or another application thread) keeps it for one UCX call only, and parking
     * costs a futex wake-up on release, tens of microseconds on a loaded machine.
     */
    private void lockApp() {
        if (lock.tryLock()) {
            return;
        }
        for (int i = 0; i < 500; i++) {
            Thread.onSpinWait();
            if (lock.tryLock()) {
                return;
            }
        }
        lock.lock();
    }

    /** Keeps a non-blocking operation's request for quiet; called holding the lock. */
    private void deferLocked(long r, int pe, String what) {
        if (r == 0) {
            return;
        }
        if (Ucp.isError(r)) {
            throw peerError(pe, "UCX " + what + " to PE " + pe + " failed", (byte) r);
        }
        if (pendingCount == pendingRequests.length) {
            pendingRequests = Arrays.copyOf(pendingRequests, pendingCount * 2);
            pendingPes = Arrays.copyOf(pendingPes, pendingCount * 2);
        }
        pendingRequests[pendingCount] = r;
        pendingPes[pendingCount++] = pe;
    }

    /** Waits for the kept requests to {@code pe} (-1: all), frees them; throws the first failure. */
    private void completePending(int pe) {
        ShmemException first = null;
        while (true) {
            long r = 0;
            int target = -1;
            lockApp();
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
                lock.unlock();
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
     * Waits for a status pointer returned by a UCX call: nothing to do for NULL, throws for an
     * error, else progresses the worker until the request completes, then frees it. Bounded by
     * the abort notice, the peer's failure and the timeout. {@code pe} is -1 for worker-wide operations.
     */
    private void await(long r, int pe, String what) {
        if (r == 0) {
            return;
        }
        if (Ucp.isError(r)) {
            throw peerError(pe, "UCX " + what + (pe >= 0 ? " to PE " + pe : "") + " failed", (byte) r);
        }
        awaitRequest(r, pe, what);
    }

    private void awaitRequest(long r, int pe, String what) {
        long start = 0;
        for (int i = 0; ; i++) {
            byte st;
            lockApp();
            try {
                Ucp.progress(workerHandle);
                st = Ucp.requestCheckStatus(r);
                if (st != Ucp.UCS_INPROGRESS) {
                    Ucp.requestFree(r);
                }
            } finally {
                lock.unlock();
            }
            if (st == Ucp.UCS_OK) {
                return;
            }
            if (st != Ucp.UCS_INPROGRESS) {
                throw peerError(pe, "UCX " + what + (pe >= 0 ? " to PE " + pe : "") + " failed", st);
            }
            if (i >= SPIN_ROUNDS) {
                if (start == 0) {
                    start = System.nanoTime();
                }
                String stuck = stuckReason(pe, start);
                if (stuck != null) {
                    lockApp();
                    try {
                        Ucp.requestCancel(workerHandle, r);
                        Ucp.requestFree(r);
                    } finally {
                        lock.unlock();
                    }
                    throw new ShmemException("PE " + me + ": UCX " + what + (pe >= 0 ? " to PE " + pe : "") + " did not complete: "
                            + stuck);
                }
                if (i < YIELD_ROUNDS) {
                    Thread.yield();
                } else {
                    LockSupport.parkNanos(50_000);
                }
            }
        }
    }

    /** Why a wait must end now, or null to go on waiting. */
    private String stuckReason(int pe, long start) {
        String abort = abortReason;
        if (abort != null) {
            return "the job is being aborted: " + abort;
        }
        if (peerFailed) {
            if (pe >= 0 && peerStatus[pe] != 0) {
                return "PE " + pe + " is unreachable: " + Ucp.statusString(peerStatus[pe]);
            }
            if (pe < 0) {
                for (int p = 0; p < npes; p++) {
                    if (peerStatus[p] != 0) {
                        return "PE " + p + " is unreachable: " + Ucp.statusString(peerStatus[p]);
                    }
                }
            }
        }
        if (System.nanoTime() - start > timeoutNanos) {
            return "no completion after " + timeoutNanos / 1_000_000_000L + " s (JSHMEM_UCX_TIMEOUT)"
                    + (pe >= 0 ? "; is PE " + pe + " alive?" : "");
        }
        return null;
    }

    private ShmemException peerError(int pe, String message, byte status) {
        StringBuilder m = new StringBuilder("PE ").append(me).append(": ").append(message).append(": ")
                .append(Ucp.statusString(status));
        if (pe >= 0 && pe < npes && peerStatus[pe] != 0 && peerStatus[pe] != status) {
            m.append("; PE ").append(pe).append(" is unreachable: ").append(Ucp.statusString(peerStatus[pe]));
        }
        String abort = abortReason;
        if (abort != null) {
            m.append(" (the job is being aborted: ").append(abort).append(")");
        }
        return new ShmemException(m.toString());
    }

    // ================================================================== per-thread scratch

    /** A thread's native scratch: pre-filled atomic params, operand and result words, bounce buffer. */
    static final class Scratch {
        static final long PARAM64 = 0;
        static final long PARAM64_FETCH = 128;
        static final long PARAM32 = 256;
        static final long PARAM32_FETCH = 384;
        static final long OPERAND = 512;
        static final long REPLY = 576;
        static final long SIZE = 640;

        final Arena arena = Arena.ofShared();
        final MemorySegment small;
        final MemorySegment param64;
        final MemorySegment param64Fetch;
        final MemorySegment param32;
        final MemorySegment param32Fetch;
        final long operandAddress;
        final long replyAddress;
        private MemorySegment bounce;

        Scratch() {
            small = arena.allocate(SIZE, 64);
            operandAddress = small.address() + OPERAND;
            replyAddress = small.address() + REPLY;
            param64 = params(PARAM64, 8, false);
            param64Fetch = params(PARAM64_FETCH, 8, true);
            param32 = params(PARAM32, 4, false);
            param32Fetch = params(PARAM32_FETCH, 4, true);
        }

        private MemorySegment params(long at, int size, boolean fetch) {
            MemorySegment p = small.asSlice(at, Ucp.REQUEST_PARAM.byteSize());
            p.set(JAVA_INT, Ucp.REQ_OP_ATTR_MASK, Ucp.UCP_OP_ATTR_FIELD_DATATYPE | (fetch ? Ucp.UCP_OP_ATTR_FIELD_REPLY_BUFFER : 0));
            p.set(JAVA_LONG, Ucp.REQ_DATATYPE, Ucp.dtContig(size));
            if (fetch) {
                p.set(JAVA_LONG, Ucp.REQ_REPLY_BUFFER, replyAddress);
            }
            return p;
        }

        MemorySegment bounce(long bytes) {
            MemorySegment b = bounce;
            if (b == null || b.byteSize() < bytes) {
                long size = Math.max(bytes, b == null ? FIRST_BOUNCE : Math.min(MAX_BOUNCE, 2 * b.byteSize()));
                b = arena.allocate(size, 4096);
                bounce = b;
            }
            return b;
        }
    }

    private Scratch scratch() {
        Scratch s = scratch.get();
        if (s == null) {
            checkOpen();
            s = new Scratch();
            synchronized (scratches) {
                scratches.add(s);
            }
            scratch.set(s);
        }
        return s;
    }

    // ================================================================== shutdown

    /**
     * shmem_finalize's part: collective (every PE calls it after the final barrier). Completes
     * outstanding operations, waits at a bootstrap fence so no peer still talks to this PE, then
     * closes the endpoints, unregisters the heap (before the runtime unmaps it), destroys the
     * worker and context and stops the progress thread. Skips the fence when the job is failing.
     */
    @Override
    public void close() {
        teardown(true);
    }

    /**
     * Non-collective teardown for a PE going down abnormally (abort, uncaught exception): stops
     * the progress thread and releases UCX without waiting for anyone, so that the heap can be
     * unmapped safely afterwards.
     */
    public void abandon() {
        teardown(false);
    }

    private void teardown(boolean collective) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        boolean graceful = collective && abortReason == null && !peerFailed && workerHandle != 0;
        if (graceful) {
            try {
                quietAll();
            } catch (RuntimeException e) {
                graceful = false;
            }
        }
        if (graceful) {
            try {
                bootstrap.fence();
            } catch (RuntimeException e) {
                graceful = false;
            }
        }
        if (progress != null) {
            progress.stop();
        }
        long[] closing = new long[npes];
        lockApp();
        try {
            for (int i = 0; i < pendingCount; i++) {
                Ucp.requestFree(pendingRequests[i]); // released by UCX when it completes (or fails)
            }
            pendingCount = 0;
            for (int pe = 0; pe < npes; pe++) {
                if (rkeys[pe] != 0) {
                    Ucp.rkeyDestroy(rkeys[pe]);
                    rkeys[pe] = 0;
                }
            }
            for (int pe = 0; pe < npes; pe++) {
                if (eps[pe] != 0) {
                    boolean force = !graceful || peerStatus[pe] != 0;
                    closing[pe] = Ucp.epCloseNbx(eps[pe], force ? forceCloseParam : closeParam);
                    eps[pe] = 0;
                }
            }
        } finally {
            lock.unlock();
        }
        // Bounded: a disconnect needs the peer only in flush mode, and the peer is at the same point.
        long deadline = System.nanoTime() + (graceful ? 2_000_000_000L : 200_000_000L);
        for (int pe = 0; pe < npes; pe++) {
            long r = closing[pe];
            if (!Ucp.isRequest(r)) {
                continue;
            }
            while (true) {
                byte st;
                lockApp();
                try {
                    Ucp.progress(workerHandle);
                    st = Ucp.requestCheckStatus(r);
                    if (st != Ucp.UCS_INPROGRESS || System.nanoTime() > deadline) {
                        Ucp.requestFree(r);
                        break;
                    }
                } finally {
                    lock.unlock();
                }
                Thread.onSpinWait();
            }
        }
        lockApp();
        try {
            if (!memh.equals(MemorySegment.NULL)) {
                Ucp.memUnmap(context, memh);
                memh = MemorySegment.NULL;
            }
            if (!worker.equals(MemorySegment.NULL)) {
                Ucp.workerDestroy(worker);
                worker = MemorySegment.NULL;
                workerHandle = 0;
            }
            if (!context.equals(MemorySegment.NULL)) {
                Ucp.cleanup(context);
                context = MemorySegment.NULL;
            }
        } finally {
            lock.unlock();
        }
        synchronized (scratches) {
            for (Scratch s : scratches) {
                s.arena.close();
            }
            scratches.clear();
        }
        arena.close();
    }

    boolean isClosed() {
        return closed;
    }

    /** For tests: the progress thread. */
    ProgressEngine progressEngine() {
        return progress;
    }
}
