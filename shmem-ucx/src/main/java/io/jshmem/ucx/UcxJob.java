/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.bootstrap.Bootstrap;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What every {@link Channel} of one PE shares: the settings, what
 * the peers published (worker address, packed memory key, heap base; fetched from the bootstrap
 * at the first connection to each, and kept only for those), the peers' health and the job's abort.
 */
final class UcxJob {
    final int me;
    final int npes;
    final Bootstrap bootstrap;
    final Config.Network settings;
    /**
     * Owns the error-handler and push-handler stubs, the shared request params and the progress
     * thread's pollfd: made first, closed last (by {@link WireUp} when set-up fails, then by the
     * PE's {@link UcxTransport}), after every worker that could call a stub is destroyed.
     */
    final Arena arena = Arena.ofShared();
    final long timeoutNanos;

    /** What each peer connected so far published; no entry for the others. */
    private final ConcurrentHashMap<Integer, Peer> published = new ConcurrentHashMap<>();
    /** What this PE published (set at wire-up): an endpoint to itself needs no lookup. */
    volatile Peer mine;

    /** What a peer published: its worker address, packed memory key and heap base. */
    record Peer(byte[] address, byte[] rkey, long base) {
    }

    /** UCX status of a failed endpoint, by PE (0: healthy; 1 byte per PE). Written by the error handler. */
    final byte[] peerStatus;
    volatile boolean peerFailed;
    /** Whether this node runs more PEs than this PE has CPUs: the progress thread does not poll. */
    final boolean oversubscribed;
    /**
     * Whether this PE shares its core with other PEs ({@code LaunchEnv.coreShared}):
     * then a wait for an operation yields after a few idle rounds. A PE bound to a core of its own
     * (where {@link #oversubscribed} is true, since it has one CPU) keeps polling: its progress
     * thread naps while it waits, so a yield only cost a system call (1.3 us here) between polls
     * (2-PE fetch_add over TCP: 8.7 yields per call; 20.9 -> 20.4 us in 6 alternating runs).
     */
    final boolean coreShared;
    /**
     * This PE's symmetric heap mapping, unmapped by the runtime only, after the transport: a
     * native segment within it (the runtime's own data movement, an object's local() view, whose
     * own scope closes at free) is passed to UCX by address, as its memory stays mapped.
     */
    private final long heapStart;
    private final long heapSize;
    volatile String abortReason;
    volatile boolean closed;
    /** The contexts open on this PE, whose workers the PE's waits and progress thread progress too. */
    final OpenContexts contexts = new OpenContexts();
    /** ucp_err_handler_cb_t stub shared by every endpoint (arg: the peer's PE number). */
    final MemorySegment errHandler;
    /** Empty {@code ucp_request_param_t}s: plain, and FORCE for closing endpoints. */
    final MemorySegment plainParam;
    final MemorySegment forceCloseParam;
    /** Where a quiet's completing gets ({@link Channel#flushAll}) land, all of them: nobody reads it. */
    final MemorySegment sink;

    UcxJob(Bootstrap bootstrap, Config.Network settings, MemorySegment heap, boolean oversubscribed, boolean coreShared) {
        this.bootstrap = bootstrap;
        this.settings = settings;
        this.heapStart = heap.address();
        this.heapSize = heap.byteSize();
        this.oversubscribed = oversubscribed;
        this.coreShared = coreShared;
        this.me = bootstrap.rank();
        this.npes = bootstrap.size();
        this.timeoutNanos = settings.ucxTimeoutNanos();
        this.peerStatus = new byte[npes];
        this.plainParam = arena.allocate(UcpAbi.REQUEST_PARAM);
        this.forceCloseParam = arena.allocate(UcpAbi.REQUEST_PARAM);
        this.sink = arena.allocate(8, 8);
        forceCloseParam.set(java.lang.foreign.ValueLayout.JAVA_INT, UcpAbi.REQ_OP_ATTR_MASK, UcpAbi.UCP_OP_ATTR_FIELD_FLAGS);
        forceCloseParam.set(java.lang.foreign.ValueLayout.JAVA_INT, UcpAbi.REQ_FLAGS, UcpAbi.UCP_EP_CLOSE_FLAG_FORCE);
        try {
            MethodHandle h = MethodHandles.lookup().findVirtual(UcxJob.class, "onEndpointError",
                    MethodType.methodType(void.class, MemorySegment.class, MemorySegment.class, byte.class)).bindTo(this);
            this.errHandler = Linker.nativeLinker().upcallStub(h, Ucp.ERR_HANDLER, arena);
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
                peerStatus[(int) pe] = status == 0 ? UcpAbi.UCS_ERR_CONNECTION_RESET : status;
                peerFailed = true;
            }
        } catch (Throwable ignored) {
            // An exception must not cross the upcall: it would end the JVM.
        }
    }

    // ------------------------------------------------------------------ what the peers published

    /**
     * What {@code pe} published ("ucx.addr.PE", "ucx.rkey.PE", "ucx.base.PE"), fetched from the
     * bootstrap at the first connection to it (by any channel) and kept for the others. The
     * lookups hold no channel lock (one may go to a remote server, and the PE's other threads must
     * keep their operations going meanwhile), only {@link #lookups}: the Bootstrap interface does
     * not promise concurrent gets, and first uses from several threads (THREAD_MULTIPLE, contexts)
     * may come at once, mid-job. Once fetched, no lock: a map read, at connection time only.
     */
    Peer peer(int pe) {
        Peer own = mine;
        if (pe == me && own != null) {
            return own;
        }
        Peer p = published.get(pe);
        if (p != null) {
            return p;
        }
        prefetch(List.of(pe)); // its three keys in one round trip
        return published.get(pe);
    }

    /**
     * Fetches what each of {@code pes} published that this PE has not yet, in one batch of
     * lookups ({@link Bootstrap#getAll}: one round trip to oshrun's server for all of them, where
     * {@link #peer} one at a time costs three each). For eager wire-up, which connects to every
     * off-node PE at init: at 32 PEs on 2 cores, 93 lookups one after the other took 1.9 s of a
     * PE's init.
     */
    void prefetch(List<Integer> pes) {
        synchronized (lookups) {
            List<Integer> wanted = new ArrayList<>();
            List<String> keys = new ArrayList<>();
            for (int pe : pes) {
                if (!(pe == me && mine != null) && !published.containsKey(pe)) { // (one listed twice: fetched twice)
                    wanted.add(pe);
                    keys.add("ucx.addr." + pe);
                    keys.add("ucx.rkey." + pe);
                    keys.add("ucx.base." + pe);
                }
            }
            if (wanted.isEmpty()) {
                return;
            }
            List<byte[]> values = bootstrap.getAll(keys);
            for (int i = 0; i < wanted.size(); i++) {
                int pe = wanted.get(i);
                byte[] a = published(values.get(3 * i), "ucx.addr.", pe);
                byte[] k = published(values.get(3 * i + 1), "ucx.rkey.", pe);
                byte[] b = published(values.get(3 * i + 2), "ucx.base.", pe);
                published.put(pe, new Peer(a, k, ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).getLong()));
            }
        }
    }

    /** Serializes this PE's bootstrap lookups (see {@link #peer}). */
    private final Object lookups = new Object();

    /** How many peers' data this PE has fetched, itself not counted (for tests: O(peers used)). */
    int peersFetched() {
        return published.size();
    }

    /** {@code v}, what {@code pe} published under {@code prefix}; an error naming both if it published nothing. */
    private byte[] published(byte[] v, String prefix, int pe) {
        if (v == null) {
            throw new ShmemException("PE " + me + ": PE " + pe + " published no " + prefix + pe
                    + ": every PE must use the UCX transport (same SHMEM_TRANSPORT and class path)");
        }
        return v;
    }

    static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(v).array();
    }

    // ------------------------------------------------------------------ errors

    void checkOpen() {
        if (closed) {
            throw new ShmemException("PE " + me + ": the UCX transport is closed (used after shmem finalize)");
        }
    }

    /** Why a wait must end now, or null to go on waiting. */
    String stuckReason(int pe, long start) {
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

    ShmemException peerError(int pe, String message, byte status) {
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

    void check(byte status, String what) {
        if (status != UcpAbi.UCS_OK) {
            throw new ShmemException("PE " + me + ": UCX initialization failed: " + what + ": " + Ucp.statusString(status));
        }
    }

    /** Whether {@code s} lies within this PE's symmetric heap mapping (see {@link #heapStart}). */
    boolean inHeap(MemorySegment s) {
        long at = s.address() - heapStart;
        return s.isNative() && at >= 0 && at <= heapSize && s.byteSize() <= heapSize - at;
    }
}
