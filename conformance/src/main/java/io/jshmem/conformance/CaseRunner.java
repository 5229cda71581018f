/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymIntArray;
import io.jshmem.SymType;
import io.jshmem.ThreadLevel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs the conformance cases inside one jshmem job:
 * {@code bin/oshrun -np N -cp conformance/target/classes io.jshmem.conformance.CaseRunner [--list] [--exclude TEXT]... [filter...]}.
 *
 * <p>Every PE runs every selected case, in the fixed order of {@link AllCases}, and prints one line
 * per case: {@code CASE <name> PE <k> PASS}, {@code ... FAIL <message>} or {@code ... SKIP <reason>};
 * the PEs meet in a barrier between cases. A filter selects the cases whose name contains it (any
 * filter matching is enough); {@code --exclude TEXT} drops the cases whose name contains TEXT. At the end PE 0 prints {@code SUMMARY passed=N failed=M skipped=K},
 * counted over all PEs (a case failed if it failed on any PE, else was skipped if any PE skipped
 * it), and each PE exits with status 1 if any of its cases failed.
 */
public final class CaseRunner {
    /** The watchdog's names for initialization and finalization (not cases). */
    private static final String INIT = "(Shmem.init)";
    private static final String CLOSE = "(Shmem.close)";

    private CaseRunner() {
    }

    public static void main(String[] args) {
        List<String> filters = new ArrayList<>();
        List<String> excluded = new ArrayList<>();
        boolean list = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--list")) {
                list = true;
            } else if (a.equals("-h") || a.equals("--help")) {
                System.out.println("usage: CaseRunner [--list] [--exclude TEXT]... [filter...]\n"
                        + "  a filter selects the cases whose name contains it (none: every case);\n"
                        + "  --exclude TEXT then drops the cases whose name contains TEXT");
                return;
            } else if (a.equals("--exclude")) {
                if (i + 1 == args.length) {
                    System.err.println("CaseRunner: --exclude needs the text of the case names to drop");
                    System.exit(2);
                }
                excluded.add(args[++i]);
            } else {
                filters.add(a);
            }
        }
        List<Case> cases = select(AllCases.all(), filters, excluded);
        if (list) {
            cases.forEach(c -> System.out.println(c.name()));
            return;
        }
        if (cases.isEmpty()) {
            System.err.println("CaseRunner: no case matches " + filters + (excluded.isEmpty() ? "" : " without " + excluded)
                    + " (see --list)");
            System.exit(2);
        }
        System.exit(run(cases));
    }

    /** The cases whose names contain one of {@code filters} (all of them when there is no filter), in order. */
    public static List<Case> select(List<Case> all, List<String> filters) {
        return select(all, filters, List.of());
    }

    /** {@link #select(List, List)} without the cases whose names contain one of {@code excluded}. */
    public static List<Case> select(List<Case> all, List<String> filters, List<String> excluded) {
        Set<String> names = new HashSet<>();
        for (Case c : all) {
            if (!names.add(c.name())) {
                throw new IllegalStateException("duplicate case name " + c.name());
            }
        }
        return all.stream()
                .filter(c -> filters.isEmpty() || filters.stream().anyMatch(f -> c.name().contains(f)))
                .filter(c -> excluded.stream().noneMatch(x -> c.name().contains(x)))
                .toList();
    }

    /** Initializes jshmem, runs the cases, finalizes; returns this PE's exit status. */
    static int run(List<Case> cases) {
        String envPe = System.getenv("JSHMEM_PE");
        Watchdog watchdog = Watchdog.start(envPe == null ? 0 : Integer.parseInt(envPe), Thread.currentThread());
        watchdog.caseStarted(INIT);
        // MULTIPLE: the ctx.thread-multiple cases call jshmem from several threads at once.
        Shmem shmem = Shmem.initThread(ThreadLevel.MULTIPLE);
        int me = shmem.myPe();
        watchdog.caseStarted(null);
        int failed = 0;
        int[] outcomes = new int[cases.size()];
        for (int k = 0; k < cases.size(); k++) {
            Case kase = cases.get(k);
            watchdog.caseStarted(kase.name());
            CaseContext c = new CaseContext(shmem, kase.name());
            String skipReason = null;
            if (shmem.nPes() < kase.minPes()) {
                skipReason = "needs at least " + kase.minPes() + " PEs, the job has " + shmem.nPes();
            } else {
                try {
                    kase.body().run(c);
                } catch (SkipCase s) {
                    skipReason = s.getMessage();
                } catch (Throwable t) {
                    c.fail("unexpected " + CaseContext.describe(t));
                }
                try {
                    c.releaseAll();
                } catch (Throwable t) {
                    c.fail("freeing the case's objects: " + CaseContext.describe(t));
                }
            }
            String prefix = "CASE " + kase.name() + " PE " + me + " ";
            if (c.failures() > 0) {
                failed++;
                outcomes[k] = FAILED;
                Out.line(prefix + "FAIL " + c.failureSummary());
            } else if (skipReason != null) {
                outcomes[k] = SKIPPED;
                Out.line(prefix + "SKIP " + skipReason);
            } else {
                Out.line(prefix + "PASS");
            }
            try {
                shmem.barrierAll();
            } catch (Throwable t) {
                Out.line("CaseRunner: PE " + me + ": barrier after case " + kase.name() + " failed, giving up: "
                        + CaseContext.describe(t));
                return 1;
            }
        }
        // PE 0 counts every PE's outcomes, not only its own: a case that failed on another PE
        // alone once left the SUMMARY line at failed=0.
        int[] job;
        try {
            job = jobOutcomes(shmem, outcomes);
        } catch (RuntimeException e) {
            Out.line("CaseRunner: PE " + me + ": cannot gather the other PEs' outcomes, the summary is this PE's: "
                    + CaseContext.describe(e));
            job = outcomes;
        }
        if (me == 0) {
            Out.line(summary(job));
        }
        watchdog.caseStarted(CLOSE);
        shmem.close();
        watchdog.caseStarted(null);
        return failed > 0 ? 1 : 0;
    }

    private static final int PASSED = 0;
    private static final int SKIPPED = 1;
    private static final int FAILED = 2;

    /** Each case's outcome over the job: the worst of every PE's (failed over skipped over passed). */
    private static int[] jobOutcomes(Shmem shmem, int[] mine) {
        if (mine.length == 0) {
            return mine;
        }
        SymIntArray src = shmem.calloc(SymType.INT, mine.length);
        SymIntArray dst = shmem.calloc(SymType.INT, mine.length);
        for (int k = 0; k < mine.length; k++) {
            src.set(k, mine[k]);
        }
        shmem.teamWorld().maxReduce(dst, src, mine.length);
        int[] job = new int[mine.length];
        for (int k = 0; k < mine.length; k++) {
            job[k] = dst.get(k);
        }
        shmem.free(dst);
        shmem.free(src);
        return job;
    }

    /** The SUMMARY line for the cases' {@link #jobOutcomes}. */
    static String summary(int[] outcomes) {
        int[] count = new int[3];
        for (int o : outcomes) {
            count[o]++;
        }
        return "SUMMARY passed=" + count[PASSED] + " failed=" + count[FAILED] + " skipped=" + count[SKIPPED];
    }

    /**
     * Ends this PE when one case runs far too long (a lost update leaves a PE waiting forever):
     * prints the case's FAIL line with where the main thread is stuck, then halts, so the launcher
     * ends the job at once instead of at its --timeout. The limit is CONFORMANCE_CASE_TIMEOUT
     * seconds (default 90; a case normally takes well under 5 s) since the case started or last
     * said it {@linkplain #progressed progressed}: a long case that goes on (the allocation cases'
     * thousands of collective calls, on a machine so loaded that each takes milliseconds) is not
     * stuck.
     */
    static final class Watchdog implements Runnable {
        /** This PE's, once started. */
        private static volatile Watchdog running;
        private final int me;
        private final Thread main;
        private final long limitNanos;
        private volatile String current;
        private volatile long startedAt;

        private Watchdog(int me, Thread main, long limitSeconds) {
            this.me = me;
            this.main = main;
            this.limitNanos = limitSeconds * 1_000_000_000L;
        }

        static Watchdog start(int me, Thread main) {
            String v = System.getenv("CONFORMANCE_CASE_TIMEOUT");
            long limit = v == null || v.isBlank() ? 90 : Long.parseLong(v.trim());
            Watchdog w = new Watchdog(me, main, limit);
            running = w;
            Thread t = new Thread(w, "conformance-watchdog");
            t.setDaemon(true);
            t.start();
            return w;
        }

        void caseStarted(String name) {
            startedAt = System.nanoTime();
            current = name;
        }

        /** The running case has made progress: its time limit counts from now (allocates nothing). */
        static void progressed() {
            Watchdog w = running;
            if (w != null) {
                w.startedAt = System.nanoTime();
            }
        }

        @Override
        public void run() {
            while (true) {
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
                String name = current;
                if (name != null && System.nanoTime() - startedAt > limitNanos && name.equals(current)) {
                    StringBuilder where = new StringBuilder();
                    StackTraceElement[] stack = main.getStackTrace();
                    for (int i = 0; i < Math.min(12, stack.length); i++) {
                        where.append(i == 0 ? "" : " < ").append(stack[i]);
                    }
                    long limit = limitNanos / 1_000_000_000L;
                    if (name.startsWith("(")) {
                        Out.line("CaseRunner: PE " + me + ": " + name.substring(1, name.length() - 1) + "() has not returned after " + limit
                                + " s (CONFORMANCE_CASE_TIMEOUT); ending this PE; main thread at: " + where);
                    } else {
                        Out.line("CASE " + name + " PE " + me + " FAIL still running after " + limit
                                + " s (CONFORMANCE_CASE_TIMEOUT); ending this PE; main thread at: " + where);
                    }
                    Runtime.getRuntime().halt(3);
                }
            }
        }
    }
}
