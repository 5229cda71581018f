/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.testing.InProcessBootstrap;
import io.jshmem.core.transport.AmoOp;
import io.jshmem.core.transport.RemoteTransport;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The failure path with real UCX, two PEs in this JVM over tcp: a failure injected at each step of
 * wire-up, a PE that goes away mid-job (with a context and non-blocking operations outstanding),
 * and the job's abort notice before close. After each, no progress thread, no native thread
 * started by UCX, no mapping of the heaps, no TCP listener and no registration survives. Also
 * that UCX's listeners follow JSHMEM_UCX_LISTEN (JSHMEM_UCX_LISTEN=job with the launcher on
 * loopback: only 127.0.0.1).
 */
class UcxTeardownTest {
    private static final long HEAP = 4L << 20;
    private static final String THREAD_PREFIX = "ucxtd-pe";
    private static final AtomicInteger JOBS = new AtomicInteger();

    @BeforeAll
    static void needLibucp() {
        String why = Ucp.unavailableReason();
        assumeTrue(why == null, why);
        Ucp.setenv("UCX_TLS", "tcp,self");
    }

    /** Two PEs' heaps and transports, created by {@code pool}; a failing PE breaks the fence for the other. */
    private static final class Job {
        final String jobId = "ucxtd" + ProcessHandle.current().pid() + "x" + JOBS.incrementAndGet();
        final InProcessBootstrap[] pes = new InProcessBootstrap[2];
        final SymmetricHeap[] heaps = new SymmetricHeap[2];
        final UcxTransport[] transports = new UcxTransport[2];
        final CyclicBarrier barrier = new CyclicBarrier(2);
        final ExecutorService pool = Executors.newFixedThreadPool(2, r -> new Thread(r, THREAD_PREFIX + JOBS.get()));
        final List<Throwable> failures = new ArrayList<>();
        final java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();

        Job(Map<String, String> env) throws Exception {
            Map<String, byte[]> kv = new ConcurrentHashMap<>();
            for (int i = 0; i < 2; i++) {
                pes[i] = new InProcessBootstrap(i, 2, "node0", jobId, kv, barrier, pes, failed::get);
            }
            Config config = Config.fromEnvironment(java.util.Map.of("SHMEM_SYMMETRIC_SIZE", Long.toString(HEAP), "SHMEM_TRANSPORT", "ucx"));
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                int pe = i;
                fs.add(pool.submit(() -> {
                    try {
                        heaps[pe] = SymmetricHeap.create(pes[pe], config);
                        transports[pe] = UcxTransport.create(pes[pe], heaps[pe], env);
                    } catch (RuntimeException e) {
                        // The other PE's fences fail instead of waiting (as the launcher's abort would end them):
                        // the flag for fences to come, resets for one it may be entering now.
                        failed.set(true);
                        for (int k = 0; k < 25; k++) {
                            barrier.reset();
                            Thread.sleep(20);
                        }
                        throw e;
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                try {
                    f.get(120, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    failures.add(e.getCause());
                }
            }
        }

        /** What ShmemRuntime does on a failing path, for every PE: the transport, then the heap. */
        void abandon() throws InterruptedException {
            for (int pe = 0; pe < 2; pe++) {
                if (transports[pe] != null) {
                    transports[pe].abandon();
                    assertTrue(transports[pe].wiring.context().memh().equals(MemorySegment.NULL), "heap still registered");
                    assertTrue(transports[pe].wiring.context().handle().equals(MemorySegment.NULL), "UCP context not cleaned up");
                }
                if (heaps[pe] != null) {
                    heaps[pe].close();
                }
            }
            pool.shutdownNow();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        }
    }

    private record Resources(Set<String> listeners, long mappings, List<String> threads) {
    }

    /** This process's TCP listeners (local address:port), mappings of {@code jobId}'s segments, threads of UCX or of the test's PEs. */
    private static Resources resources(String jobId) throws IOException {
        Set<String> listeners = new HashSet<>();
        for (String[] f : ProcSockets.tcp(ProcSockets.LISTEN)) {
            listeners.add(address(f[1]));
        }
        long mappings = Files.readAllLines(Path.of("/proc/self/maps")).stream().filter(l -> l.contains(jobId)).count();
        List<String> threads = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith("jshmem-ucx")) {
                threads.add("java thread " + t.getName());
            }
        }
        // A native thread started by UCX inherits the name of the thread that created it: a PE's.
        try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String comm = Files.readString(task.resolve("comm")).trim();
                    if (comm.startsWith(THREAD_PREFIX)) {
                        threads.add("native thread " + task.getFileName() + " (" + comm + ")");
                    }
                } catch (IOException e) {
                    // ended meanwhile
                }
            }
        }
        return new Resources(listeners, mappings, threads);
    }

    /** "0100007F:1F90" (little-endian IPv4) -> "127.0.0.1:8080"; IPv6 kept in hex. */
    private static String address(String hex) {
        String[] hp = hex.split(":");
        int port = Integer.parseInt(hp[1], 16);
        if (hp[0].length() == 8) {
            long a = Long.parseLong(hp[0], 16);
            return (a & 0xff) + "." + (a >> 8 & 0xff) + "." + (a >> 16 & 0xff) + "." + (a >> 24 & 0xff) + ":" + port;
        }
        return hp[0] + ":" + port;
    }

    private static void assertNothingLeft(Resources before, String jobId, String after) throws Exception {
        // The progress thread is joined by stop(); UCX's own threads end when their last user goes.
        Resources now = null;
        for (int i = 0; i < 50; i++) {
            now = resources(jobId);
            if (now.threads().isEmpty() && now.listeners().equals(before.listeners()) && now.mappings() == 0) {
                return;
            }
            Thread.sleep(100);
        }
        assertEquals(List.of(), now.threads(), "threads left " + after);
        assertEquals(before.listeners(), now.listeners(), "TCP listeners left " + after);
        assertEquals(0, now.mappings(), "mappings of the heaps left " + after);
    }

    private static Map<String, String> env() {
        // The launcher "on loopback": JSHMEM_UCX_LISTEN=job restricts UCX to lo.
        return Map.of("JSHMEM_UCX_TIMEOUT", "5", "JSHMEM_BOOTSTRAP", "127.0.0.1:9");
    }

    @Test
    void aFailureAtEachStepOfInitLeavesNothing() throws Exception {
        Resources before = resources("none");
        for (WireUp.Step step : WireUp.Step.values()) {
            if ((step == WireUp.Step.CONNECT || step == WireUp.Step.CHECK) && Ucp.abortsOnPeerLossInWireUp()) {
                // The other PE's endpoints are mid-wire-up when this one fails: see InProcessJob.assumeUcxSurvivesPeerLossInWireUp.
                System.out.println("init failure at " + step + ": skipped on UCX " + Ucp.version()
                        + " (it can abort the process when a peer fails during wire-up)");
                continue;
            }
            WireUp.failAt = step;
            Map<String, String> env = new java.util.HashMap<>(env());
            if (step == WireUp.Step.CONNECT || step == WireUp.Step.CHECK) {
                env.put("JSHMEM_UCX_WIREUP", "eager"); // the steps of eager wire-up only
            }
            Job job = new Job(env);
            try {
                assertFalse(job.failures.isEmpty(), "the failure injected at " + step + " was not reported");
                assertTrue(job.failures.stream().anyMatch(t -> t instanceof ShmemException && t.getMessage().contains("PE ")),
                        job.failures.toString());
            } finally {
                WireUp.failAt = null;
                job.abandon();
            }
            assertNothingLeft(before, job.jobId, "after a failure at " + step);
            System.out.println("init failure at " + step + ": " + job.failures.get(0).getMessage() + " -> nothing left");
        }
    }

    @Test
    void aPeGoingAwayMidJobAndThenTheOtherLeaveNothing() throws Exception {
        // The failing-exit path over real jobs is covered by UcxJobTest on every UCX release.
        InProcessJob.assumeUcxSurvivesPeerLossInWireUp("UcxTeardownTest.aPeGoingAwayMidJobAndThenTheOtherLeaveNothing");
        Resources before = resources("none");
        Job job = new Job(env());
        try {
            assertEquals(List.of(), job.failures);
            Resources during = resources(job.jobId);
            // The checks can fail: listeners, mappings and the progress threads exist now.
            assertFalse(during.listeners().equals(before.listeners()), "no UCX listener seen during the job");
            assertTrue(during.mappings() > 0);
            assertTrue(during.threads().stream().anyMatch(t -> t.contains("jshmem-ucx-progress")), during.threads().toString());
            // JSHMEM_UCX_LISTEN=job with the launcher on loopback: UCX listens on 127.0.0.1 only.
            Set<String> added = new HashSet<>(during.listeners());
            added.removeAll(before.listeners());
            assertTrue(added.stream().allMatch(a -> a.startsWith("127.0.0.1:")), added.toString());
            System.out.println("UCX listeners during the job: " + added + "; PE 0's endpoint to PE 1:\n"
                    + job.transports[0].main.epInfo(1));

            UcxTransport t0 = job.transports[0];
            RemoteTransport ctx = t0.openContext(Shmem.CTX_PRIVATE);
            long user = SymmetricHeap.INTERNAL_SIZE;
            ctx.atomic64(1, user, AmoOp.ADD, 1, 0);
            // Completed, so the context's endpoint is wired up before the put below: UCX 1.13
            // (Debian 12) asserts (stubs.c:102, ucp_wireup_ep_pending_queue_purge) when an endpoint
            // fails while requests still wait in its wire-up queue, and aborts the whole JVM.
            ctx.quiet();
            try (Arena a = Arena.ofConfined()) {
                MemorySegment buf = a.allocate(1 << 20);
                ctx.putNbi(1, user + 4096, buf); // outstanding when PE 1 goes away
                job.transports[1].abandon(); // PE 1 fails and exits (non-collective)
                job.heaps[1].close();
                job.heaps[1] = null;
                assertThrows(ShmemException.class, () -> {
                    ctx.quiet();
                    for (int i = 0; i < 100_000; i++) {
                        t0.atomic64(1, user, AmoOp.FETCH_ADD, 1, 0);
                    }
                });
            }
        } finally {
            job.abandon(); // PE 0 now fails too (the launcher would end it)
        }
        assertNothingLeft(before, job.jobId, "after both PEs abandoned");
    }

    @Test
    void closeAfterTheAbortNoticeDoesNotWaitForPeers() throws Exception {
        Resources before = resources("none");
        Job job = new Job(env());
        try {
            assertEquals(List.of(), job.failures);
            job.transports[0].openContext(0).putValue(1, SymmetricHeap.INTERNAL_SIZE, 7, 8);
            job.pes[0].abortNotice("PE 1 called globalExit(3)");
            long start = System.nanoTime();
            job.transports[0].close(); // collective normally; after an abort it must not fence
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(seconds < 5, "close after abort took " + seconds + " s");
            assertTrue(job.transports[0].wiring.context().memh().equals(MemorySegment.NULL));
            assertThrows(ShmemException.class, () -> job.transports[0].getValue(1, 0, 8));
        } finally {
            job.abandon();
        }
        assertNothingLeft(before, job.jobId, "after abort and close");
    }

    @Test
    void listenersOnEveryInterfaceWithJshmemUcxListenAll() throws Exception {
        Resources before = resources("none");
        Map<String, String> env = new HashMap<>(env());
        env.put("JSHMEM_UCX_LISTEN", "all");
        Job job = new Job(env);
        try {
            assertEquals(List.of(), job.failures);
            Set<String> added = new HashSet<>(resources(job.jobId).listeners());
            added.removeAll(before.listeners());
            System.out.println("UCX listeners with JSHMEM_UCX_LISTEN=all: " + added);
            assertNotNull(job.transports[0].name());
            assertTrue(job.transports[0].wiring.context().netDevices == null);
            assertTrue(added.stream().anyMatch(a -> !a.startsWith("127.0.0.1:")) || !hasNonLoopbackInterface(), added.toString());
        } finally {
            job.abandon();
        }
        assertNothingLeft(before, job.jobId, "after JSHMEM_UCX_LISTEN=all");
    }

    private static boolean hasNonLoopbackInterface() throws IOException {
        return java.net.NetworkInterface.networkInterfaces()
                .anyMatch(n -> {
                    try {
                        return n.isUp() && !n.isLoopback();
                    } catch (java.net.SocketException e) {
                        return false;
                    }
                });
    }
}
