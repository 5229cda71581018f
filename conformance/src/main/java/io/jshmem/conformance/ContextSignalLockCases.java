/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemCtx;
import io.jshmem.ShmemTeam;
import io.jshmem.SignalOp;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.ThreadLevel;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;

/** Contexts (world and team ones), signals and distributed locks. */
final class ContextSignalLockCases {
    private ContextSignalLockCases() {
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(Case.of("ctx.many-contexts-increment-neighbour", ContextSignalLockCases::manyContexts));
        cases.add(Case.atLeast(2, "ctx.team-context-uses-team-pe-numbers", ContextSignalLockCases::teamContext));
        cases.add(Case.of("ctx.options-team-session", ContextSignalLockCases::options));
        cases.add(Case.of("ctx.destroyed", ContextSignalLockCases::destroyed));
        cases.add(Case.of("ctx.private-other-thread", ContextSignalLockCases::privateOtherThread));
        cases.add(Case.of("ctx.open-across-barriers", ContextSignalLockCases::openAcrossBarriers));
        cases.add(Case.of("ctx.progress-without-quiet", ContextSignalLockCases::progressWithoutQuiet));
        cases.add(Case.of("ctx.thread-multiple.shared-context", c -> threadsOnOneContext(c, false)));
        cases.add(Case.of("ctx.thread-multiple.default-context", c -> threadsOnOneContext(c, true)));
        cases.add(Case.of("signal.put-signal-set", c -> putSignal(c, SignalOp.SET)));
        cases.add(Case.of("signal.put-signal-add", c -> putSignal(c, SignalOp.ADD)));
        cases.add(Case.of("signal.add-set-fetch", ContextSignalLockCases::signalAddSet));
        cases.add(Case.of("lock.counter", ContextSignalLockCases::lockCounter));
        cases.add(Case.of("lock.test-lock", ContextSignalLockCases::testLock));
        cases.add(Case.of("lock.misuse", ContextSignalLockCases::lockMisuse));
        cases.add(Case.of("lock.threads-of-one-pe", ContextSignalLockCases::lockThreadsOfOnePe));
        cases.add(Case.of("sync.virtual-threads-wait", ContextSignalLockCases::virtualThreadsWait));
        return cases;
    }

    /**
     * A context stays open (its own worker over UCX) while the PEs go through barriers: a quiet or
     * barrier on the default context must not wait for anything of the open contexts (over UCX/TCP,
     * a worker flush on one PE waited for the peer's idle context worker and the barrier hung).
     */
    private static void openAcrossBarriers(CaseContext c) {
        SymLongArray a = c.calloc(SymType.LONG, 2);
        ShmemContext ctx = c.shmem.ctxCreate(0);
        try {
            ctx.p(a, 0, 11L + c.me, c.right());
            ctx.quiet();
            for (int i = 0; i < 3; i++) {
                c.shmem.barrierAll();
                c.shmem.p(a, 1, i, c.right());
                c.shmem.quiet();
            }
            c.shmem.barrierAll();
            c.checkEq(11L + c.left(), a.get(0), "the left neighbour's put through its open context");
            c.checkEq(2L, a.get(1), "the left neighbour's last put on the default context");
        } finally {
            ctx.close();
        }
    }

    /**
     * A context's atomic and put reach their target before that context's quiet, while the PEs only
     * read their own memory (OpenSHMEM's progress rule: one-sided operations are not deferred to a
     * synchronization point). Over UCX/TCP a context's operations waited for its own worker's
     * progress, which nobody made until its quiet: every PE hung here.
     */
    private static void progressWithoutQuiet(CaseContext c) {
        long[] options = {0, Shmem.CTX_PRIVATE, Shmem.CTX_SERIALIZED};
        SymLongArray a = c.calloc(SymType.LONG, 2 * options.length);
        List<ShmemContext> ctxs = new ArrayList<>();
        try (Arena arena = Arena.ofConfined()) {
            // A native source: a put from a Java array waits for its local completion, which progresses the worker.
            MemorySegment source = arena.allocateFrom(ValueLayout.JAVA_LONG, 100L + c.me);
            for (int k = 0; k < options.length; k++) {
                ShmemContext ctx = c.shmem.ctxCreate(options[k]);
                ctxs.add(ctx);
                ctx.atomicInc(a, 2 * k, c.right());
                ctx.putNbi(a, 2 * k + 1, source, c.right());
            }
            long deadline = System.nanoTime() + 60_000_000_000L;
            for (int k = 0; k < options.length; k++) {
                while (a.get(2 * k) != 1 || a.get(2 * k + 1) != 100L + c.left()) {
                    if (System.nanoTime() > deadline) {
                        c.fail("context " + k + " (options " + options[k] + "): after 60 s the left neighbour's atomic"
                                + " gave " + a.get(2 * k) + " and its put " + a.get(2 * k + 1) + " (expected 1 and "
                                + (100L + c.left()) + ")");
                        break;
                    }
                    Thread.onSpinWait();
                    Thread.yield();
                }
            }
            for (ShmemContext ctx : ctxs) {
                ctx.quiet(); // before the source is freed
            }
        } finally {
            for (ShmemContext ctx : ctxs) {
                ctx.close();
            }
        }
        c.shmem.barrierAll();
    }

    /**
     * Lock misuse gets an exception instead of a hang: set_lock of a lock this PE holds (it waited
     * for itself), clear_lock of one it does not hold (it waited for a successor that never came),
     * a lock word that was not 0 before its first use (an index out of range). The lock works after.
     */
    private static void lockMisuse(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray lock = c.calloc(SymType.LONG, 2);
        c.expectShmemException("clear_lock of a lock never set", () -> s.clearLock(lock, 0), "does not hold");
        s.setLock(lock, 0);
        c.expectShmemException("set_lock of a lock this PE holds", () -> s.setLock(lock, 0), "already holds");
        s.clearLock(lock, 0);
        c.expectShmemException("clear_lock twice", () -> s.clearLock(lock, 0), "does not hold");
        s.barrierAll();
        if (c.me == 0) {
            lock.set(1, -1L); // on the lock's home PE: its tail field then names no PE
            c.expectShmemException("set_lock of a word that was not 0", () -> s.setLock(lock, 1), "must be 0 before its first use");
        }
        s.barrierAll();
        SymLongArray counter = c.calloc(SymType.LONG, 1);
        s.setLock(lock, 0);
        long v = s.g(counter, 0, 0);
        s.p(counter, 0, v + 1, 0);
        s.clearLock(lock, 0);
        s.barrierAll();
        c.checkEq(c.npes, s.g(counter, 0, 0), "a counter under the lock after the misuse");
    }

    private static void manyContexts(CaseContext c) {
        int k = 8;
        int rounds = 50;
        SymLongArray counter = c.calloc(SymType.LONG, 1);
        List<ShmemContext> ctxs = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            ctxs.add(c.shmem.ctxCreate(i % 2 == 0 ? Shmem.CTX_PRIVATE : Shmem.CTX_SERIALIZED));
        }
        for (int r = 0; r < rounds; r++) {
            for (ShmemContext ctx : ctxs) {
                ctx.atomicInc(counter, 0, c.right());
            }
        }
        for (ShmemContext ctx : ctxs) {
            ctx.quiet();
        }
        c.shmem.barrierAll();
        c.checkEq((long) k * rounds, counter.get(0), "increments from the left neighbour's " + k + " contexts");
        for (ShmemContext ctx : ctxs) {
            ctx.close();
        }
    }

    private static void teamContext(CaseContext c) {
        SymLongArray box = c.calloc(SymType.LONG, 1);
        int size = (c.npes + 1) / 2;
        Optional<ShmemTeam> evens = c.shmem.teamWorld().splitStrided(0, 2, size, null, 0);
        evens.ifPresent(team -> {
            try (ShmemContext ctx = team.createCtx(0)) {
                c.check(ctx.team() == team, "ctx_get_team returns the team");
                int next = (team.myPe() + 1) % team.nPes();
                ctx.p(box, 0, 1000 + c.me, next); // team PE numbers: next is world PE 2*next
                ctx.quiet();
            }
        });
        c.shmem.barrierAll();
        if (c.me % 2 == 0) {
            int prevTeamPe = (c.me / 2 - 1 + size) % size;
            c.checkEq(1000 + 2L * prevTeamPe, box.get(0), "value from the previous even PE through the team context");
        } else {
            c.checkEq(0, box.get(0), "odd PEs receive nothing");
        }
        evens.ifPresent(ShmemTeam::close);
    }

    private static void options(CaseContext c) {
        try (ShmemContext ctx = c.shmem.ctxCreate(Shmem.CTX_NOSTORE | Shmem.CTX_SERIALIZED)) {
            c.checkEq(Shmem.CTX_NOSTORE | Shmem.CTX_SERIALIZED, ctx.options(), "options round trip");
            c.check(ctx.team() == c.shmem.teamWorld(), "a world context's team is the world");
            ShmemCtx defaultCtx = c.shmem; // SHMEM_CTX_DEFAULT
            c.check(defaultCtx.team() == c.shmem.teamWorld(), "ctx_get_team(SHMEM_CTX_DEFAULT) is SHMEM_TEAM_WORLD");
            SymLongArray a = c.calloc(SymType.LONG, 1);
            ctx.sessionStart(0);
            long old = ctx.atomicFetchAdd(a, 0, 5, c.right());
            ctx.sessionStop();
            c.check(old >= 0, "fetch_add inside a session");
        }
        c.expectShmemException("unknown context options", () -> c.shmem.ctxCreate(1L << 40), "option");
    }

    private static void destroyed(CaseContext c) {
        SymLongArray a = c.calloc(SymType.LONG, 1);
        ShmemContext ctx = c.shmem.ctxCreate(0);
        ctx.p(a, 0, 3, c.me);
        ctx.close();
        ctx.close(); // twice is harmless
        c.expectShmemException("put on a destroyed context", () -> ctx.p(a, 0, 4, c.me), "destroyed");
        c.expectShmemException("quiet on a destroyed context", ctx::quiet, "destroyed");
        c.expectShmemException("ctx_get_team of a destroyed context", ctx::team, "destroyed");
        c.checkEq(3, a.get(0), "the put made before destroy");
        c.expectShmemException("PE out of range on a context", () -> {
            try (ShmemContext other = c.shmem.ctxCreate(0)) {
                other.p(a, 0, 1, c.npes);
            }
        }, "out of range: the team has " + c.npes + " PEs");
    }

    /**
     * A CTX_PRIVATE context used, quieted or destroyed by a thread other than its creator: refused
     * with a ShmemException naming the option, on every transport (over UCX such a context takes no
     * lock, and a second thread's operations raced the owner's); nothing it tried reaches the peer,
     * and the creator goes on using the context. A SERIALIZED one passes between threads.
     */
    private static void privateOtherThread(CaseContext c) throws InterruptedException {
        SymLongArray a = c.calloc(SymType.LONG, 2);
        ShmemContext mine = c.shmem.ctxCreate(Shmem.CTX_PRIVATE);
        ShmemContext turns = c.shmem.ctxCreate(Shmem.CTX_SERIALIZED);
        int r = c.right();
        Thread other = Thread.ofPlatform().name("other").start(() -> {
            c.expectShmemException("p on another thread's private context", () -> mine.p(a, 0, -1L, r), "CTX_PRIVATE", "other");
            c.expectShmemException("atomicAdd on another thread's private context", () -> mine.atomicAdd(a, 0, -1L, r),
                    "CTX_PRIVATE");
            c.expectShmemException("quiet of another thread's private context", mine::quiet, "CTX_PRIVATE");
            c.expectShmemException("destroy of another thread's private context", mine::close, "CTX_PRIVATE");
            turns.atomicAdd(a, 1, 10L, r);
            turns.quiet();
        });
        other.join();
        mine.atomicAdd(a, 0, 1L, r);
        mine.quiet();
        turns.atomicAdd(a, 1, 1L, r);
        mine.close();
        turns.close();
        c.shmem.barrierAll();
        c.checkEq(1L, a.get(0), "the left neighbour's private context: only its creator's add");
        c.checkEq(11L, a.get(1), "the left neighbour's serialized context, used by two threads in turn");
    }

    /**
     * THREAD_MULTIPLE: three threads of every PE take one lock in turn with setLock (and testLock),
     * each doing a read-modify-write of a counter on PE 0 that only the lock protects, and an
     * occupancy count that must never exceed 1. Two threads of one PE in the queue at once (one
     * queue node per PE) linked it to itself and hung every PE.
     */
    private static void lockThreadsOfOnePe(CaseContext c) throws InterruptedException {
        if (!multiple(c)) {
            return;
        }
        Shmem s = c.shmem;
        SymLongArray lock = c.calloc(SymType.LONG, 1);
        SymLongArray counter = c.calloc(SymType.LONG, 2); // [0] the count, [1] threads inside
        s.barrierAll();
        int threads = 3;
        int rounds = 30;
        Throwable[] errors = new Throwable[threads];
        long[] overlaps = new long[threads];
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int tid = t;
            ts[t] = Thread.ofPlatform().name("lock-thread-" + t).start(() -> {
                try {
                    for (int i = 0; i < 100; i++) { // back to back first: the race of two threads to one node
                        s.setLock(lock, 0);
                        s.clearLock(lock, 0);
                    }
                    for (int i = 0; i < rounds; i++) {
                        if (i % 4 == 0) {
                            while (!s.testLock(lock, 0)) {
                                Thread.onSpinWait();
                            }
                        } else {
                            s.setLock(lock, 0);
                        }
                        if (s.atomicFetchAdd(counter, 1, 1L, 0) != 0) {
                            overlaps[tid]++;
                        }
                        long v = s.g(counter, 0, 0);
                        s.p(counter, 0, v + 1, 0);
                        s.quiet();
                        s.atomicAdd(counter, 1, -1L, 0);
                        s.clearLock(lock, 0);
                    }
                } catch (Throwable e) {
                    errors[tid] = e;
                }
            });
        }
        for (Thread t : ts) {
            t.join();
        }
        s.barrierAll();
        for (int t = 0; t < threads; t++) {
            c.check(errors[t] == null, "thread " + t + ": " + (errors[t] == null ? "" : CaseContext.describe(errors[t])));
            c.checkEq(0L, overlaps[t], "times thread " + t + " found another holder inside the lock");
        }
        if (c.me == 0) {
            c.checkEq((long) c.npes * threads * rounds, counter.get(0), "the count only the lock protects");
        }
    }

    /**
     * A virtual thread blocked in waitUntil lets the PE's other virtual threads run (a futex wait,
     * a native call, pinned its carrier: with one carrier, a PE bound to one CPU, the thread that
     * sets the flag never ran). Checked with a generous bound, as a hang.
     */
    private static void virtualThreadsWait(CaseContext c) throws Exception {
        if (!multiple(c)) {
            return;
        }
        Shmem s = c.shmem;
        SymLongArray flag = c.calloc(SymType.LONG, 2);
        try (java.util.concurrent.ExecutorService ex = java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()) {
            java.util.concurrent.CountDownLatch waiting = new java.util.concurrent.CountDownLatch(2);
            java.util.concurrent.Future<?> a = ex.submit(() -> {
                waiting.countDown();
                s.waitUntil(flag, 0, Cmp.EQ, 1L);
                return null;
            });
            java.util.concurrent.Future<?> b = ex.submit(() -> {
                waiting.countDown();
                s.signalWaitUntil(flag, 1, Cmp.EQ, 1L);
                return null;
            });
            waiting.await();
            Thread.sleep(100); // both asleep in their waits by now
            java.util.concurrent.Future<?> setter = ex.submit(() -> {
                s.p(flag, 0, 1L, c.me);
                s.atomicSet(flag, 1, 1L, c.me);
                return null;
            });
            for (java.util.concurrent.Future<?> f : List.of(setter, a, b)) {
                try {
                    f.get(60, java.util.concurrent.TimeUnit.SECONDS);
                } catch (java.util.concurrent.TimeoutException e) {
                    c.fail("a virtual thread's wait kept the PE's other virtual threads from running for 60 s");
                    s.p(flag, 0, 1L, c.me); // from this platform thread, so that the case ends
                    s.atomicSet(flag, 1, 1L, c.me);
                    break;
                }
            }
        }
    }

    /** Whether jshmem was initialized with THREAD_MULTIPLE; else the case is skipped. */
    private static boolean multiple(CaseContext c) {
        if (c.shmem.queryThread() != ThreadLevel.MULTIPLE) {
            c.skip("initialized with " + c.shmem.queryThread() + ", not MULTIPLE");
            return false;
        }
        return true;
    }

    /** Threads that share one context in {@link #threadsOnOneContext}. */
    private static final int THREADS = 4;
    /** Iterations of each thread. */
    private static final int PER_THREAD = 500;

    /**
     * THREAD_MULTIPLE: several threads of each PE use one shareable context (options 0, or the
     * default context) at the same time, towards the right neighbour: atomic adds, fetch-incs and
     * puts into per-thread slots. The totals are exact, the fetched values are a permutation (only
     * this PE's threads increment the neighbour's counter), every put lands; quiet from one thread
     * completes what every thread issued on the context.
     */
    private static void threadsOnOneContext(CaseContext c, boolean defaultContext) throws InterruptedException {
        if (!multiple(c)) {
            return;
        }
        int total = THREADS * PER_THREAD;
        SymLongArray sum = c.calloc(SymType.LONG, 1);
        SymLongArray ticket = c.calloc(SymType.LONG, 1);
        SymLongArray slots = c.calloc(SymType.LONG, total);
        ShmemContext shared = defaultContext ? null : c.shmem.ctxCreate(0);
        ShmemCtx ctx = defaultContext ? c.shmem : shared;
        int r = c.right();
        long[][] fetched = new long[THREADS][PER_THREAD];
        Throwable[] errors = new Throwable[THREADS];
        CyclicBarrier start = new CyclicBarrier(THREADS);
        Thread[] threads = new Thread[THREADS];
        for (int t = 0; t < THREADS; t++) {
            int tid = t;
            threads[t] = Thread.ofPlatform().name("conformance-thread-" + t).start(() -> {
                try {
                    start.await();
                    for (int i = 0; i < PER_THREAD; i++) {
                        ctx.atomicAdd(sum, 0, tid + 1, r);
                        fetched[tid][i] = ctx.atomicFetchInc(ticket, 0, r);
                        ctx.p(slots, (long) tid * PER_THREAD + i, c.me * 1_000_000L + tid * 10_000L + i, r);
                    }
                } catch (Throwable e) {
                    errors[tid] = e;
                }
            });
        }
        for (Thread t : threads) {
            t.join();
        }
        ctx.quiet(); // one thread's quiet completes every thread's operations on the context
        for (int t = 0; t < THREADS; t++) {
            if (errors[t] != null) {
                c.fail("thread " + t + ": " + CaseContext.describe(errors[t]));
            }
        }
        c.shmem.barrierAll();
        String on = defaultContext ? "default context" : "shared context";
        c.checkEq((long) PER_THREAD * THREADS * (THREADS + 1) / 2, sum.get(0), on + ": sum of the left neighbour's threads' atomic adds");
        c.checkEq(total, ticket.get(0), on + ": fetch_inc count");
        boolean[] seen = new boolean[total];
        int duplicates = 0;
        for (long[] values : fetched) {
            for (long v : values) {
                if (v < 0 || v >= total || seen[(int) v]) {
                    duplicates++;
                } else {
                    seen[(int) v] = true;
                }
            }
        }
        c.checkEq(0, duplicates, on + ": fetch_inc values repeated or out of range (they must be 0.." + (total - 1) + " once each)");
        int wrong = 0;
        for (int t = 0; t < THREADS; t++) {
            for (int i = 0; i < PER_THREAD; i++) {
                if (slots.get((long) t * PER_THREAD + i) != c.left() * 1_000_000L + t * 10_000L + i) {
                    wrong++;
                }
            }
        }
        c.checkEq(0, wrong, on + ": slots the left neighbour's threads put wrong or missing");
        if (shared != null) {
            shared.close();
        }
    }

    private static void putSignal(CaseContext c, SignalOp op) {
        int n = 64;
        int rounds = 30;
        SymLongArray data = c.calloc(SymType.LONG, n);
        SymLongArray sig = c.calloc(SymType.LONG, 1);
        long[] block = new long[n];
        for (int r = 1; r <= rounds; r++) {
            for (int i = 0; i < n; i++) {
                block[i] = (long) c.me * 1_000_000 + r * 1000L + i;
            }
            if (r % 2 == 0) {
                c.shmem.putSignal(data, 0, block, 0, n, sig, 0, op == SignalOp.SET ? r : 1, op, c.right());
            } else {
                c.shmem.putSignalNbi(data, 0, block, 0, n, sig, 0, op == SignalOp.SET ? r : 1, op, c.right());
            }
            long seen = c.shmem.signalWaitUntil(sig, 0, Cmp.GE, r);
            c.check(seen >= r, "signal_wait_until returned " + seen + " before round " + r);
            for (int i = 0; i < n; i++) {
                long want = (long) c.left() * 1_000_000 + r * 1000L + i;
                if (!c.checkEq(want, data.get(i), op + " round " + r + ": data[" + i + "] visible with the signal")) {
                    return;
                }
            }
            c.shmem.barrierAll(); // the sender may overwrite data only after the check
        }
        c.checkEq(rounds, c.shmem.signalFetch(sig, 0), "final signal value");
    }

    private static void signalAddSet(CaseContext c) {
        SymLongArray sig = c.calloc(SymType.LONG, 2);
        c.shmem.signalAdd(sig, 0, c.me + 1, 0);
        c.shmem.signalSet(sig, 1, 42, c.right());
        c.shmem.barrierAll();
        if (c.me == 0) {
            c.checkEq((long) c.npes * (c.npes + 1) / 2, c.shmem.signalFetch(sig, 0), "signal_add from every PE");
        }
        c.checkEq(42, c.shmem.signalFetch(sig, 1), "signal_set from the left neighbour");
    }

    private static void lockCounter(CaseContext c) {
        int iterations = 300;
        SymLongArray lock = c.calloc(SymType.LONG, 1);
        SymLongArray counter = c.calloc(SymType.LONG, 1);
        for (int i = 0; i < iterations; i++) {
            c.shmem.setLock(lock, 0);
            // A non-atomic read-modify-write: only mutual exclusion keeps it exact.
            long v = c.shmem.g(counter, 0, 0);
            c.shmem.p(counter, 0, v + 1, 0);
            c.shmem.clearLock(lock, 0);
        }
        c.shmem.barrierAll();
        c.checkEq((long) c.npes * iterations, c.shmem.g(counter, 0, 0), "lock-protected counter");
    }

    private static void testLock(CaseContext c) {
        SymLongArray lock = c.calloc(SymType.LONG, 1);
        if (c.me == 0) {
            c.check(c.shmem.testLock(lock, 0), "test_lock of a free lock acquires it");
        }
        c.shmem.barrierAll();
        if (c.me != 0) {
            c.check(!c.shmem.testLock(lock, 0), "test_lock of a held lock fails");
        }
        c.shmem.barrierAll();
        if (c.me == 0) {
            c.shmem.clearLock(lock, 0);
        }
        c.shmem.barrierAll();
        if (c.me == c.npes - 1) {
            c.check(c.shmem.testLock(lock, 0), "test_lock after clear_lock acquires it");
            c.shmem.clearLock(lock, 0);
        }
        c.shmem.barrierAll();
    }
}
