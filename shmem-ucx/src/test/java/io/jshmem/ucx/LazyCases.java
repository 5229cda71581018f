/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemException;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.ThreadLevel;
import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The program of the wire-up jobs ({@link LazyWireUpJobTest}), run under bin/oshrun with
 * SHMEM_TRANSPORT=ucx and UCX_TLS=tcp,self. It looks at its own PE's endpoints through
 * {@link WireUp#last}. Argument:
 * <ul>
 *   <li>{@code lazy} / {@code eager} (the JSHMEM_UCX_WIREUP the job runs with): the endpoints at
 *       init; 8 threads (THREAD_MULTIPLE) making their first operations to the right neighbour at
 *       once; first use from a created context, shared and PRIVATE; then finalize, init again and
 *       a ring put. Each PE prints "PE k: N checks passed" or its failures.</li>
 *   <li>{@code tcp}: a put to the right neighbour, a barrier, then each PE prints how many
 *       established TCP connections it holds ("PE k: tcp N").</li>
 *   <li>{@code dead}: the last PE kills itself (SIGKILL) right after init; the others then make
 *       their first operation to it and print what it threw.</li>
 * </ul>
 */
public final class LazyCases {
    private static final int THREADS = 8;
    private static final int ADDS = 200;

    private int me;
    private Checks results;

    public static void main(String[] args) throws Exception {
        String what = args[0];
        switch (what) {
            case "lazy", "eager" -> new LazyCases().wireUp(what.equals("eager"));
            case "tcp" -> tcp();
            case "dead" -> dead();
            default -> throw new IllegalArgumentException("unknown case " + what);
        }
    }

    private void check(boolean ok, String what) {
        results.check(ok, what);
    }

    private void wireUp(boolean eager) throws Exception {
        try (Shmem shmem = Shmem.initThread(ThreadLevel.MULTIPLE)) {
            me = shmem.myPe();
            results = new Checks(me);
            int n = shmem.nPes();
            UcxTransport t = WireUp.last;
            int[] atInit = t.connectedPes();
            if (eager) {
                check(atInit.length == n - 1 && Arrays.stream(atInit).noneMatch(pe -> pe == me),
                        "eager: endpoints to every other PE at init, got " + Arrays.toString(atInit));
            } else {
                // Init ends with a barrier, which connects to the peers it signals (with 4 PEs
                // over UCX: everyone to PE 0, PE 0 to everyone), and to no one else.
                check(me == 0 || atInit.length < n - 1, "lazy: endpoints at init to " + Arrays.toString(atInit));
                check(t.job.peersFetched() == atInit.length, "lazy: data fetched for " + t.job.peersFetched()
                        + " peers, endpoints to " + Arrays.toString(atInit));
            }
            // The first PE this one has not used yet (none for PE 0 with 4 PEs, and with eager wire-up).
            int target = firstUnused(atInit, n);
            boolean fresh = Arrays.stream(atInit).noneMatch(x -> x == target);
            int createdBefore = t.main.endpointsCreated();
            SymLongArray counter = shmem.calloc(SymType.LONG, 4 + n);

            // First use from several threads at once, all to the same PE.
            CountDownLatch go = new CountDownLatch(1);
            AtomicReference<Throwable> error = new AtomicReference<>();
            Thread[] threads = new Thread[THREADS];
            for (int i = 0; i < THREADS; i++) {
                threads[i] = Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                        for (int k = 0; k < ADDS; k++) {
                            shmem.atomicAdd(counter, 4 + me, 1, target);
                        }
                        shmem.atomicFetchAdd(counter, 4 + me, 1, target);
                    } catch (Throwable e) {
                        error.compareAndSet(null, e);
                    }
                });
            }
            go.countDown();
            for (Thread th : threads) {
                th.join();
            }
            check(error.get() == null, "threads' first use: " + error.get());
            int made = t.main.endpointsCreated() - createdBefore;
            check(made == (fresh ? 1 : 0), "endpoints made by " + THREADS + " threads' first use of PE " + target + ": " + made);
            check(Arrays.stream(t.connectedPes()).filter(pe -> pe == target).count() == 1, "PE " + target + " connected once after use");
            shmem.barrierAll();
            long got = shmem.g(counter, 4 + me, target);
            check(got == (long) THREADS * (ADDS + 1), "adds of " + THREADS + " threads on PE " + target + ": " + got);
            if (!eager) {
                System.out.println("PE " + me + ": endpoints at init " + Arrays.toString(atInit) + "; first use of PE " + target
                        + " from " + THREADS + " threads made " + made);
            }

            // First use from created contexts: their own endpoints, made at their first operation.
            int far = (me + 2) % n;
            long[] options = {0, Shmem.CTX_PRIVATE};
            for (int k = 0; k < options.length; k++) {
                try (ShmemContext ctx = shmem.ctxCreate(options[k])) {
                    UcxTransport c = t.contexts().get(t.contexts().size() - 1);
                    check(c.connectedPes().length == 0, "context " + k + ": no endpoint before use, got " + Arrays.toString(c.connectedPes()));
                    ctx.p(counter, 2 + k, 1000L * (k + 1) + me, far);
                    ctx.quiet();
                    check(Arrays.equals(c.connectedPes(), new int[] {far}),
                            "context " + k + ": an endpoint to PE " + far + " only, got " + Arrays.toString(c.connectedPes()));
                }
            }
            shmem.barrierAll();
            int from = (me - 2 + 2 * n) % n;
            check(counter.get(2) == 1000L + from && counter.get(3) == 2000L + from,
                    "puts from contexts of PE " + from + ": " + counter.get(2) + ", " + counter.get(3));
        }

        // Re-initialization: a new transport, wired up the same way.
        try (Shmem shmem = Shmem.init()) {
            int n = shmem.nPes();
            UcxTransport t = WireUp.last;
            int[] again = t.connectedPes();
            check(eager ? again.length == n - 1 : (me == 0 || again.length < n - 1) && t.job.peersFetched() == again.length,
                    "after re-init: endpoints " + Arrays.toString(again));
            SymLongArray box = shmem.calloc(SymType.LONG, 1);
            shmem.p(box, 0, 7L + me, (me + 1) % n);
            shmem.barrierAll();
            check(box.get(0) == 7L + (me - 1 + n) % n, "ring put after re-init: " + box.get(0));
        }
        System.out.println(results.summary());
        if (results.failures() > 0) {
            System.exit(1);
        }
    }

    /** The first PE after this one it has no endpoint to, or the right neighbour if there is none. */
    private int firstUnused(int[] connected, int n) {
        for (int k = 1; k < n; k++) {
            int pe = (me + k) % n;
            if (Arrays.stream(connected).noneMatch(x -> x == pe)) {
                return pe;
            }
        }
        return (me + 1) % n;
    }

    /** Puts to the right neighbour, a barrier, then counts this process's established TCP connections. */
    private static void tcp() throws IOException {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            SymLongArray box = shmem.calloc(SymType.LONG, 1);
            shmem.p(box, 0, me, (me + 1) % n);
            shmem.barrierAll();
            boolean ok = box.get(0) == (me - 1 + n) % n;
            int count = ProcSockets.tcp(ProcSockets.ESTABLISHED).size();
            int[] eps = WireUp.last.connectedPes();
            Arrays.sort(eps);
            System.out.println("PE " + me + ": tcp " + count + " endpoints " + eps.length + " " + Arrays.toString(eps)
                    + (ok ? "" : " FAIL ring value " + box.get(0)));
            shmem.barrierAll();
        }
    }

    /** The last PE dies before anyone used it; the others' first operation to it must fail naming it. */
    private static void dead() throws Exception {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int victim = shmem.nPes() - 1;
            SymLongArray box = shmem.calloc(SymType.LONG, 1);
            if (me == victim) {
                UcxCases.killItself(me);
                return;
            }
            System.out.println("PE " + me + ": connected before first use of PE " + victim + ": "
                    + Arrays.stream(WireUp.last.connectedPes()).anyMatch(pe -> pe == victim));
            Thread.sleep(500);
            try {
                for (int i = 0; i < 1000; i++) {
                    shmem.p(box, 0, me, victim);
                    shmem.quiet();
                }
                System.out.println("PE " + me + ": no error from the dead PE");
            } catch (ShmemException e) {
                System.out.println("PE " + me + ": first use failed: " + e.getMessage());
                throw e;
            }
        }
    }
}
