/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn.jobs;

import io.jshmem.Cmp;
import io.jshmem.ForkSafetyReport;
import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.spawn.Spawn;
import io.jshmem.spawn.SpawnException;
import io.jshmem.spawn.Subprocess;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * jshmem programs for the conformance tests of shmem-spawn and the subprocess clauses
 * (conformance/src/test/java/io/jshmem/conformance/spawn). Each prints {@code CHECK} lines
 * ({@link Check}) and exits non-zero if any failed.
 * <ul>
 * <li>{@code clauses}: children started by ProcessBuilder (inherited environment) and by Spawn,
 *     before init, within the OpenSHMEM portion and after finalize, try Shmem.init: each must be
 *     refused with the right clause, naming this PE's process; the job goes on undisturbed; Spawn
 *     works in all three phases and strips the identity;
 * <li>{@code load}: PE 1 streams puts and atomic increments into PE 0's heap while PE 0 spawns 200
 *     short subprocesses (half through ProcessBuilder, half through posix_spawnp); afterwards every
 *     word is present, every count exact, no zombie left. {@code load pb} forces ProcessBuilder
 *     for all (with {@code -Djdk.lang.Process.launchMechanism=FORK} that is a real fork of the JVM);
 * <li>{@code misc}: a nonexistent command, exit statuses, destroy, no zombie;
 * <li>{@code report}: prints the fork-safety report before init ({@code BEFORE} lines) and of the
 *     running PE ({@code AFTER} lines);
 * <li>{@code hello}: init, print {@code INITIALIZED <pe>}, finalize (for the clause 3 policy tests).
 * </ul>
 */
public final class SpawnJobs {
    private static final Pattern REFUSED = Pattern.compile("CHILD REFUSED clause=(\\d) owner=(-?\\d+)");
    private static final Pattern MESSAGE = Pattern.compile("CHILD MESSAGE (.*)");

    private SpawnJobs() {
    }

    public static void main(String[] args) throws Exception {
        String scenario = args.length == 0 ? "" : args[0];
        switch (scenario) {
            case "clauses" -> clauses();
            case "load" -> load(args.length > 1 && args[1].equals("pb"));
            case "misc" -> misc();
            case "report" -> report();
            case "hello" -> {
                try (Shmem s = Shmem.init()) {
                    System.out.println("INITIALIZED " + s.myPe());
                    s.barrierAll();
                }
            }
            default -> {
                System.err.println("usage: SpawnJobs clauses | load [pb] | misc | report | hello");
                System.exit(2);
            }
        }
        System.out.flush();
        System.exit(Check.failures() == 0 ? 0 : 1);
    }

    // ---------------------------------------------------------------- clauses 1 and 2

    private static void clauses() throws Exception {
        int pe = Integer.parseInt(System.getenv("JSHMEM_PE"));
        long me = ProcessHandle.current().pid();
        Process waiting = null;
        if (pe == 0) {
            // Before init.
            expectRefused("pb-before-init", pe, runJava(List.of()), 1, me, "has not initialized jshmem yet");
            expectRefused("spawn-before-init", pe, runSpawnedJava(), 1, me, "before it initialized jshmem");
            checkEcho("spawn-works-before-init", pe);
            waiting = startJava(List.of("wait"));
            String ready = new BufferedReader(new InputStreamReader(waiting.getInputStream(), StandardCharsets.UTF_8)).readLine();
            Check.check("pb-child-ready", pe, "READY".equals(ready), ready);
        }
        Shmem shmem = Shmem.init();
        if (pe == 0) {
            OutputStream in = waiting.getOutputStream();
            in.write("go\n".getBytes(StandardCharsets.UTF_8));
            in.flush();
            expectRefused("pb-created-before-init-tried-after", pe, finish(waiting), 1, me, "before it initialized jshmem");
            // Within the OpenSHMEM portion.
            expectRefused("pb-within", pe, runJava(List.of()), 2, me, "is still running it");
            expectRefused("spawn-within", pe, runSpawnedJava(), 2, me, "within the OpenSHMEM portion");
            checkEnvironmentStripped(pe, shmem);
            checkEcho("spawn-works-within", pe);
        }
        // The job was not disturbed: a ring of puts, checked on every PE.
        SymLongArray ring = shmem.calloc(SymType.LONG, 1);
        int n = shmem.nPes();
        shmem.p(ring, 0, 1000 + pe, (pe + 1) % n);
        shmem.barrierAll();
        long got = ring.get(0);
        Check.check("job-undisturbed", pe, got == 1000 + (pe - 1 + n) % n, "ring value " + got);
        shmem.close();
        if (pe == 0) {
            // After finalize.
            checkEcho("spawn-works-after-finalize", pe);
            expectRefused("spawn-after-finalize", pe, runSpawnedJava(), 2, me, "after it finalized jshmem");
            expectRefused("pb-after-finalize", pe, runJava(List.of()), 2, me, "has since finalized");
        }
    }

    /** The child's output and exit status. */
    record ChildResult(String output, int status) {
    }

    private static List<String> javaCommand(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-Xshare:auto", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), ChildInit.class.getName()));
        cmd.addAll(args);
        return cmd;
    }

    /** A child JVM started by plain ProcessBuilder: it inherits this PE's whole environment. */
    private static Process startJava(List<String> args) throws IOException {
        return new ProcessBuilder(javaCommand(args)).redirectErrorStream(true).start();
    }

    private static ChildResult runJava(List<String> args) throws Exception {
        return finish(startJava(args));
    }

    private static ChildResult finish(Process p) throws Exception {
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new ChildResult(out, p.waitFor());
    }

    /** A child JVM started by Spawn. */
    private static ChildResult runSpawnedJava() throws Exception {
        try (Subprocess p = Spawn.command(javaCommand(List.of())).redirectErrorStream(true).stdin(Redirect.INHERIT).start()) {
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
            return new ChildResult(out, p.waitFor());
        }
    }

    private static void expectRefused(String name, int pe, ChildResult r, int clause, long owner, String phrase) {
        Matcher m = REFUSED.matcher(r.output());
        Matcher msg = MESSAGE.matcher(r.output());
        String message = msg.find() ? msg.group(1) : "";
        boolean ok = r.status() == 3 && m.find() && Integer.parseInt(m.group(1)) == clause
                && Long.parseLong(m.group(2)) == owner && message.contains("clause " + clause)
                && message.contains("process " + owner) && message.contains(phrase);
        Check.check(name, pe, ok, ok ? "clause " + clause + ", owner " + owner : "expected clause " + clause + ", owner "
                + owner + ", \"" + phrase + "\"; status " + r.status() + ", child said: " + r.output().strip());
        if (ok) {
            System.out.println("MESSAGE " + name + " " + message);
        }
    }

    private static void checkEcho(String name, int pe) throws Exception {
        try (Subprocess p = Spawn.command("echo", "hello from a child of PE " + pe).stdin(Redirect.INHERIT).start()) {
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8).strip();
            int status = p.waitFor();
            Check.check(name, pe, status == 0 && out.equals("hello from a child of PE " + pe), "status " + status + ", out " + out);
        }
    }

    private static void checkEnvironmentStripped(int pe, Shmem shmem) throws Exception {
        try (Subprocess p = Spawn.command("env").stdin(Redirect.INHERIT).start()) {
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            List<String> leaked = new ArrayList<>();
            for (String v : List.of("JSHMEM_JOBID", "JSHMEM_PE", "JSHMEM_NPES", "JSHMEM_SECRET", "JSHMEM_SECRET_FILE",
                    "JSHMEM_BOOTSTRAP", "JSHMEM_NODE", "JSHMEM_LOCAL_PE", "JSHMEM_LOCAL_NPES",
                    "JSHMEM_PROCESS_MAPPING")) {
                if (out.lines().anyMatch(l -> l.startsWith(v + "="))) {
                    leaked.add(v);
                }
            }
            // oshrun hands the secret over in a file the PE deleted at init: none in any environment, nothing to read.
            if (System.getenv("JSHMEM_SECRET") != null) {
                leaked.add("JSHMEM_SECRET in the PE's own environment");
            }
            String secretFile = System.getenv("JSHMEM_SECRET_FILE");
            if (secretFile == null) {
                leaked.add("(no JSHMEM_SECRET_FILE in the PE: not started by oshrun?)");
            } else if (java.nio.file.Files.exists(java.nio.file.Path.of(secretFile))) {
                leaked.add("the secret's file " + secretFile + ", still there");
            }
            String marker = out.lines().filter(l -> l.startsWith("JSHMEM_SPAWNED_BY=")).findFirst().orElse("");
            String expected = "JSHMEM_SPAWNED_BY=pid=" + ProcessHandle.current().pid() + " job=" + System.getenv("JSHMEM_JOBID")
                    + " pe=" + shmem.myPe() + " phase=initialized";
            Check.check("spawn-env-stripped", pe, leaked.isEmpty() && marker.equals(expected),
                    "leaked " + leaked + ", marker " + marker + ", expected " + expected);
        }
    }

    // ---------------------------------------------------------------- spawn under load

    private static final int WORDS = 4096;
    private static final int COUNTERS = 64;
    private static final int LOG = 1 << 18;
    private static final int LOG_CHUNK = 8;
    private static final int SPAWNS = 200;

    private static void load(boolean processBuilderOnly) throws Exception {
        try (Shmem shmem = Shmem.init()) {
            int pe = shmem.myPe();
            if (shmem.nPes() != 2) {
                throw new IllegalStateException("load needs 2 PEs");
            }
            SymLongArray words = shmem.calloc(SymType.LONG, WORDS);
            SymLongArray counts = shmem.calloc(SymType.LONG, COUNTERS);
            SymLongArray log = shmem.calloc(SymType.LONG, LOG);
            SymLongArray done = shmem.calloc(SymType.LONG, 1);
            SymLongArray totals = shmem.calloc(SymType.LONG, 2); // rounds, log words written
            shmem.barrierAll();
            if (pe == 1) {
                long round = 0;
                int logged = 0;
                long[] chunk = new long[LOG_CHUNK];
                boolean last = false;
                while (true) {
                    round++;
                    for (int i = 0; i < WORDS; i++) {
                        shmem.p(words, i, round << 32 | i, 0);
                    }
                    for (int k = 0; k < COUNTERS; k++) {
                        shmem.atomicInc(counts, k, 0);
                    }
                    if (logged + LOG_CHUNK <= LOG) {
                        for (int i = 0; i < LOG_CHUNK; i++) {
                            chunk[i] = logged + i + 1L;
                        }
                        shmem.put(log, logged, chunk, 0, LOG_CHUNK, 0);
                        logged += LOG_CHUNK;
                    }
                    if (last) {
                        break;
                    }
                    // One more full round after PE 0 says it is done spawning.
                    last = shmem.atomicFetch(done, 0, 1) != 0;
                }
                shmem.quiet();
                shmem.p(totals, 0, round, 0);
                shmem.p(totals, 1, logged, 0);
                System.out.println("PE 1 streamed " + round + " rounds, " + logged + " log words");
            } else {
                // Spawn only once PE 1 is streaming.
                shmem.waitUntil(counts, 0, Cmp.GE, 1);
                long startedRounds = counts.get(0);
                int bad = 0;
                StringBuilder firstBad = new StringBuilder();
                for (int j = 0; j < SPAWNS; j++) {
                    Spawn.Mechanism m = processBuilderOnly ? Spawn.Mechanism.PROCESS_BUILDER
                            : j % 2 == 0 ? Spawn.Mechanism.PROCESS_BUILDER : Spawn.Mechanism.POSIX_SPAWN;
                    try (Subprocess p = Spawn.command("sh", "-c", "echo spawned-$1; exit $(( $1 % 4 ))", "sh", Integer.toString(j))
                            .stdin(Redirect.INHERIT).stderr(Redirect.INHERIT).mechanism(m).start()) {
                        String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8).strip();
                        int status = p.waitFor();
                        if (!out.equals("spawned-" + j) || status != j % 4) {
                            if (bad++ == 0) {
                                firstBad.append("spawn ").append(j).append(" (").append(p.mechanism()).append("): out ")
                                        .append(out).append(", status ").append(status);
                            }
                        }
                    }
                }
                long duringRounds = counts.get(0) - startedRounds;
                Check.check("load-spawns", pe, bad == 0, SPAWNS + " spawns, " + bad + " wrong" + (bad > 0 ? ": " + firstBad : ""));
                Check.check("load-overlap", pe, duringRounds > 0, "PE 1 completed " + duringRounds + " rounds while PE 0 spawned");
                shmem.p(done, 0, 1, 1);
                shmem.quiet();
            }
            shmem.barrierAll();
            if (pe == 0) {
                long rounds = totals.get(0);
                long logged = totals.get(1);
                int wrongWords = 0;
                for (int i = 0; i < WORDS; i++) {
                    wrongWords += words.get(i) == (rounds << 32 | i) ? 0 : 1;
                }
                int wrongCounts = 0;
                for (int k = 0; k < COUNTERS; k++) {
                    wrongCounts += counts.get(k) == rounds ? 0 : 1;
                }
                int wrongLog = 0;
                for (int i = 0; i < LOG; i++) {
                    wrongLog += log.get(i) == (i < logged ? i + 1L : 0L) ? 0 : 1;
                }
                Check.check("load-words", pe, wrongWords == 0, WORDS + " words of round " + rounds + ", " + wrongWords + " wrong");
                Check.check("load-counts", pe, wrongCounts == 0, COUNTERS + " counters, each expected " + rounds + ", "
                        + wrongCounts + " wrong (counter 0 = " + counts.get(0) + ")");
                Check.check("load-log", pe, wrongLog == 0 && logged > 0, logged + " streamed words, " + wrongLog + " wrong");
                checkNoZombies("load-no-zombies", pe);
            }
        }
    }

    // ---------------------------------------------------------------- misc

    private static void misc() throws Exception {
        try (Shmem shmem = Shmem.init()) {
            int pe = shmem.myPe();
            for (Spawn.Mechanism m : List.of(Spawn.Mechanism.PROCESS_BUILDER, Spawn.Mechanism.POSIX_SPAWN)) {
                String cmd = "no-such-command-" + pe;
                try {
                    Subprocess p = Spawn.command(cmd, "arg").mechanism(m).start();
                    Check.check("nonexistent-" + m, pe, false, "started pid " + p.pid());
                } catch (SpawnException e) {
                    String msg = e.getMessage();
                    Check.check("nonexistent-" + m, pe, msg.contains("\"" + cmd + "\" not found on PATH") && msg.startsWith("PE " + pe + ": "), msg);
                }
                try (Subprocess p = Spawn.command("sleep", "60").mechanism(m).stdin(Redirect.INHERIT).start()) {
                    p.destroy();
                    int status = p.waitFor();
                    Check.check("destroy-" + m, pe, status == 128 + 15 && p.exitStatus().orElse(-1) == status, "status " + status);
                }
                Subprocess unwaited = Spawn.command("true").mechanism(m).stdin(Redirect.INHERIT).start();
                unwaited.onExit().join(); // nobody calls waitFor: the handle reaps anyway
            }
            checkNoZombies("misc-no-zombies", pe);
            shmem.barrierAll();
        }
    }

    /** No child of this process is a zombie (state Z in /proc/<pid>/stat). */
    private static void checkNoZombies(String name, int pe) throws IOException {
        long me = ProcessHandle.current().pid();
        List<String> zombies = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
                String stat;
                try {
                    stat = Files.readString(p.resolve("stat"));
                } catch (IOException e) {
                    continue;
                }
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                if (Long.parseLong(f[1]) == me && f[0].equals("Z")) {
                    zombies.add(p.getFileName().toString());
                }
            }
        }
        Check.check(name, pe, zombies.isEmpty(), "zombie children: " + zombies);
    }

    // ---------------------------------------------------------------- report

    private static void report() {
        ForkSafetyReport before = Shmem.forkSafety();
        for (String line : before.lines()) {
            System.out.println("BEFORE " + line);
        }
        System.out.println("BEFORE safe=" + before.safe());
        try (Shmem shmem = Shmem.init()) {
            ForkSafetyReport after = shmem.forkSafetyReport();
            if (shmem.myPe() == 0) {
                for (String line : after.lines()) {
                    System.out.println("AFTER " + line);
                }
                System.out.println("AFTER safe=" + after.safe() + " isForkSafe=" + shmem.isForkSafe()
                        + " static=" + Shmem.forkSafety().safe());
                for (String r : after.reasons()) {
                    System.out.println("REASON " + r);
                }
            }
            boolean again = Shmem.forkSafety().safe();
            Check.check("report-consistent", shmem.myPe(), after.safe() == shmem.isForkSafe() && again == after.safe(),
                    "report safe " + after.safe() + ", isForkSafe " + shmem.isForkSafe() + ", Shmem.forkSafety() " + again);
            shmem.barrierAll();
        }
    }
}
