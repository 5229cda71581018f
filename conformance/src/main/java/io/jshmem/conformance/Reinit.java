/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.TeamConfig;
import io.jshmem.ThreadLevel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Re-initialization after finalize (OpenSHMEM 1.6: "the library may be re-initialized with a
 * subsequent call to an initialization routine"): one job initializes, works and finalizes
 * {@code GENERATIONS} times (default 3), alternating {@code init} and {@code initThread(MULTIPLE)}.
 * Each generation checks RMA, atomics, a reduction, a broadcast, a split team with a context and a
 * world context; that its fresh heap holds none of the previous generation's values; that no
 * shared-memory file of the job is left once every PE is initialized; and that every handle of the
 * previous generation (the Shmem handle, symmetric objects, teams, contexts) throws a
 * ShmemException naming the PE, finalize and the re-initialization, without touching the new heap.
 * Prints {@code CASE reinit.<what>.g<n> PE <k> PASS|FAIL ...} (and {@code JOBID <id>}); exits 1 if
 * any check failed.
 *
 * <p>{@code Reinit GENERATIONS quit PE}: PE {@code PE} exits after the first finalize while the
 * others initialize again (a program error the launcher must report, not hang on).
 */
public final class Reinit {
    private static final int N = 64;

    private Reinit() {
    }

    private static int failed;
    private static int me = -1;

    /** What the previous generation leaves behind, all of it stale after its finalize. */
    private record Old(Shmem shmem, SymLongArray array, ShmemTeam world, ShmemTeam split, ShmemContext ctx) {
    }

    public static void main(String[] args) throws Exception {
        int generations = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int quitter = args.length > 2 && args[1].equals("quit") ? Integer.parseInt(args[2]) : -1;
        Old old = null;
        for (int g = 1; g <= generations; g++) {
            Shmem s = g % 2 == 0 ? Shmem.initThread(ThreadLevel.MULTIPLE) : Shmem.init();
            me = s.myPe();
            int npes = s.nPes();
            int right = (me + 1) % npes;
            int left = (me - 1 + npes) % npes;
            if (g == 1 && me == 0) {
                Out.line("JOBID " + System.getenv("JSHMEM_JOBID"));
            }
            int gen = g;
            report("init", g, Shmem.queryInitialized() ? (old != null && s == old.shmem ? "init returned the finalized handle" : null)
                    : "queryInitialized is false after init");
            report("thread-level", g, s.queryThread() == (g % 2 == 0 ? ThreadLevel.MULTIPLE : ThreadLevel.SINGLE) ? null
                    : "queryThread is " + s.queryThread());

            SymLongArray a = s.malloc(SymType.LONG, N);
            // The heap is new: the previous generation's values (which it left at the same offsets) are gone.
            report("fresh-heap", g, check(() -> {
                for (int i = 0; i < N; i++) {
                    long v = a.get(i);
                    if (v != 0 && (v >>> 40) < gen) {
                        return "element " + i + " holds " + Long.toHexString(v) + ", a value of generation " + (v >>> 40);
                    }
                }
                return null;
            }));
            s.barrierAll();

            long[] src = new long[N];
            for (int i = 0; i < N; i++) {
                src[i] = marker(g, me, i);
            }
            report("put-barrier", g, check(() -> {
                s.put(a, 0, src, 0, N, right);
                s.barrierAll();
                for (int i = 0; i < N; i++) {
                    if (a.get(i) != marker(gen, left, i)) {
                        return "element " + i + " is " + Long.toHexString(a.get(i)) + ", expected " + Long.toHexString(marker(gen, left, i));
                    }
                }
                return null;
            }));
            report("get", g, check(() -> {
                long[] got = new long[N];
                s.get(got, 0, a, 0, N, right);
                for (int i = 0; i < N; i++) {
                    if (got[i] != marker(gen, me, i)) {
                        return "element " + i + " from PE " + right + " is " + Long.toHexString(got[i]);
                    }
                }
                return null;
            }));
            SymLongArray counter = s.calloc(SymType.LONG, 1);
            report("atomic", g, check(() -> {
                s.atomicAdd(counter, 0, me + 1L, 0);
                s.barrierAll();
                long expected = (long) npes * (npes + 1) / 2;
                return me != 0 || counter.get(0) == expected ? null : "counter is " + counter.get(0) + ", expected " + expected;
            }));
            SymLongArray one = s.malloc(SymType.LONG, 1);
            SymLongArray sum = s.malloc(SymType.LONG, 1);
            report("reduce", g, check(() -> {
                one.set(0, me * 10L + gen);
                s.teamWorld().sumReduce(sum, one, 1);
                long expected = 10L * npes * (npes - 1) / 2 + (long) gen * npes;
                return sum.get(0) == expected ? null : "sum is " + sum.get(0) + ", expected " + expected;
            }));
            report("broadcast", g, check(() -> {
                int root = gen % npes;
                one.set(0, 1000L * gen + me);
                s.barrierAll();
                s.teamWorld().broadcast(sum, one, 1, root);
                return sum.get(0) == 1000L * gen + root ? null : "broadcast from PE " + root + " gave " + sum.get(0);
            }));
            // A team and contexts; the team of the even PEs is left open, for finalize to release.
            Optional<ShmemTeam> evens = s.teamWorld().splitStrided(0, 2, (npes + 1) / 2, TeamConfig.DEFAULT, 0);
            ShmemContext ctx = s.ctxCreate(0);
            report("team-and-context", g, check(() -> {
                if (evens.isPresent() != (me % 2 == 0)) {
                    return "split of the even PEs: " + evens;
                }
                if (evens.isPresent()) {
                    ShmemTeam t = evens.get();
                    t.sync();
                    try (ShmemContext tc = t.createCtx(0)) {
                        int next = (t.myPe() + 1) % t.nPes();
                        tc.p(a, 1, 7L * gen, next);
                        tc.quiet();
                    }
                    t.sync();
                    if (a.get(1) != 7L * gen) {
                        return "a put on the team's context did not arrive: " + a.get(1);
                    }
                }
                ctx.p(a, 2, 11L * gen + me, right);
                ctx.quiet();
                // Destroyed before the barrier: over UCX (tcp, 4 PEs) a created context left open
                // makes the next barrier's flush hang now and then, re-initialized or not.
                ctx.close();
                s.barrierAll();
                return a.get(2) == 11L * gen + left ? null : "a put on a world context did not arrive: " + a.get(2);
            }));
            // Every PE has mapped every segment: no file of the job may be left, the earlier
            // generations' included.
            s.barrierAll();
            report("no-segment-files", g, segmentFiles());
            if (old != null) {
                checkStale(g, old, s, a, right);
            }
            if (g == 2) {
                // 1.6: init while initialized returns the same handle; only the matching close finalizes.
                Shmem again = Shmem.init();
                report("nested-init", g, again == s ? null : "init while initialized returned another handle");
                again.close();
                report("nested-close", g, Shmem.queryInitialized() ? check(() -> {
                    s.barrierAll();
                    return null;
                }) : "the close of a nested init finalized");
            }
            // Leave something behind at the same offsets, for the next generation's fresh-heap check.
            s.put(a, 0, src, 0, N, right);
            s.barrierAll();
            old = new Old(s, a, s.teamWorld(), evens.orElse(null), ctx);
            s.close();
            report("finalized", g, Shmem.queryInitialized() ? "queryInitialized is true after the last close" : null);
            if (me == quitter) {
                Out.line("PE " + me + " exits after finalize instead of initializing again");
                System.exit(0);
            }
            if (me == 0) {
                // Let the others enter the next generation first, while this PE is still between two.
                Thread.sleep(200);
            }
        }
        if (old != null) {
            report("after-last.stale-handle", generations, expectStale(old.shmem::barrierAll, false));
        }
        System.exit(failed > 0 ? 1 : 0);
    }

    /** Every handle of the previous generation throws, and the new heap is left alone. */
    private static void checkStale(int g, Old old, Shmem s, SymLongArray a, int right) {
        long before = a.get(3);
        report("stale.shmem-handle", g, expectStale(old.shmem::barrierAll));
        report("stale.shmem-malloc", g, expectStale(() -> old.shmem.malloc(SymType.LONG, 1)));
        report("stale.shmem-put", g, expectStale(() -> old.shmem.put(a, 3, new long[] {-1}, 0, 1, right)));
        report("stale.object-local", g, expectStale(() -> old.array.get(0)));
        report("stale.object-put", g, expectStale(() -> s.put(old.array, 3, new long[] {-1}, 0, 1, right)));
        report("stale.object-get", g, expectStale(() -> s.get(new long[1], 0, old.array, 3, 1, right)));
        report("stale.object-atomic", g, expectStale(() -> s.atomicFetchInc(old.array, 3, right)));
        report("stale.object-free", g, expectStale(() -> s.free(old.array)));
        report("stale.world-team", g, expectStale(old.world::sync));
        report("stale.team-as-argument", g, expectStale(() -> s.teamWorld().translatePe(0, old.world)));
        if (old.split != null) {
            report("stale.split-team", g, expectStale(() -> old.split.createCtx(0)));
        }
        report("stale.context", g, expectStale(() -> old.ctx.p(a, 3, -1L, right)));
        report("stale.context-quiet", g, expectStale(old.ctx::quiet));
        s.barrierAll();
        report("stale.new-heap-untouched", g, a.get(3) == before ? null : "element 3 changed from " + before + " to " + a.get(3));
    }

    private static long marker(int generation, int pe, int i) {
        return ((long) generation << 40) | ((long) pe << 20) | (i + 1);
    }

    /** The prefix of this job's shared-memory files: {@code jshmem-<job id>-}. */
    private static String jobFilePrefix() {
        String job = System.getenv("JSHMEM_JOBID");
        return job != null ? "jshmem-" + job + "-" : "jshmem-s" + ProcessHandle.current().pid() + "x";
    }

    /** null if the shared-memory directory holds no file of this job, else their names. */
    private static String segmentFiles() {
        Path dir = Path.of(System.getenv().getOrDefault("JSHMEM_SHM_DIR", "/dev/shm"));
        if (!Files.isDirectory(dir)) {
            return null;
        }
        String prefix = jobFilePrefix();
        try (Stream<Path> files = Files.list(dir)) {
            List<String> left = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).toList();
            return left.isEmpty() ? null : "files of this job in " + dir + ": " + left;
        } catch (IOException e) {
            return "cannot list " + dir + ": " + e;
        }
    }

    private interface Check {
        String run() throws Exception;
    }

    /** The check's failure, or what it threw. */
    private static String check(Check c) {
        try {
            return c.run();
        } catch (Throwable t) {
            return CaseContext.describe(t);
        }
    }

    /** null if the action throws a ShmemException naming this PE, finalize and the re-initialization. */
    private static String expectStale(Runnable action) {
        return expectStale(action, true);
    }

    /** As {@link #expectStale(Runnable)}; the re-initialization is named only if {@code reinitialized}. */
    private static String expectStale(Runnable action, boolean reinitialized) {
        try {
            action.run();
            return "no exception for a handle of a finalized generation";
        } catch (ShmemException e) {
            List<String> problems = new ArrayList<>();
            String m = e.getMessage() == null ? "" : e.getMessage();
            String lower = m.toLowerCase(Locale.ROOT);
            if (!lower.contains("finalize")) {
                problems.add("message does not mention finalize");
            }
            if (reinitialized != lower.contains("initialized again")) {
                problems.add(reinitialized ? "message does not say jshmem was initialized again"
                        : "message says jshmem was initialized again, but it was not");
            }
            if (!m.matches("(?s).*\\bPE " + me + "(?!\\d).*")) {
                problems.add("message does not name PE " + me);
            }
            return problems.isEmpty() ? null : String.join(", ", problems) + ": " + m;
        } catch (Throwable t) {
            return "expected ShmemException, got " + CaseContext.describe(t);
        }
    }

    private static void report(String what, int generation, String failure) {
        String name = "CASE reinit." + what + ".g" + generation + " PE " + me;
        if (failure == null) {
            Out.line(name + " PASS");
        } else {
            failed++;
            Out.line(name + " FAIL " + failure);
        }
    }
}
