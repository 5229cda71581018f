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
 * <p>It is made after the first successful job that finds none: a one-PE training run of
 * {@link AotTraining} records which classes jshmem loads, then the JDK assembles the cache, which
 * is renamed into place atomically (concurrent first jobs just both make one). Nothing depends on
 * it for correctness: PEs get {@code -Xlog:aot=off -Xlog:cds=off} besides {@code -XX:AOTCache},
 * so a cache the JVM cannot use (corrupt, other JDK) is silently ignored and only costs time.
 * The PEs' class path starts with jshmem's jars whenever the cache is in use, since the JVM only
 * uses a cache whose class path is a prefix of the run's.
 */
final class AotCache {
    static final String TRAINING_MAIN = "io.jshmem.core.launcher.AotTraining";
    private static final long STEP_TIMEOUT_SECONDS = 120;
    /** Caches kept in the directory: each is about 12 MB. */
    private static final int KEEP = 4;

    private final Path file;
    private final String java;
    private final String classpath;

    private AotCache(Path file, String java, String classpath) {
        this.file = file;
        this.java = java;
        this.classpath = classpath;
    }

    /** The cache for these PEs, or null when none can be used (disabled, or jshmem not in jars). */
    static AotCache of(String java, String jshmemClasspath, Map<String, String> env) {
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
            return new AotCache(dir.resolve("pe-" + key + ".aot"), java, jshmemClasspath);
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
        return Files.isRegularFile(file);
    }

    /** The PE JVM options that use the cache, when it exists. */
    List<String> jvmOptions() {
        return present() ? List.of("-XX:AOTCache=" + file, "-Xlog:aot=off", "-Xlog:cds=off") : List.of();
    }

    /**
     * Makes the cache if it does not exist yet: a one-PE training run, then the assembly; quietly
     * does nothing when a step fails. Takes a few seconds, once per installation and JDK.
     */
    void createIfMissing() {
        if (present()) {
            return;
        }
        long pid = ProcessHandle.current().pid();
        Path conf = file.resolveSibling(file.getFileName() + "." + pid + ".conf.tmp");
        Path aot = file.resolveSibling(file.getFileName() + "." + pid + ".tmp");
        try {
            Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            List<String> common = List.of(java, "-XX:+UseSerialGC", "-Xlog:aot=off", "-Xlog:cds=off",
                    "-XX:AOTConfiguration=" + conf, "-cp", classpath);
            List<String> record = new ArrayList<>(common);
            record.addAll(List.of("-XX:AOTMode=record", "--enable-native-access=ALL-UNNAMED", TRAINING_MAIN));
            List<String> create = new ArrayList<>(common);
            create.addAll(List.of("-XX:AOTMode=create", "-XX:AOTCache=" + aot));
            if (step(record) && Files.isRegularFile(conf) && step(create) && Files.isRegularFile(aot)) {
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
                Files.deleteIfExists(conf);
                Files.deleteIfExists(aot);
            } catch (IOException e) {
                // temporary files in the user's cache directory
            }
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

    private static boolean step(List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        // A PE of no job: none of an enclosing job's identity, no SHMEM_INFO output.
        pb.environment().keySet().removeIf(k -> k.startsWith("JSHMEM_") || k.startsWith("SHMEM_") || k.startsWith("PMI")
                || k.startsWith("SLURM_") || k.startsWith("OMPI_"));
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
