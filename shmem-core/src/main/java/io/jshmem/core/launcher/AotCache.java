package io.jshmem.core.launcher;

import io.jshmem.core.Config;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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
 * JVMs start in about a third of the CPU time. Used when jshmem runs from jars (the binary
 * distribution's {@code lib/}; a class directory cannot be archived) and {@code JSHMEM_AOT} is not
 * {@code off}. The cache lives in a per-user directory ({@code JSHMEM_CACHE_DIR}, default
 * {@code $XDG_CACHE_HOME/jshmem} or {@code ~/.cache/jshmem}, mode 0700), named by a hash of the
 * JDK and of every jar (path, size, modification time), so an update makes a new one; the four
 * most recent are kept.
 *
 * <p>It is made after the first successful job that finds none: a two-PE training job of
 * {@link AotTraining}, started by this launcher as real jobs are (bootstrap, sockets, the PEs'
 * options), records which classes a PE loads; over UCX ({@code UCX_TLS=tcp,self}, which also
 * covers what a shared-memory PE loads) when that job succeeds, else over shared memory (no
 * libucp). Each training PE records its own configuration; one of them is assembled into the
 * cache, which is renamed into place atomically (concurrent first jobs just both make one). Nothing depends on
 * it for correctness: PEs get {@code -Xlog:aot=off -Xlog:cds=off} besides {@code -XX:AOTCache},
 * so a cache the JVM cannot use (corrupt, other JDK) is silently ignored and only costs time.
 * The PEs' class path starts with jshmem's jars whenever the cache is in use, since the JVM only
 * uses a cache whose class path is a prefix of the run's.
 */
final class AotCache {
    static final String TRAINING_MAIN = "io.jshmem.core.launcher.AotTraining";
    /**
     * Set on the launcher of a training job: its PEs record an AOT configuration into this file
     * pattern ({@code %p}: the PE's pid) instead of using a cache, and it makes no cache itself.
     */
    static final String RECORD_PROPERTY = "jshmem.aot.record";
    private static final int TRAINING_PES = 2;
    /** The training job's own --timeout; the launcher step gets longer, to end it cleanly first. */
    private static final int TRAINING_JOB_TIMEOUT_SECONDS = 60;
    private static final long STEP_TIMEOUT_SECONDS = 120;
    /** Caches kept in the directory: each is about 20 MB. */
    private static final int KEEP = 4;

    private final Path file;
    private final String java;
    private final String classpath;
    /** The configuration file pattern the PEs record into (a training job), or null. */
    private final String record;

    private AotCache(Path file, String java, String classpath, String record) {
        this.file = file;
        this.java = java;
        this.classpath = classpath;
        this.record = record;
    }

    /** The cache for these PEs, or null when none can be used (disabled, or jshmem not in jars). */
    static AotCache of(String java, String jshmemClasspath, Map<String, String> env) {
        String record = System.getProperty(RECORD_PROPERTY);
        if (record != null && !record.isBlank() && !jshmemClasspath.isEmpty()) {
            return new AotCache(null, java, jshmemClasspath, record);
        }
        String mode = env.get("JSHMEM_AOT");
        if (mode != null && !mode.isBlank() && !Config.flag(mode) || jshmemClasspath.isEmpty()) {
            return null;
        }
        Path dir = directory(env);
        if (dir == null) {
            return null;
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            Path javaBin = Path.of(java).toRealPath();
            Path modules = javaBin.getParent().resolveSibling("lib").resolve("modules");
            add(sha, javaBin.toString());
            add(sha, Files.isRegularFile(modules) ? Long.toString(Files.getLastModifiedTime(modules).toMillis()) : "?");
            for (String entry : jshmemClasspath.split(File.pathSeparator)) {
                Path p = Path.of(entry);
                if (!entry.endsWith(".jar") || !Files.isRegularFile(p)) {
                    return null; // a class directory: the JVM archives classes from jars only
                }
                add(sha, p.toRealPath() + "|" + Files.size(p) + "|" + Files.getLastModifiedTime(p).toMillis());
            }
            String key = HexFormat.of().formatHex(sha.digest(), 0, 8);
            return new AotCache(dir.resolve("pe-" + key + ".aot"), java, jshmemClasspath, null);
        } catch (IOException | NoSuchAlgorithmException | RuntimeException e) {
            return null;
        }
    }

    private static void add(MessageDigest sha, String s) {
        sha.update(s.getBytes(StandardCharsets.UTF_8));
        sha.update((byte) 0);
    }

    private static Path directory(Map<String, String> env) {
        String d = env.get("JSHMEM_CACHE_DIR");
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
        return file != null && Files.isRegularFile(file);
    }

    /** The PE JVM options that use the cache, when it exists, or that record a training PE's configuration. */
    List<String> jvmOptions() {
        if (record != null) {
            return List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + record, "-Xlog:aot=off", "-Xlog:cds=off");
        }
        return present() ? List.of("-XX:AOTCache=" + file, "-Xlog:aot=off", "-Xlog:cds=off") : List.of();
    }

    /**
     * Makes the cache if it does not exist yet: a training job, then the assembly; quietly does
     * nothing when a step fails. Takes a few seconds, once per installation and JDK.
     */
    void createIfMissing() {
        if (record != null || present()) {
            return; // a training job's launcher must not train in turn
        }
        long pid = ProcessHandle.current().pid();
        Path aot = file.resolveSibling(file.getFileName() + "." + pid + ".tmp");
        Path work = null;
        try {
            Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            work = Files.createTempDirectory(file.getParent(), file.getFileName() + "." + pid + ".train");
            // The training program's class path: empty, so that the recorded class path (jshmem's
            // jars, then it) matches real PEs' up to the last entry classes came from.
            Path programClasspath = Files.createDirectory(work.resolve("cp"));
            Path conf = train(work, programClasspath, true);
            if (conf == null) {
                conf = train(work, programClasspath, false);
            }
            if (conf == null) {
                return;
            }
            // The PEs' --enable-native-access here too: the JVM uses the cache's archived module
            // graph (and with it the archived lambda and method handle classes) only when it matches.
            List<String> create = List.of(java, "-XX:+UseSerialGC", PeCommand.NATIVE_ACCESS, "-Xlog:aot=off", "-Xlog:cds=off",
                    "-XX:AOTMode=create", "-XX:AOTConfiguration=" + conf, "-XX:AOTCache=" + aot,
                    "-cp", classpath + File.pathSeparator + programClasspath);
            if (step(create, Map.of()) && Files.isRegularFile(aot)) {
                try {
                    Files.move(aot, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(aot, file, StandardCopyOption.REPLACE_EXISTING);
                }
                pruneOldCaches();
            }
        } catch (IOException | RuntimeException e) {
            // no cache: the next job tries again
        } finally {
            try {
                Files.deleteIfExists(aot);
                if (work != null) {
                    try (Stream<Path> s = Files.walk(work)) {
                        for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(p);
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                // temporary files in the user's cache directory
            }
        }
    }

    /**
     * Runs a {@value #TRAINING_PES}-PE training job through this launcher, over UCX (TCP) or shared
     * memory, each PE recording its configuration in {@code work}.
     *
     * @return one PE's configuration, or null when the job failed (over UCX: no libucp, no shmem-ucx jar)
     */
    private Path train(Path work, Path programClasspath, boolean ucx) throws IOException {
        Path dir = Files.createDirectory(work.resolve(ucx ? "ucx" : "shm"));
        List<String> launcher = List.of(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
                "-D" + Launcher.JAVA_PROPERTY + "=" + java, "-D" + Launcher.CLASSPATH_PROPERTY + "=" + classpath,
                "-D" + RECORD_PROPERTY + "=" + dir.resolve("pe-%p.conf"), "-cp", classpath, Launcher.class.getName(),
                "-np", Integer.toString(TRAINING_PES), "--timeout", Integer.toString(TRAINING_JOB_TIMEOUT_SECONDS),
                "-cp", programClasspath.toString(), TRAINING_MAIN);
        Map<String, String> env = ucx ? Map.of("SHMEM_TRANSPORT", "ucx", "UCX_TLS", "tcp,self") : Map.of();
        if (!step(launcher, env)) {
            return null;
        }
        try (Stream<Path> s = Files.list(dir)) {
            // Every PE recorded the same work; PE processes that did not write theirs are skipped.
            return s.filter(p -> p.getFileName().toString().endsWith(".conf") && Files.isRegularFile(p))
                    .sorted().findFirst().orElse(null);
        }
    }

    /** Keeps the {@value #KEEP} most recently made caches of the directory (other installations, old jars). */
    private void pruneOldCaches() throws IOException {
        List<Path> caches;
        try (Stream<Path> s = Files.list(file.getParent())) {
            caches = s.filter(p -> p.getFileName().toString().matches("pe-[0-9a-f]{16}\\.aot")).collect(
                    Collectors.toCollection(ArrayList::new));
        }
        caches.sort(Comparator.comparing((Path p) -> {
            try {
                return Files.getLastModifiedTime(p).toMillis();
            } catch (IOException e) {
                return 0L;
            }
        }).reversed());
        for (Path old : caches.subList(Math.min(KEEP, caches.size()), caches.size())) {
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
        Process p = pb.start();
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
