/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A JDK ahead-of-time cache (JEP 483/514) of the JDK and jshmem classes a PE loads, so that PE
 * JVMs start in about a third of the CPU time, and one of the classes oshrun's own launcher JVM
 * loads. Used when jshmem runs from jars (the binary
 * distribution's {@code lib/}; a class directory cannot be archived) and {@code JSHMEM_AOT} is not
 * {@code off}. The cache lives in a per-user directory ({@code JSHMEM_CACHE_DIR}, default
 * {@code $XDG_CACHE_HOME/jshmem} or {@code ~/.cache/jshmem}, mode 0700), named by a hash of the
 * JDK and of every jar (path, size, modification time; the launcher's jar too), so an update makes
 * a new one; the four most recent are kept.
 *
 * <p>The launcher's cache is chosen by {@code bin/oshrun} before any JVM runs, so it is named by
 * what the script knows: {@code launcher-<hash>.aot}, a hash of
 * {@code "<java>|<jshmem class path>"} ({@link #launcherName}). Beside it {@code launcher-<hash>.key}
 * holds the key (JDK and jar versions) it was made for: when the jars change in place the JVM ignores
 * the cache, and the next successful job makes a new one.
 *
 * <p>It is made after the first successful job that finds none: a two-PE training job of
 * {@code io.jshmem.core.aot.AotTraining} (in shmem-core's jar, since the PEs run it and never see
 * the launcher's; and a class directory on a recording JVM's class path must be empty), started by this launcher as real jobs are (bootstrap, sockets, the PEs'
 * options), records which classes a PE loads; over UCX ({@code UCX_TLS=tcp,self}, which also
 * covers what a shared-memory PE loads) when that job succeeds, else over shared memory (no
 * libucp). Each training PE records its own configuration; one of them is assembled into the
 * cache, which is renamed into place atomically (concurrent first jobs just both make one). Nothing depends on
 * it for correctness: PEs get {@code -Xlog:aot=off -Xlog:cds=off} besides {@code -XX:AOTCache},
 * so a cache the JVM cannot use (corrupt, other JDK) is silently ignored and only costs time.
 * The PEs' class path starts with jshmem's jars whenever the cache is in use, since the JVM only
 * uses a cache whose class path is a prefix of the run's. The launcher's cache is made for the
 * launcher's class path (jshmem's jars, then the launcher's), which bin/oshrun gives it.
 */
final class AotCache {
    static final String TRAINING_MAIN = "io.jshmem.core.aot.AotTraining";
    /**
     * Set on the launcher of a training job: its PEs record an AOT configuration into this file
     * pattern ({@code %p}: the PE's pid) instead of using a cache, and it makes no cache itself.
     */
    static final String RECORD_PROPERTY = Setting.AOT_RECORD.key();
    /**
     * Printed on stderr before the cache is made, after the job: making it keeps oshrun running for
     * 5-20 s (a training job and two JVMs assembling caches; 10-21 s on a loaded 2-core machine)
     * after the program's last output, which otherwise looks like a hang. It is made in the
     * foreground rather than by a process left behind, so that whoever waits for oshrun (a script,
     * a batch system's step, a test) also waits for the files it writes.
     */
    static final String NOTICE = "oshrun: the job is done; making this installation's start-up cache for the"
            + " next jobs, once (about 5-20 s; JSHMEM_AOT=off skips it)";
    private static final int TRAINING_PES = 2;
    /** The training job's own --timeout; the launcher step gets longer, to end it cleanly first. */
    private static final int TRAINING_JOB_TIMEOUT_SECONDS = 60;
    private static final long STEP_TIMEOUT_SECONDS = 120;
    /** Caches kept in the directory: each is about 20 MB (a launcher's about 15 MB). */
    private static final int KEEP = 4;
    /**
     * The launcher JVM's options in {@code bin/oshrun} when it uses a cache, which the training
     * launcher and the cache's assembly use too. (Without a cache oshrun adds -Xshare:auto, which
     * the JVM rejects beside -XX:AOTCache.) UserThreadWaitAttemptsAtExit=0: at System.exit the JVM
     * otherwise waits up to 300 ms for threads in native code to stop, and the launcher always has
     * one, the JDK's poller thread of its virtual threads' sockets, blocked in epoll_wait: every job
     * ended 0.3 s after its last PE (a 4-PE hello world 0.58 s of wall time instead of 0.27).
     * CompileThresholdScaling=20: a small job's launcher runs little code often enough to repay
     * compiling it (a 4-PE hello world: 0.38-0.39 CPU-s for the job instead of 0.41-0.42, medians of
     * 2 x 8 interleaved runs); a large job's server and output loops still run hot enough.
     */
    static final List<String> LAUNCHER_JVM_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
            "-XX:UserThreadWaitAttemptsAtExit=0", "-XX:CompileThresholdScaling=20");
    private static final List<String> QUIET = List.of("-Xlog:aot=off", "-Xlog:cds=off");
    /**
     * Recorded without method profiles (JEP 515): replaying the training job's profiles makes every
     * JVM compile at start-up what the training ran hot, ~15% of a 4-PE hello world's CPU, for a
     * warm-up gain real programs get from their own profiles anyway. (Diagnostic flags; ignored
     * where a JDK no longer knows them, which then only costs that time again.)
     */
    private static final List<String> NO_PROFILES = List.of("-XX:+UnlockDiagnosticVMOptions",
            "-XX:+IgnoreUnrecognizedVMOptions", "-XX:-AOTRecordTraining");

    private final Path file;
    /** The launcher's cache, and the file naming the {@link #key} it was made for; null in a training job. */
    private final Path launcherFile;
    private final Path launcherKeyFile;
    /** The JDK and jars this installation runs: the PE cache's name, the launcher cache's key file's content. */
    private final String key;
    private final String java;
    private final String classpath;
    /** The launcher JVM's class path: jshmem's, then the launcher's jar. */
    private final String launcherClasspath;
    /** The configuration file pattern the PEs record into (a training job), or null. */
    private final String record;

    private AotCache(Path file, Path launcherFile, String key, String java, String classpath, String launcherClasspath,
            String record) {
        this.file = file;
        this.launcherFile = launcherFile;
        this.launcherKeyFile = launcherFile == null ? null
                : launcherFile.resolveSibling(launcherFile.getFileName().toString().replaceFirst("\\.aot$", ".key"));
        this.key = key;
        this.java = java;
        this.classpath = classpath;
        this.launcherClasspath = launcherClasspath;
        this.record = record;
    }

    /** {@link #of(String, String, String, Map)} for a launcher whose class path is jshmem's alone. */
    static AotCache of(String java, String jshmemClasspath, Map<String, String> env) {
        return of(java, jshmemClasspath, jshmemClasspath, env);
    }

    /**
     * The cache for these PEs, or null when none can be used (disabled, or jshmem or the launcher
     * not in jars). {@code launcherClasspath}: this launcher JVM's (jshmem's, then the launcher's jar).
     */
    static AotCache of(String java, String jshmemClasspath, String launcherClasspath, Map<String, String> env) {
        String record = Settings.system().text(Setting.AOT_RECORD);
        if (record != null && !record.isBlank() && !jshmemClasspath.isEmpty()) {
            return new AotCache(null, null, null, java, jshmemClasspath, launcherClasspath, record);
        }
        if (!Settings.of(env).on(Setting.JSHMEM_AOT) || jshmemClasspath.isEmpty()) {
            return null;
        }
        Path dir = directory(env);
        if (dir == null) {
            return null;
        }
        try {
            // A cache is code the PEs run: none from (or into) a directory another user controls.
            String problem = Files.exists(dir) ? OwnDirectory.othersControl(dir) : null;
            if (problem != null) {
                System.err.println("oshrun: not using the start-up cache directory " + dir + ": it " + problem
                        + " (set JSHMEM_CACHE_DIR to a directory of your own, or JSHMEM_AOT=off)");
                return null;
            }
            // FNV-1a, not a MessageDigest: the security providers cost the launcher ~100 ms of class
            // loading, and a collision costs no more than a missing cache (the JVM checks the jars).
            long hash = FNV_OFFSET;
            Path javaBin = Path.of(java).toRealPath();
            Path modules = javaBin.getParent().resolveSibling("lib").resolve("modules");
            hash = add(hash, javaBin.toString());
            hash = add(hash, Files.isRegularFile(modules) ? Long.toString(Files.getLastModifiedTime(modules).toMillis()) : "?");
            List<String> entries = new ArrayList<>(List.of(jshmemClasspath.split(File.pathSeparator)));
            for (String entry : launcherClasspath.split(File.pathSeparator)) {
                if (!entry.isEmpty() && !entries.contains(entry)) {
                    entries.add(entry); // the launcher's jar: its cache must be remade when it changes
                }
            }
            for (String entry : entries) {
                Path p = Path.of(entry);
                if (!entry.endsWith(".jar") || !Files.isRegularFile(p)) {
                    return null; // a class directory: the JVM archives classes from jars only
                }
                hash = add(hash, p.toRealPath() + "|" + Files.size(p) + "|" + Files.getLastModifiedTime(p).toMillis());
            }
            String key = HexFormat.of().toHexDigits(hash);
            return new AotCache(dir.resolve("pe-" + key + ".aot"), dir.resolve(launcherName(java, jshmemClasspath)), key,
                    java, jshmemClasspath, launcherClasspath, null);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static final long FNV_OFFSET = 0xcbf29ce484222325L;
    private static final long FNV_PRIME = 0x100000001b3L;

    private static long add(long hash, String s) {
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * FNV_PRIME;
        }
        return (hash ^ 0xff) * FNV_PRIME; // a separator no UTF-8 string contains
    }

    /**
     * {@code launcher-<N>.aot}, N the 32-bit FNV-1a hash (unsigned decimal) of the UTF-8 bytes of
     * {@code java + "|" + classpath}, as bin/oshrun's {@code fnv1a} computes it (in bash: a
     * {@code cksum} pipeline cost a fork and an exec on every job).
     */
    static String launcherName(String java, String classpath) {
        int hash = 0x811c9dc5;
        for (byte b : (java + "|" + classpath).getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x01000193;
        }
        return "launcher-" + Integer.toUnsignedString(hash) + ".aot";
    }

    private static Path directory(Map<String, String> env) {
        String d = env.get(Setting.JSHMEM_CACHE_DIR.key());
        if (d != null && !d.isBlank()) {
            return Path.of(d);
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "jshmem");
        }
        String home = env.getOrDefault("HOME", System.getProperty("user.home"));
        return home == null || home.isBlank() ? null : Path.of(home, ".cache", "jshmem");
    }

    Path file() {
        return file;
    }

    boolean present() {
        return file != null && Files.isRegularFile(file) && ownFile(file);
    }

    /** A cache file made by this user and writable by nobody else (see {@link #of}). */
    private static boolean ownFile(Path f) {
        try {
            return OwnDirectory.othersControl(f) == null;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    Path launcherFile() {
        return launcherFile;
    }

    /** The launcher's cache exists and was made for these jars and this JDK. */
    boolean launcherCurrent() {
        try {
            return launcherFile != null && Files.isRegularFile(launcherFile) && ownFile(launcherFile)
                    && Files.readString(launcherKeyFile, StandardCharsets.UTF_8).equals(key);
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** A cache, the PEs' or the launcher's, is yet to be made (not in a training job). */
    boolean missing() {
        return record == null && !(present() && launcherCurrent());
    }

    /** The PE JVM options that use the cache, when it exists, or that record a training PE's configuration. */
    List<String> jvmOptions() {
        if (record != null) {
            List<String> options = new ArrayList<>(List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + record));
            options.addAll(NO_PROFILES);
            options.addAll(QUIET);
            return options;
        }
        return present() ? List.of("-XX:AOTCache=" + file, "-Xlog:aot=off", "-Xlog:cds=off") : List.of();
    }

    /**
     * Makes the cache if it does not exist yet: a training job, then the assembly; quietly does
     * nothing when a step fails. Takes a few seconds, once per installation and JDK.
     */
    void createIfMissing() {
        if (!missing()) {
            return; // a training job's launcher must not train in turn
        }
        long pid = ProcessHandle.current().pid();
        Path aot = file.resolveSibling(file.getFileName() + "." + pid + ".tmp");
        Path launcherAot = launcherFile.resolveSibling(launcherFile.getFileName() + "." + pid + ".tmp");
        Path launcherKey = launcherKeyFile.resolveSibling(launcherKeyFile.getFileName() + "." + pid + ".tmp");
        Path[] work = {null};
        // oshrun interrupted (Ctrl-C, SIGTERM) while it makes the cache: the training job ends with
        // it, and its files go (the JVM runs hooks, not this method's finally block).
        Thread interrupted = new Thread(() -> {
            stopRunningStep();
            removeTemporaries(aot, launcherAot, launcherKey, work[0]);
        }, "oshrun-cache-interrupted");
        Runtime.getRuntime().addShutdownHook(interrupted);
        try {
            Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            work[0] = Files.createTempDirectory(file.getParent(), file.getFileName() + "." + pid + ".train");
            Path train = work[0];
            // The training program's class path: empty, so that the recorded class path (jshmem's
            // jars, then it) matches real PEs' up to the last entry classes came from.
            Path programClasspath = Files.createDirectory(train.resolve("cp"));
            Path trained = train(train, programClasspath, true);
            if (trained == null) {
                trained = train(train, programClasspath, false);
            }
            Path conf = trained == null ? null : peConfiguration(trained);
            if (conf == null) {
                return;
            }
            // The PEs' --enable-native-access here too: the JVM uses the cache's archived module
            // graph (and with it the archived lambda and method handle classes) only when it matches.
            List<String> create = List.of(java, "-XX:+UseSerialGC", PeCommand.NATIVE_ACCESS, "-Xlog:aot=off", "-Xlog:cds=off",
                    "-XX:AOTMode=create", "-XX:AOTConfiguration=" + conf, "-XX:AOTCache=" + aot,
                    "-cp", classpath + File.pathSeparator + programClasspath);
            if (step(create, Map.of()) && Files.isRegularFile(aot)) {
                moveIntoPlace(aot, file);
            }
            // The launcher's, from the training job's launcher: the options and class path of bin/oshrun's.
            Path launcherConf = trained.resolve(LAUNCHER_CONF);
            if (Files.isRegularFile(launcherConf)) {
                List<String> createLauncher = new ArrayList<>(List.of(java));
                createLauncher.addAll(LAUNCHER_JVM_OPTIONS);
                createLauncher.addAll(QUIET);
                createLauncher.addAll(List.of("-XX:AOTMode=create", "-XX:AOTConfiguration=" + launcherConf,
                        "-XX:AOTCache=" + launcherAot, "-cp", launcherClasspath));
                if (step(createLauncher, Map.of()) && Files.isRegularFile(launcherAot)) {
                    // The cache first, then the key that says it is current.
                    moveIntoPlace(launcherAot, launcherFile);
                    Files.writeString(launcherKey, key, StandardCharsets.UTF_8);
                    moveIntoPlace(launcherKey, launcherKeyFile);
                }
            }
            pruneOldCaches();
        } catch (IOException | RuntimeException e) {
            // no cache: the next job tries again
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(interrupted);
            } catch (IllegalStateException shuttingDown) {
                return; // the hook cleans up
            }
            removeTemporaries(aot, launcherAot, launcherKey, work[0]);
        }
    }

    private static void removeTemporaries(Path aot, Path launcherAot, Path launcherKey, Path work) {
        try {
            Files.deleteIfExists(aot);
            Files.deleteIfExists(launcherAot);
            Files.deleteIfExists(launcherKey);
            if (work != null) {
                OwnDirectory.deleteTree(work);
            }
        } catch (IOException | RuntimeException e) {
            // temporary files in the user's cache directory
        }
    }

    /** The step {@link #step} runs now (a training job's launcher, or a cache assembly), or null. Guarded by AotCache.class. */
    private static Process running;
    /** Set when oshrun is interrupted: no further step starts (the main thread runs on during the exit). */
    private static boolean stopping;

    /**
     * Ends the running step: SIGTERM first (a training job's launcher then ends its PEs and removes
     * their files as any job does), then SIGKILL to whatever of its process tree is left after 3 s.
     */
    private static void stopRunningStep() {
        Process p;
        synchronized (AotCache.class) {
            stopping = true;
            p = running;
        }
        if (p == null) {
            return;
        }
        List<ProcessHandle> tree = p.descendants().toList();
        p.destroy();
        try {
            p.waitFor(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        tree.forEach(ProcessHandle::destroyForcibly);
        p.destroyForcibly();
        // Gone before their directory is removed: a recording JVM writes its configuration as it exits.
        for (ProcessHandle h : tree) {
            try {
                h.onExit().get(2, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // removed as far as it can be
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void moveIntoPlace(Path tmp, Path target) throws IOException {
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** The training launcher's configuration, in the directory of its job. */
    private static final String LAUNCHER_CONF = "launcher.conf";

    /**
     * Runs a {@value #TRAINING_PES}-PE training job through this launcher, over UCX (TCP) or shared
     * memory, each PE recording its configuration in the directory returned, and the launcher its
     * own ({@value #LAUNCHER_CONF}).
     *
     * @return the job's directory, or null when the job failed (over UCX: no libucp, no shmem-ucx jar)
     */
    private Path train(Path work, Path programClasspath, boolean ucx) throws IOException {
        Path dir = Files.createDirectory(work.resolve(ucx ? "ucx" : "shm"));
        List<String> launcher = new ArrayList<>(List.of(java));
        launcher.addAll(LAUNCHER_JVM_OPTIONS);
        launcher.addAll(QUIET);
        launcher.addAll(NO_PROFILES);
        launcher.addAll(List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + dir.resolve(LAUNCHER_CONF),
                "-D" + Launcher.JAVA_PROPERTY + "=" + java, "-D" + Launcher.CLASSPATH_PROPERTY + "=" + classpath,
                "-D" + RECORD_PROPERTY + "=" + dir.resolve("pe-%p.conf"), "-cp", launcherClasspath, Launcher.class.getName(),
                "-np", Integer.toString(TRAINING_PES), "--timeout", Integer.toString(TRAINING_JOB_TIMEOUT_SECONDS),
                "-cp", programClasspath.toString(), TRAINING_MAIN));
        Map<String, String> env = ucx ? Map.of("SHMEM_TRANSPORT", "ucx", "UCX_TLS", "tcp,self") : Map.of();
        return step(launcher, env) && peConfiguration(dir) != null ? dir : null;
    }

    /** One training PE's configuration in {@code dir}, or null. */
    private static Path peConfiguration(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            // Every PE recorded the same work; PE processes that did not write theirs are skipped.
            return s.filter(p -> p.getFileName().toString().matches("pe-.*\\.conf") && Files.isRegularFile(p))
                    .sorted().findFirst().orElse(null);
        }
    }

    /**
     * Keeps the {@value #KEEP} most recently made PE caches of the directory (other installations,
     * old jars), and as many launcher caches (with their key files).
     */
    private void pruneOldCaches() throws IOException {
        prune("pe-[0-9a-f]{16}\\.aot");
        prune("launcher-[0-9]+\\.(aot|key)");
    }

    private void prune(String pattern) throws IOException {
        List<Path> caches;
        try (Stream<Path> s = Files.list(file.getParent())) {
            caches = s.filter(p -> p.getFileName().toString().matches(pattern)).collect(
                    Collectors.toCollection(ArrayList::new));
        }
        caches.sort(Comparator.comparing((Path p) -> {
            try {
                return Files.getLastModifiedTime(p).toMillis();
            } catch (IOException e) {
                return 0L;
            }
        }).reversed());
        int keep = pattern.startsWith("launcher") ? 2 * KEEP : KEEP; // .aot and .key
        for (Path old : caches.subList(Math.min(keep, caches.size()), caches.size())) {
            Files.deleteIfExists(old);
        }
    }

    private static boolean step(List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // A PE of no job: none of an enclosing job's identity, no SHMEM_INFO output.
        pb.environment().keySet().removeIf(k -> k.startsWith("JSHMEM_") || k.startsWith("SHMEM_") || k.startsWith("PMI")
                || k.startsWith("SLURM_") || k.startsWith("OMPI_") || k.startsWith("UCX_") || k.equals("CLASSPATH"));
        pb.environment().putAll(env);
        Process p;
        synchronized (AotCache.class) {
            if (stopping) {
                throw new IOException("oshrun was interrupted");
            }
            p = pb.start();
            running = p;
        }
        try {
            if (!p.waitFor(STEP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            return false;
        }
        return p.exitValue() == 0;
    }
}
