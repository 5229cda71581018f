package io.jshmem.core.heap;

import io.jshmem.ShmemException;
import io.jshmem.core.Config;
import io.jshmem.core.bootstrap.Bootstrap;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

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
     * Offset of the wait-control line (sleeper count and futex doorbell, see the core's Waiter):
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
    private final MemorySegment[] peers;
    private final String[] nodeOf;
    private final HeapAllocator allocator;
    private final long userSize;
    /** The shared-memory directory, for fault messages. */
    private final Path dir;
    private long internalNext = WAIT_CONTROL_BYTES;
    private volatile boolean closed;

    private SymmetricHeap(int myPe, int generation, Arena arena, MemorySegment self, MemorySegment[] peers, String[] nodeOf,
                          long userSize, Path dir) {
        this.myPe = myPe;
        this.generation = generation;
        this.dir = dir;
        this.arena = arena;
        this.self = self;
        this.peers = peers;
        this.nodeOf = nodeOf;
        this.userSize = userSize;
        this.allocator = new HeapAllocator(INTERNAL_SIZE, userSize);
    }

    /**
     * Collective: creates this PE's segment, exchanges segment names through the bootstrap, maps
     * the segments of the PEs on this node, and unlinks this PE's file once every PE mapped it.
     */
    public static SymmetricHeap create(Bootstrap bootstrap, Config config) {
        int me = bootstrap.rank();
        int n = bootstrap.size();
        long userSize = (config.symmetricSize() + 4095) & ~4095L;
        long total = INTERNAL_SIZE + userSize;
        Path path = Path.of(config.shmDir(), SharedSegments.fileName(bootstrap.jobId(), bootstrap.generation(), me));
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
        // their own handlers run, so the first to learn of it removes every PE's (names are
        // deterministic; the files of PEs on other nodes are not here).
        // (Names computed now: the handler may run while this thread holds the bootstrap in a fence.)
        Path[] names = new Path[n];
        for (int pe = 0; pe < n; pe++) {
            names[pe] = path.resolveSibling(SharedSegments.fileName(bootstrap.jobId(), bootstrap.generation(), pe));
        }
        bootstrap.onAbort(reason -> {
            for (Path p : names) {
                SharedSegments.unlinkQuietly(p);
            }
        });
        try {
            bootstrap.put("shm." + me, (bootstrap.nodeId() + "\n" + path + "\n" + total).getBytes(StandardCharsets.UTF_8));
            bootstrap.fence();
            MemorySegment[] peers = new MemorySegment[n];
            String[] nodeOf = new String[n];
            String[][] published = new String[n][];
            int localPes = 0;
            for (int pe = 0; pe < n; pe++) {
                byte[] v = bootstrap.get("shm." + pe);
                if (v == null) {
                    throw new ShmemException("PE " + me + ": PE " + pe + " published no symmetric heap");
                }
                published[pe] = new String(v, StandardCharsets.UTF_8).split("\n");
                if (published[pe][0].equals(bootstrap.nodeId())) {
                    localPes++;
                }
            }
            // Before any page is touched, on every PE of the node alike (see ShmCapacity); every PE
            // learns the verdicts at the next fence, so all fail together.
            String capacity = ShmCapacity.problem(me, path.getParent(), localPes, total, userSize);
            bootstrap.put("shmcap." + me, (capacity == null ? "" : capacity).getBytes(StandardCharsets.UTF_8));
            for (int pe = 0; pe < n; pe++) {
                String[] parts = published[pe];
                nodeOf[pe] = parts[0];
                if (pe == me) {
                    peers[pe] = self;
                } else if (config.directOnNode() && parts[0].equals(bootstrap.nodeId())) {
                    long size = Long.parseLong(parts[2]);
                    if (size != total) {
                        throw new ShmemException("PE " + me + ": PE " + pe + " has a symmetric heap of " + size
                                + " bytes, this PE " + total + ": every PE must use the same SHMEM_SYMMETRIC_SIZE");
                    }
                    peers[pe] = SharedSegments.open(Path.of(parts[1]), total, arena);
                }
            }
            bootstrap.fence();
            ShmCapacity.failTogether(bootstrap, capacity);
            if (config.shmPreallocate()) {
                // After the fence: every PE of the node has checked the space before any took it.
                ShmCapacity.preallocate(me, path, localPes, total, userSize);
            }
            latestGeneration = Math.max(latestGeneration, bootstrap.generation());
            return new SymmetricHeap(me, bootstrap.generation(), arena, self, peers, nodeOf, userSize, path.getParent());
        } catch (RuntimeException e) {
            arena.close();
            throw e;
        } finally {
            // Everyone has mapped it (or init failed): the name is no longer needed.
            SharedSegments.unlinkQuietly(path);
        }
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
        int n = 0;
        for (String node : nodeOf) {
            n += node.equals(nodeOf[myPe]) ? 1 : 0;
        }
        return n;
    }

    /** Node id of each PE, as the bootstrap reported it. */
    public String nodeOf(int pe) {
        return nodeOf[pe];
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

    /** Unmaps every segment. Objects become unusable. */
    public void close() {
        if (!closed) {
            closed = true;
            arena.close();
        }
    }
}
