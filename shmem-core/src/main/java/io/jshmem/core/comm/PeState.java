/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

import io.jshmem.JobAbortedException;
import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** What every context of this PE shares: identity, heap, peers, transport, job health. */
public final class PeState {
    public final int me;
    public final int npes;
    public final Config config;
    public final Bootstrap bootstrap;
    public final SymmetricHeap heap;
    public final MemorySegment self;
    /** Mapped heaps indexed by world PE; null for PEs on other nodes. */
    public final MemorySegment[] worldPeers;
    public final RemoteTransport transport;
    /** How this PE reaches the others (the default context's; created contexts may have their own). */
    public final Comm comm;
    public final Waiter waiter;
    public final int localPes;
    /** PEs on this node, this one included, mapped or not. */
    public final int nodePes;
    /** Whether this PE shares its core with others of its node (see {@link LaunchEnv#coreShared}): waits spin only while the awake PEs fit on the cores. */
    public final boolean coreShared;
    /** Live symmetric objects, marked unusable at finalize. */
    public final Set<SymArrayImpl<?>> live = ConcurrentHashMap.newKeySet();
    /** Contexts to invalidate at finalize. */
    public final Set<OpenContext> contexts = ConcurrentHashMap.newKeySet();

    public volatile String abortReason;
    public volatile boolean finalized;
    /** This PE is going down abnormally: the implicit finalize must not wait for others. */
    public volatile boolean failed;

    public PeState(Bootstrap bootstrap, Config config, SymmetricHeap heap, RemoteTransport transport) {
        this.bootstrap = bootstrap;
        this.config = config;
        this.me = bootstrap.rank();
        this.npes = bootstrap.size();
        this.heap = heap;
        this.self = heap.self();
        this.worldPeers = heap.peers();
        this.transport = transport;
        int local = 0;
        for (MemorySegment s : worldPeers) {
            local += s == null ? 0 : 1;
        }
        this.localPes = local;
        boolean atomicsOnCpu = switch (config.atomics()) {
            case CPU -> true;
            case TRANSPORT -> false;
            case AUTO -> transport == null || transport.atomicsCoherentWithCpu();
        };
        this.comm = new Comm(me, worldPeers, transport, atomicsOnCpu, heap);
        // All of this node's PEs, not only those mapped here: with every peer over UCX, 4 PEs on 2
        // cores spun as if each had a core (4-PE barrier over TCP: 330-370 us against 140-180).
        this.nodePes = heap.pesOnThisNode();
        this.coreShared = LaunchEnv.coreShared(nodePes);
        boolean autoSpin = config.waitSpinNanos() < 0;
        long spin = autoSpin ? 20_000 : config.waitSpinNanos();
        this.waiter = new Waiter(spin, config.waitYieldNanos(), transport, this::checkAbort,
                autoSpin && coreShared ? awakePes(worldPeers, nodePes) : null);
        if (transport != null) {
            MemorySegment mine = self;
            // signal, not poke: the fence makes sure no sleeper misses a write the transport made
            // (over TCP a sleeper relies on this wake-up, see RemoteTransport.remoteWritesWake).
            transport.wakeOnRemoteWrites(() -> Waiter.signal(mine));
        }
    }

    /** The judge of when a wait may spin although this node's PEs outnumber its cores. */
    private static AwakePes awakePes(MemorySegment[] worldPeers, int nodePes) {
        // A loop, not a stream: the stream's lambdas would be spun at every such PE's start (the
        // start-up cache holds only what its 2-PE training job ran).
        List<MemorySegment> mapped = new ArrayList<>();
        for (MemorySegment peer : worldPeers) {
            if (peer != null) {
                mapped.add(peer);
            }
        }
        return new AwakePes(mapped.toArray(new MemorySegment[0]), nodePes, Runtime.getRuntime().availableProcessors());
    }

    void checkAbort() {
        String reason = abortReason;
        if (reason != null) {
            failed = true;
            throw new JobAbortedException(reason, "PE " + me + ": the job is being aborted: " + reason);
        }
    }

    public ShmemException error(String message) {
        return new ShmemException("PE " + me + ": " + message);
    }

    public ShmemException afterFinalize() {
        return error("jshmem used after shmem finalize (close)" + heap.reinitializedSince());
    }

    /** Why {@code object} is not a live symmetric object of this heap. */
    public ShmemException badObject(Object object) {
        if (finalized) {
            return afterFinalize();
        }
        if (object == null) {
            return error("symmetric object is null");
        }
        if (object instanceof SymArrayImpl<?> a) {
            // A heap closed before this one was created: an object of an earlier initialization.
            return a.heap == heap || a.heap.closed() ? a.heap.deadObject(a)
                    : error(object + " belongs to another symmetric heap");
        }
        return error(object.getClass().getName() + " is not a symmetric object: allocate one with shmem.malloc");
    }

    public ShmemException outOfBounds(SymArrayImpl<?> a, long index, long count, String unit) {
        String routine = apiRoutine();
        if (count < 0) {
            return error(routine + ": negative " + unit + " count " + count);
        }
        if (index < 0) {
            return error(routine + ": negative " + unit + " index " + index);
        }
        long size = unit.equals("byte") ? a.length << a.shift : a.length;
        return error(routine + ": " + unit + "s [" + index + ", " + (index + count) + ") are outside the symmetric "
                + a.type.name() + " array of " + size + " " + unit + "s");
    }

    /**
     * The jshmem routine the application called (the last runtime frame before the caller's), for
     * error messages; found only when an error is reported, so the checks cost nothing more.
     */
    private static String apiRoutine() {
        return StackWalker.getInstance().walk(frames -> {
            String last = "jshmem";
            for (StackWalker.StackFrame f : (Iterable<StackWalker.StackFrame>) frames::iterator) {
                if (!f.getClassName().startsWith("io.jshmem.core.")) {
                    break;
                }
                last = f.getMethodName();
            }
            return last;
        });
    }

    /** Checks and returns a live symmetric object of this heap. */
    public SymArrayImpl<?> check(Object object) {
        if (object instanceof SymArrayImpl<?> a && a.heap == heap && !a.freed) {
            return a;
        }
        throw badObject(object);
    }
}
