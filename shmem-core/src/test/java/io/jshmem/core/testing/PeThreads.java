/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.testing;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/**
 * The threads of an in-process job, one per PE, and the one way to run a step on all of them: with a
 * deadline. A PE stuck past it (a wrong sync or collective never returns) fails the step with a
 * message naming the job, every stuck PE and where each one is, instead of hanging the build; its
 * thread is a daemon, so the JVM can still exit, and {@link #stuck()} tells the owner not to run
 * collective teardown on it.
 */
public final class PeThreads implements AutoCloseable {
    /**
     * How long one step may take, all PEs together; generous, it only bounds a hang. A simulation
     * of thousands of PEs on few cores may need more: {@code -Djshmem.test.stepSeconds=N}.
     */
    public static final Duration STEP_DEADLINE = Duration.ofSeconds(Long.getLong("jshmem.test.stepSeconds", 120));

    private final String job;
    private final Duration deadline;
    private final ExecutorService pool;
    /** The thread running each PE's current step, for the report of a stuck one. */
    private final AtomicReferenceArray<Thread> threads;
    private volatile boolean stuck;

    public PeThreads(String job, int n) {
        this(job, n, STEP_DEADLINE);
    }

    /** With a deadline of its own per step (for testing this class). */
    public PeThreads(String job, int n, Duration deadline) {
        this.job = job;
        this.deadline = deadline;
        this.threads = new AtomicReferenceArray<>(n);
        this.pool = Executors.newFixedThreadPool(n, r -> {
            Thread t = new Thread(r, job + "-pe");
            t.setDaemon(true);
            return t;
        });
    }

    /** Whether a step ran past its deadline: the PEs' threads may still be inside it. */
    public boolean stuck() {
        return stuck;
    }

    /**
     * Runs {@code body} for every PE at once, each on its own thread; rethrows the first failure,
     * or throws an AssertionError naming the PEs that did not finish within the deadline
     * ({@link #STEP_DEADLINE} unless given), and where each one is.
     */
    public <T> List<T> all(IntFunction<T> body) throws Exception {
        int n = threads.length();
        List<Future<T>> fs = new ArrayList<>();
        for (int pe = 0; pe < n; pe++) {
            int p = pe;
            fs.add(pool.submit(() -> {
                threads.set(p, Thread.currentThread());
                try {
                    return body.apply(p);
                } finally {
                    threads.set(p, null);
                }
            }));
        }
        long end = System.nanoTime() + deadline.toNanos();
        List<T> out = new ArrayList<>();
        Exception first = null;
        List<Integer> late = new ArrayList<>();
        for (int pe = 0; pe < n; pe++) {
            try {
                out.add(fs.get(pe).get(Math.max(0, end - System.nanoTime()), TimeUnit.NANOSECONDS));
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause() instanceof Exception x ? x : e;
                }
            } catch (TimeoutException e) {
                late.add(pe);
            }
        }
        if (!late.isEmpty()) {
            stuck = true;
            AssertionError error = new AssertionError(job + ": PE" + (late.size() > 1 ? "s " : " ") + late + " of " + n
                    + " did not finish within " + deadline.toSeconds() + " s (a hang)" + where(late)
                    + (first == null ? "" : "; another PE failed first: " + first));
            if (first != null) {
                error.addSuppressed(first);
            }
            fs.forEach(f -> f.cancel(true));
            throw error;
        }
        if (first != null) {
            throw first;
        }
        return out;
    }

    /** Where each PE of {@code pes} is: the top of its thread's stack. */
    private String where(List<Integer> pes) {
        StringBuilder b = new StringBuilder();
        for (int pe : pes) {
            Thread t = threads.get(pe);
            if (t == null) {
                continue;
            }
            b.append("\n  PE ").append(pe).append(" is at: ").append(Arrays.stream(t.getStackTrace()).limit(12)
                    .map(String::valueOf).collect(Collectors.joining("\n      ")));
        }
        return b.toString();
    }

    /** Interrupts the PEs' threads and takes no more steps. */
    @Override
    public void close() {
        pool.shutdownNow();
    }

    /** {@link #close()}, then waits up to 30 s for the threads to end (not for stuck ones). */
    public void closeAndWait() throws InterruptedException {
        close();
        if (!stuck) {
            pool.awaitTermination(30, TimeUnit.SECONDS);
        }
    }
}
