/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.heap;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.bootstrap.Bootstrap;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * This PE's symmetric heap and its mappings of the heaps of the PEs on the same node.
 *
 * <p>Layout of every PE's segment: an internal region of {@link #INTERNAL_SIZE} bytes (barrier
 * flags, collective scratch, debug slots: allocated once at init by a bump pointer, identically on
 * every PE), then the user heap of SHMEM_SYMMETRIC_SIZE bytes managed by {@link HeapAllocator}.
 */
public final class SymmetricHeap {
    /** Bytes reserved for the runtime's own symmetric data at the start of each segment. */
    public static final long INTERNAL_SIZE = 16L << 20;
    /**
     * Offset of the wait-control line (sleeper count, futex doorbell and its armed flag, see the core's Waiter):
     * the first line of the internal region, at the same offset on every PE, zero at creation.
     */
    public static final long WAIT_CONTROL = 0;
    private static final long WAIT_CONTROL_BYTES = 128;

    /** The latest generation (initialization of jshmem in this process) whose heap was created. */
    private static volatile int latestGeneration;

    private final int myPe;
    /** Which initialization of jshmem in this process this heap belongs to (see {@link Bootstrap#generation()}). */
    private final int generation;
    private final Arena arena;
    private final MemorySegment self;
    /** Mapped segments by PE, null for PEs not mapped: one reference per PE, no per-peer object. */
    private final MemorySegment[] peers;
    /** Every PE's node index (one int per PE, from the launcher's mapping). */
    private final int[] nodeOf;
    /** The PEs on this node, ascending. */
    private final int[] localPes;
    private final HeapAllocator allocator;
    private final long userSize;
    /** The shared-memory directory, for fault messages. */
    private final Path dir;
    private long internalNext = WAIT_CONTROL_BYTES;
    private volatile boolean closed;
    /**
     * The open scopes of segments handed to the program (an object's local() and ptr() views):
     * closed before the mapping is, so none outlives it. Guarded by this heap's lock.
     */
    private final Set<Arena> viewScopes = new HashSet<>();

    private SymmetricHeap(int myPe, int generation, Arena arena, MemorySegment self, MemorySegment[] peers, int[] nodeOf,
                          int[] localPes, long userSize, Path dir) {
        this.myPe = myPe;
        this.generation = generation;
        this.dir = dir;
        this.arena = arena;
        this.self = self;
        this.peers = peers;
        this.nodeOf = nodeOf;
        this.localPes = localPes;
        this.userSize = userSize;
        this.allocator = new HeapAllocator(INTERNAL_SIZE, userSize);
    }

    /**
     * Collective: creates this PE's segment, publishes its name through the bootstrap, maps the
     * segments of the PEs on this node, and unlinks this PE's file once every PE mapped it.
     *
     * <p>Scale: which PEs share this node comes from the launcher's mapping ({@link
     * Bootstrap#nodeIndexes()}, one int per PE), so a PE reads only its node's records (the other
     * PEs' segment names) and the previous PE's (to compare the settings every PE must share, {@link
     * SettingsAgreement}): O(PEs on the node) lookups, whatever N. The capacity verdict is agreed on
     * in a flagged fence ({@link ShmCapacity#failTogether}), O(1) per PE. Only when the launcher gives
     * no mapping does a PE read every PE's record to find its node's (O(N), the old way).
     */
    public static SymmetricHeap create(Bootstrap bootstrap, Config config) {
        int me = bootstrap.rank();
        long userSize = (config.symmetricSize() + 4095) & ~4095L;
        long total = INTERNAL_SIZE + userSize;
        String jobId = bootstrap.jobId();
        int generation = bootstrap.generation();
        Path path = Path.of(config.shmDir(), SharedSegments.fileName(jobId, generation, me));
        Arena arena = Arena.ofShared();
        MemorySegment self;
        try {
            self = SharedSegments.create(path, total, arena);
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        }
        // A job ended while this PE waits in the fences below leaves no segment behind: under srun
        // nothing else removes the files, and the launcher may kill the PEs of this node before
        // their own handlers run, so the first to learn of it removes every local PE's (names are
        // deterministic; the files of PEs on other nodes are not here). The handler calls nothing
        // on the bootstrap: it may run while this thread holds the bootstrap in a fence.
        AtomicReference<int[]> onThisNode = new AtomicReference<>(new int[] {me});
        bootstrap.onAbort(reason -> {
            for (int pe : onThisNode.get()) {
                SharedSegments.unlinkQuietly(path.resolveSibling(SharedSegments.fileName(jobId, generation, pe)));
            }
        });
        try {
            String settings = SettingsAgreement.values(config);
            bootstrap.put("shm." + me, (bootstrap.nodeId() + "\n" + path + "\n" + total + "\n" + settings)
                    .getBytes(StandardCharsets.UTF_8));
            int[] nodeOf = bootstrap.nodeIndexes();
            if (nodeOf == null) {
                bootstrap.fence();
                nodeOf = nodesFromRecords(bootstrap);
            } else if (nodeOf.length != bootstrap.size()) {
                throw new ShmemException("PE " + me + ": the launcher's process mapping places " + nodeOf.length
                        + " PEs, the job has " + bootstrap.size());
            }
            int[] local = pesOn(nodeOf, nodeOf[me]);
            onThisNode.set(local);
            // Before any page is touched, on every PE of the node alike (see ShmCapacity); every PE
            // learns at the next fence whether any node is short, so all fail together.
            String capacity = ShmCapacity.problem(me, path.getParent(), local.length, total, userSize);
            if (capacity != null) {
                bootstrap.put("shmcap." + me, capacity.getBytes(StandardCharsets.UTF_8));
            }
            ShmCapacity.failTogether(bootstrap, capacity, nodeOf); // a fence: the node's records are visible after it
            MemorySegment[] peers = new MemorySegment[bootstrap.size()];
            peers[me] = self;
            // Settings every PE must share: compared with each node-mate's record (read anyway to map
            // its segment) and with the previous PE's, a chain through every PE (SettingsAgreement).
            boolean mapsMates = config.directOnNode();
            String problem = null;
            String[][] mates = new String[local.length][];
            for (int i = 0; i < local.length && mapsMates; i++) {
                if (local[i] != me) {
                    mates[i] = record(bootstrap, me, local[i]);
                    if (problem == null) {
                        problem = disagreement(me, settings, total, local[i], mates[i]);
                    }
                }
            }
            if (problem == null && me > 0 && !(mapsMates && nodeOf[me - 1] == nodeOf[me])) {
                problem = disagreement(me, settings, total, me - 1, record(bootstrap, me, me - 1));
            }
            if (problem != null) {
                throw SettingsAgreement.abortJob(bootstrap, problem);
            }
            for (int i = 0; i < local.length; i++) {
                if (mates[i] != null) {
                    peers[local[i]] = SharedSegments.open(Path.of(mates[i][1]), total, arena);
                }
            }
            bootstrap.fence();
            if (config.shmPreallocate()) {
                // After the fence: every PE of the node has checked the space before any took it.
                ShmCapacity.preallocate(me, path, local.length, total, userSize);
            }
            latestGeneration = Math.max(latestGeneration, generation);
            return new SymmetricHeap(me, generation, arena, self, peers, nodeOf, local, userSize, path.getParent());
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        } finally {
            // Everyone has mapped it (or init failed): the name is no longer needed.
            SharedSegments.unlinkQuietly(path);
        }
    }

    /** PE {@code pe}'s published record: node id, segment path, segment size, settings ({@link SettingsAgreement}). */
    private static String[] record(Bootstrap bootstrap, int me, int pe) {
        byte[] v = bootstrap.get("shm." + pe);
        if (v == null) {
            throw new ShmemException("PE " + me + ": PE " + pe + " published no symmetric heap");
        }
        return new String(v, StandardCharsets.UTF_8).split("\n");
    }

    /** What makes PE {@code pe}'s record (its settings, then its segment size) unusable here, or null. */
    private static String disagreement(int me, String settings, long total, int pe, String[] record) {
        String differ = SettingsAgreement.difference(me, settings, pe, record.length > 3 ? record[3] : null);
        if (differ == null && Long.parseLong(record[2]) != total) {
            differ = "PE " + me + ": PE " + pe + " has a symmetric heap of " + record[2] + " bytes, this PE " + total
                    + ": every PE must use the same SHMEM_SYMMETRIC_SIZE";
        }
        return differ;
    }

    /**
     * Every PE's node index from every PE's published node id: O(N) lookups, only for a bootstrap
     * whose launcher gives no process mapping (PMI-2 without PMI_process_mapping, hand-made launches).
     */
    private static int[] nodesFromRecords(Bootstrap bootstrap) {
        int n = bootstrap.size();
        int[] nodeOf = new int[n];
        Map<String, Integer> index = new HashMap<>();
        for (int pe = 0; pe < n; pe++) {
            byte[] v = bootstrap.get("shm." + pe);
            if (v == null) {
                throw new ShmemException("PE " + bootstrap.rank() + ": PE " + pe + " published no symmetric heap");
            }
            String node = new String(v, StandardCharsets.UTF_8).split("\n")[0];
            nodeOf[pe] = index.computeIfAbsent(node, k -> index.size());
        }
        return nodeOf;
    }

    /** The PEs whose node index is {@code node}, ascending. */
    static int[] pesOn(int[] nodeOf, int node) {
        int count = 0;
        for (int n : nodeOf) {
            count += n == node ? 1 : 0;
        }
        int[] pes = new int[count];
        for (int pe = 0, i = 0; pe < nodeOf.length; pe++) {
            if (nodeOf[pe] == node) {
                pes[i++] = pe;
            }
        }
        return pes;
    }

    /** Allocates {@code bytes} of the internal region, 64-byte aligned; deterministic across PEs. */
    public synchronized long allocInternal(long bytes) {
        long at = internalNext;
        long next = at + ((bytes + 63) & ~63L);
        if (next > INTERNAL_SIZE) {
            throw new ShmemException("PE " + myPe + ": internal symmetric region exhausted (" + INTERNAL_SIZE + " bytes)");
        }
        internalNext = next;
        return at;
    }

    public int myPe() {
        return myPe;
    }

    /** This PE's whole segment. */
    public MemorySegment self() {
        return self;
    }

    /** Mapped segments indexed by PE; null for PEs on other nodes. The array is the runtime's to read. */
    public MemorySegment[] peers() {
        return peers;
    }

    /** How many PEs of the job run on this PE's node (this one included), mapped or not. */
    public int pesOnThisNode() {
        return localPes.length;
    }

    /** The PEs on this PE's node (this one included), ascending; the array is the runtime's to read. */
    public int[] localPes() {
        return localPes;
    }

    /** Node index of PE {@code pe}: equal for PEs on the same node. */
    public int nodeIndex(int pe) {
        return nodeOf[pe];
    }

    /** Name of PE {@code pe}'s node for messages and grouping ("n" and its index; equal for PEs on one node). */
    public String nodeOf(int pe) {
        return "n" + nodeOf[pe];
    }

    public HeapAllocator allocator() {
        return allocator;
    }

    public long userSize() {
        return userSize;
    }

    public boolean closed() {
        return closed;
    }

    /** Which initialization of jshmem in this process this heap belongs to: 0 for the first. */
    public int generation() {
        return generation;
    }

    /**
     * After this heap's finalize: how to say that jshmem has been initialized again since (1.6
     * re-initialization), so that what belonged to this heap's initialization is stale; else "".
     */
    public String reinitializedSince() {
        int latest = latestGeneration;
        return latest > generation ? "; it belongs to initialization " + (generation + 1) + " of jshmem in this process,"
                + " and jshmem has been initialized again since (initialization " + (latest + 1) + "): symmetric objects,"
                + " teams and contexts do not carry over to a later initialization" : "";
    }

    /** The exception for using a freed object, or any object after finalize. */
    public ShmemException deadObject(Object object) {
        return new ShmemException("PE " + myPe + ": " + object + (closed
                ? " used after shmem finalize (close)" + reinitializedSince() : " was freed"));
    }

    /**
     * Whether {@code error} is how the JVM reports a SIGBUS on a mapped file: on a heap segment, its
     * directory had no page left to back the address (JSHMEM_SHM_PREALLOCATE takes them at init).
     */
    public static boolean isFault(Throwable error) {
        return error instanceof InternalError && String.valueOf(error.getMessage()).contains("unsafe memory access");
    }

    /** What a {@linkplain #isFault fault} on the heap means and the cure. */
    public String faultExplanation(Throwable fault) {
        return "a memory fault on the symmetric heap (" + fault.getMessage() + "): the shared-memory directory " + dir
                + " ran out of space after init, which something else on the machine took (set JSHMEM_SHM_PREALLOCATE=1 to"
                + " allocate the heap's pages at init, or give the directory more room, e.g. docker run --shm-size=...),"
                + " or a heap segment was truncated by another process";
    }

    /**
     * For the catch block around a direct access to PE {@code pe}'s mapped heap in {@code routine}:
     * the exception to throw there instead of a fault's InternalError; other errors are rethrown.
     * (A catch block costs nothing until something is thrown.)
     */
    public ShmemException fault(InternalError error, String routine, int pe) {
        if (!isFault(error)) {
            throw error;
        }
        return new ShmemException("PE " + myPe + ": " + routine + (pe == myPe ? "" : " (on PE " + pe + "'s heap)") + ": "
                + faultExplanation(error), error);
    }

    /** A scope for the segments of {@code object} handed to the program; see {@link #closeViewScope}. */
    public synchronized Arena openViewScope(Object object) {
        if (closed) {
            throw deadObject(object);
        }
        Arena scope = Arena.ofShared();
        viewScopes.add(scope);
        return scope;
    }

    /**
     * Closes a scope of {@link #openViewScope}: its segments fail from now on with the JDK's
     * IllegalStateException. A native call on another thread that holds one of them is waited for
     * (it may not run on into memory the allocator hands out again), for at most {@link
     * #VIEW_CLOSE_NANOS}; after that this PE fails: the block cannot be given back safely, and
     * keeping it would make this PE's heap differ from its peers'.
     */
    public void closeViewScope(Arena scope, Object object) {
        synchronized (this) {
            if (!viewScopes.remove(scope)) {
                return;
            }
        }
        long deadline = System.nanoTime() + VIEW_CLOSE_NANOS;
        for (int tries = 0; ; tries++) {
            try {
                scope.close();
                return;
            } catch (IllegalStateException inUse) {
                if (System.nanoTime() - deadline > 0) {
                    throw new ShmemException("PE " + myPe + ": " + object + " was freed while a native call on another thread"
                            + " still used a segment of it (from local() or ptr()) after " + VIEW_CLOSE_NANOS / 1_000_000_000
                            + " s: " + inUse.getMessage(), inUse);
                }
                if (tries < 100) {
                    Thread.onSpinWait();
                } else {
                    LockSupport.parkNanos(100_000);
                }
            }
        }
    }

    /** How long {@link #closeViewScope} waits for a native call that holds a segment of the object. */
    private static final long VIEW_CLOSE_NANOS = 10_000_000_000L;

    /** Unmaps every segment. Objects become unusable. */
    public void close() {
        Arena[] views;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            views = viewScopes.toArray(Arena[]::new);
            viewScopes.clear();
        }
        boolean unmap = true;
        for (Arena v : views) {
            try {
                v.close();
            } catch (IllegalStateException heldByNativeCall) {
                unmap = false; // the mapping stays until the process ends (its file is unlinked)
            }
        }
        if (unmap) {
            arena.close();
        }
    }
}
