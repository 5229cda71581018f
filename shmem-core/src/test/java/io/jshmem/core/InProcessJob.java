package io.jshmem.core;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ThreadLevel;
import io.jshmem.core.bootstrap.Bootstrap;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * N PEs of real {@link ShmemRuntime}s inside one JVM, one thread each, spread over simulated
 * nodes: PEs of one node map each other's (real /dev/shm) heaps; PEs of different nodes reach each
 * other through a {@link LoopbackTransport}. So teams, collectives, locks and atomics run over
 * {@link Comm} exactly as in a job of several nodes, with no process or network in the way.
 */
final class InProcessJob implements AutoCloseable {
    private final Pe[] pes;
    final ShmemRuntime[] runtimes;
    final LoopbackTransport[] transports;
    private final ExecutorService pool;

    /**
     * @param nodes     the node of each PE, e.g. {0, 0, 1, 1}: two nodes of two PEs
     * @param coherent  whether the loopback says its atomics are coherent with CPU atomics
     * @param atomics   SHMEM_ATOMICS: auto, cpu or transport
     * @param posted    whether the loopback delivers puts and non-fetching atomics later, reordered between fences
     */
    InProcessJob(int[] nodes, boolean coherent, String atomics, boolean posted) throws Exception {
        this(nodes, coherent, atomics, posted, "auto");
    }

    /** As above, with JSHMEM_COLL_ALGORITHM {@code collAlgorithm}. */
    InProcessJob(int[] nodes, boolean coherent, String atomics, boolean posted, String collAlgorithm) throws Exception {
        int n = nodes.length;
        String jobId = "coretest" + ProcessHandle.current().pid() + "x" + System.nanoTime();
        Map<String, byte[]> kv = new ConcurrentHashMap<>();
        CyclicBarrier barrier = new CyclicBarrier(n);
        pes = new Pe[n];
        runtimes = new ShmemRuntime[n];
        transports = new LoopbackTransport[n];
        pool = Executors.newFixedThreadPool(n);
        Config config = new Config(8L << 20, false, false, false, "/dev/shm", "auto", -1, Config.DEFAULT_YIELD_NANOS,
                "auto", collAlgorithm, atomics);
        MemorySegment[] heaps = new MemorySegment[n];
        for (int i = 0; i < n; i++) {
            pes[i] = new Pe(i, n, "node" + nodes[i], jobId, kv, barrier, pes);
        }
        all(pe -> {
            runtimes[pe] = ShmemRuntime.create(pes[pe], config, ThreadLevel.MULTIPLE, heap -> {
                heaps[pe] = heap.self();
                boolean remote = false;
                for (MemorySegment s : heap.peers()) {
                    remote |= s == null;
                }
                if (!remote && !atomics.equals("transport")) {
                    pes[pe].fence();
                    return null;
                }
                transports[pe] = new LoopbackTransport(heaps, coherent, posted);
                pes[pe].fence(); // like a real wire-up, collective: every PE's heap is known before use
                return transports[pe];
            });
            return null;
        });
    }

    int size() {
        return pes.length;
    }

    Shmem shmem(int pe) {
        return runtimes[pe];
    }

    /** The reasons the job was aborted with, in order. */
    List<String> aborts() {
        return pes[0].aborts;
    }

    /** Runs {@code body} for every PE at once, each on its own thread; rethrows the first failure. */
    <T> List<T> all(IntFunction<T> body) throws Exception {
        List<Future<T>> fs = new ArrayList<>();
        for (int pe = 0; pe < pes.length; pe++) {
            int p = pe;
            fs.add(pool.submit(() -> body.apply(p)));
        }
        List<T> out = new ArrayList<>();
        Exception first = null;
        for (Future<T> f : fs) {
            try {
                out.add(f.get(120, TimeUnit.SECONDS));
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause() instanceof Exception x ? x : e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    @Override
    public void close() throws Exception {
        if (!aborts().isEmpty()) {
            // An aborted job cannot finalize collectively: tear down like a failing PE does.
            pool.shutdownNow();
            pool.awaitTermination(30, TimeUnit.SECONDS);
            for (ShmemRuntime rt : runtimes) {
                if (rt != null) {
                    rt.st.failed = true;
                    rt.st.heap.close();
                }
            }
            return;
        }
        try {
            all(pe -> {
                if (runtimes[pe] != null) {
                    runtimes[pe].close();
                }
                return null;
            });
        } finally {
            pool.shutdownNow();
        }
    }

    /** The bootstrap of one in-process PE: a shared map, a barrier as fence, abort notices to every PE. */
    static final class Pe implements Bootstrap {
        private final int rank;
        private final int size;
        private final String node;
        private final String jobId;
        private final Map<String, byte[]> kv;
        private final CyclicBarrier barrier;
        private final Pe[] all;
        private final List<Consumer<String>> abortHandlers = new ArrayList<>();
        final List<String> aborts = new java.util.concurrent.CopyOnWriteArrayList<>();

        Pe(int rank, int size, String node, String jobId, Map<String, byte[]> kv, CyclicBarrier barrier, Pe[] all) {
            this.rank = rank;
            this.size = size;
            this.node = node;
            this.jobId = jobId;
            this.kv = kv;
            this.barrier = barrier;
            this.all = all;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public String nodeId() {
            return node;
        }

        @Override
        public String jobId() {
            return jobId;
        }

        @Override
        public int generation() {
            return 0;
        }

        @Override
        public void put(String key, byte[] value) {
            kv.put(key, value.clone());
        }

        @Override
        public void fence() {
            try {
                barrier.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
                throw new ShmemException("PE " + rank + ": in-process fence failed: " + e);
            }
        }

        @Override
        public byte[] get(String key) {
            byte[] v = kv.get(key);
            return v == null ? null : v.clone();
        }

        @Override
        public void abort(int status, String message) {
            all[0].aborts.add(message);
            for (Pe p : all) {
                List<Consumer<String>> hs;
                synchronized (p.abortHandlers) {
                    hs = List.copyOf(p.abortHandlers);
                }
                hs.forEach(h -> h.accept(message));
            }
        }

        @Override
        public void finalized() {
        }

        @Override
        public void onAbort(Consumer<String> handler) {
            synchronized (abortHandlers) {
                abortHandlers.add(handler);
            }
        }

        @Override
        public String describe() {
            return "in-process test bootstrap";
        }

        @Override
        public void close() {
        }
    }
}
