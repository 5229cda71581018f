package io.jshmem.ucx;

import io.jshmem.ShmemException;
import io.jshmem.core.Config;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.SymmetricHeap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * N PEs inside one JVM, for testing {@link UcxTransport} directly: each PE has its own symmetric
 * heap (a real /dev/shm segment), its own UCX context and worker, and a bootstrap that exchanges
 * keys through a shared map with a {@link CyclicBarrier} as fence. The peers are not mapped
 * (SHMEM_TRANSPORT=ucx), so every access between them goes through UCX for real.
 */
final class InProcessJob implements AutoCloseable {
    final SymmetricHeap[] heaps;
    final UcxTransport[] transports;
    final Pe[] pes;
    private final ExecutorService pool;

    static final class Pe implements Bootstrap {
        private final int rank;
        private final int size;
        private final String jobId;
        private final Map<String, byte[]> kv;
        private final CyclicBarrier barrier;
        private final List<Consumer<String>> abortHandlers = new ArrayList<>();
        /** Set when another PE failed: fences fail at once instead of waiting for it. */
        private final java.util.function.BooleanSupplier peerFailed;

        Pe(int rank, int size, String jobId, Map<String, byte[]> kv, CyclicBarrier barrier) {
            this(rank, size, jobId, kv, barrier, () -> false);
        }

        Pe(int rank, int size, String jobId, Map<String, byte[]> kv, CyclicBarrier barrier,
           java.util.function.BooleanSupplier peerFailed) {
            this.peerFailed = peerFailed;
            this.rank = rank;
            this.size = size;
            this.jobId = jobId;
            this.kv = kv;
            this.barrier = barrier;
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
            return "node0";
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
            if (peerFailed.getAsBoolean()) {
                throw new ShmemException("PE " + rank + ": in-process fence failed: a PE failed");
            }
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
            abortNotice(message);
        }

        /** What the launcher's abort notice does: runs the handlers. */
        void abortNotice(String reason) {
            List<Consumer<String>> hs;
            synchronized (abortHandlers) {
                hs = List.copyOf(abortHandlers);
            }
            hs.forEach(h -> h.accept(reason));
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

    InProcessJob(int n, long heapBytes, Map<String, String> env) throws Exception {
        String jobId = "ucxtest" + ProcessHandle.current().pid() + "x" + System.nanoTime();
        Map<String, byte[]> kv = new ConcurrentHashMap<>();
        CyclicBarrier barrier = new CyclicBarrier(n);
        pes = new Pe[n];
        heaps = new SymmetricHeap[n];
        transports = new UcxTransport[n];
        pool = Executors.newFixedThreadPool(n);
        Config config = new Config(heapBytes, false, false, false, "/dev/shm", "ucx");
        for (int i = 0; i < n; i++) {
            pes[i] = new Pe(i, n, jobId, kv, barrier);
        }
        all(pe -> {
            heaps[pe] = SymmetricHeap.create(pes[pe], config);
            transports[pe] = UcxTransport.create(pes[pe], heaps[pe], env);
            return null;
        });
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
            } catch (java.util.concurrent.ExecutionException e) {
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

    /** Non-collective teardown of every PE (after a failure), then the heaps. */
    void abandon() {
        try {
            for (int pe = 0; pe < pes.length; pe++) {
                if (transports[pe] != null) {
                    transports[pe].abandon();
                }
                if (heaps[pe] != null) {
                    heaps[pe].close();
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            all(pe -> {
                if (transports[pe] != null) {
                    transports[pe].close();
                }
                if (heaps[pe] != null) {
                    heaps[pe].close();
                }
                return null;
            });
        } finally {
            pool.shutdownNow();
        }
    }
}
