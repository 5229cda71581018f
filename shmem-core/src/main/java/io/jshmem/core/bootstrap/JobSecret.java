/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.LaunchEnv;
import static io.jshmem.core.bootstrap.BootstrapProtocol.SECRET_BYTES;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * How the job's bootstrap secret reaches a PE without ever being in its environment (which JFR's
 * {@code jdk.InitialEnvironmentVariable} events, {@code /proc/<pid>/environ}, crash reports and the
 * environment of every subprocess would carry): oshrun writes it, in hex, to a file of mode 0600 in a
 * directory of mode 0700 ({@link #handOver}), and tells the PE the file's path in
 * {@link LaunchEnv#SECRET_FILE}. The PE reads the file when it first connects and deletes it at once
 * ({@link #of}); it keeps the secret in memory for a re-initialization (1.6) in the same process.
 * oshrun removes the directory at the end of the job, with the file of any PE that never read it. A
 * remote PE's start script does the same on its host ({@code RemoteCommand}).
 *
 * <p>{@link LaunchEnv#SECRET} (the hex itself in the environment) is still accepted when no file is
 * named, for tests and hand-made launches; oshrun never sets it.
 */
public final class JobSecret {
    /** How the names of the hand-over directories begin (the remote start script's too). */
    public static final String DIRECTORY_PREFIX = "jshmem-secret-";
    private static final Pattern HEX = Pattern.compile("[0-9a-fA-F]{" + 2 * SECRET_BYTES + "}");
    private static final FileAttribute<?> PRIVATE_DIRECTORY =
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"));
    /** Secrets this process has read, by file: the file is gone after the first initialization. */
    private static final Map<String, byte[]> READ = new ConcurrentHashMap<>();

    private JobSecret() {
    }

    /**
     * The job secret given to this PE: read from the file {@link LaunchEnv#SECRET_FILE} names, which
     * is then deleted (or from memory, if this process read it before), else from {@link LaunchEnv#SECRET}.
     *
     * @throws IllegalStateException if neither is set, or the file is missing, unreadable or garbled
     */
    static byte[] of(Map<String, String> env) {
        String file = env.get(LaunchEnv.SECRET_FILE);
        if (file != null && !file.isEmpty()) {
            byte[] secret = READ.computeIfAbsent(file, JobSecret::readAndDelete);
            return secret.clone();
        }
        String hex = env.get(LaunchEnv.SECRET);
        if (hex == null) {
            throw new IllegalStateException("jshmem launcher environment is incomplete: " + LaunchEnv.BOOTSTRAP
                    + " is set but " + LaunchEnv.SECRET_FILE + " is not (start PEs with oshrun)");
        }
        if (!HEX.matcher(hex).matches()) {
            // Not the value: it is the secret, or close to it.
            throw new IllegalStateException("jshmem launcher environment is garbled: " + LaunchEnv.SECRET + " is not "
                    + 2 * SECRET_BYTES + " hex digits (start PEs with oshrun)");
        }
        return HexFormat.of().parseHex(hex);
    }

    private static byte[] readAndDelete(String name) {
        Path file = Path.of(name);
        String text;
        try (SeekableByteChannel channel = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            ByteBuffer buffer = ByteBuffer.allocate(2 * SECRET_BYTES + 2);
            while (buffer.hasRemaining() && channel.read(buffer) > 0) {
                // read it all (the file holds the hex and maybe a newline)
            }
            text = new String(buffer.array(), 0, buffer.position(), StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            throw new IllegalStateException("jshmem: the job secret file " + name + " (" + LaunchEnv.SECRET_FILE
                    + ") does not exist: it is read once, by the PE oshrun started, and removed (start PEs with oshrun;"
                    + " a subprocess of a PE is not a PE)", e);
        } catch (IOException e) {
            throw new IllegalStateException("jshmem: cannot read the job secret file " + name + " ("
                    + LaunchEnv.SECRET_FILE + "): " + e, e);
        } finally {
            try {
                Files.deleteIfExists(file);
                Path dir = file.getParent();
                if (dir != null && dir.getFileName().toString().startsWith(DIRECTORY_PREFIX)) {
                    // The last PE of the directory removes it: once every PE has initialized, nothing is
                    // left even if oshrun is killed.
                    Files.deleteIfExists(dir);
                }
            } catch (IOException e) {
                // Other PEs' files are still there, or it is gone: oshrun (or the remote start script)
                // removes it at the end of the job.
            }
        }
        if (!HEX.matcher(text).matches()) {
            throw new IllegalStateException("jshmem: the job secret file " + name + " (" + LaunchEnv.SECRET_FILE
                    + ") does not hold " + 2 * SECRET_BYTES + " hex digits");
        }
        return HexFormat.of().parseHex(text);
    }

    /**
     * oshrun's side, on its own host: a directory of mode 0700 holding one file of mode 0600 per local
     * PE, each the secret in hex, all written before any PE starts (the last PE to read its file
     * removes the directory). {@link #close} removes what is left.
     */
    public static final class Handover implements AutoCloseable {
        private final Path dir;
        private final String hex;

        private Handover(Path dir, String hex) {
            this.dir = dir;
            this.hex = hex;
        }

        /** The file of PE {@code pe}, read and deleted by the PE. */
        public Path fileFor(int pe) {
            return dir.resolve("pe" + pe);
        }

        private void write(int pe) throws IOException {
            Path file = fileFor(pe);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, hex, StandardCharsets.US_ASCII, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING, LinkOption.NOFOLLOW_LINKS);
        }

        /** Removes the files no PE read and the directory. Idempotent. */
        @Override
        public void close() {
            removeWithFiles(dir);
        }
    }

    /**
     * Removes what is left of this job's secret directories on this host: the hand-over directory and
     * those of remote PEs' start scripts that ran here (a "remote" host that is this one) but were
     * killed before their cleanup ran (oshrun forcibly ends an agent that does not exit in time, with
     * its children). Looks where either may have made them ({@code $XDG_RUNTIME_DIR}, {@code /dev/shm},
     * {@code $TMPDIR}, {@code /tmp}, {@code java.io.tmpdir}); follows no link and removes only
     * directories this user owns, with the files in them.
     */
    public static void sweep(String jobId, Map<String, String> env) {
        UserPrincipal me = null;
        Set<Path> bases = new LinkedHashSet<>();
        for (String candidate : new String[] {env.get("XDG_RUNTIME_DIR"), "/dev/shm", env.get("TMPDIR"), "/tmp",
                System.getProperty("java.io.tmpdir")}) {
            if (candidate != null && !candidate.isEmpty()) {
                bases.add(Path.of(candidate));
            }
        }
        for (Path base : bases) {
            try (DirectoryStream<Path> dirs = Files.newDirectoryStream(base, DIRECTORY_PREFIX + jobId + "-*")) {
                for (Path dir : dirs) {
                    if (me == null) {
                        me = base.getFileSystem().getUserPrincipalLookupService()
                                .lookupPrincipalByName(System.getProperty("user.name"));
                    }
                    if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                            && me.equals(Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS))) {
                        removeWithFiles(dir);
                    }
                }
            } catch (IOException | RuntimeException e) {
                // no such base, or not ours to read: nothing of this job there that we could remove
            }
        }
    }

    /** Deletes the entries of {@code dir} (a link is deleted, not followed), then {@code dir}. */
    private static void removeWithFiles(Path dir) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            // gone already
        }
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // not empty (someone else's file?) or gone: nothing more we can do
        }
    }

    /**
     * Creates the hand-over directory for a job (mode 0700, a new name that nobody else could have
     * made) in the first of {@code $XDG_RUNTIME_DIR}, {@code /dev/shm} (memory: the secret never
     * reaches a disk) and {@code java.io.tmpdir} that is a writable directory, with a file for each
     * of {@code pes}.
     */
    public static Handover handOver(byte[] secret, String jobId, Map<String, String> env, List<Integer> pes)
            throws IOException {
        Path base = null;
        for (String candidate : new String[] {env.get("XDG_RUNTIME_DIR"), "/dev/shm", System.getProperty("java.io.tmpdir")}) {
            if (candidate != null && !candidate.isEmpty() && Files.isDirectory(Path.of(candidate))
                    && Files.isWritable(Path.of(candidate))) {
                base = Path.of(candidate);
                break;
            }
        }
        if (base == null) {
            throw new IOException("no writable directory for the job secret (XDG_RUNTIME_DIR, /dev/shm, java.io.tmpdir)");
        }
        Path dir = createPrivateDirectory(base, DIRECTORY_PREFIX + jobId + "-");
        Handover handover = new Handover(dir, HexFormat.of().formatHex(secret));
        try {
            for (int pe : pes) {
                handover.write(pe);
            }
        } catch (IOException | RuntimeException e) {
            handover.close();
            throw e;
        }
        return handover;
    }

    /**
     * Creates a directory of mode 0700 named {@code prefix} and 16 random hex digits in {@code base}:
     * what {@link Files#createTempDirectory} does, without the SecureRandom it initializes on first
     * use (loading the security providers: ~20 ms of a launcher's start-up); a name that exists
     * already (made by anyone, a link included) is never used, another is drawn.
     */
    public static Path createPrivateDirectory(Path base, String prefix) throws IOException {
        for (int attempt = 0; ; attempt++) {
            Path dir = base.resolve(prefix + HexFormat.of().formatHex(randomBytes(8)));
            try {
                return Files.createDirectory(dir, PRIVATE_DIRECTORY);
            } catch (FileAlreadyExistsException e) {
                if (attempt == 9) {
                    throw e;
                }
            }
        }
    }

    /**
     * {@code n} random bytes from /dev/urandom, which SecureRandom reads on Linux too, without
     * loading the security providers; SecureRandom where it is missing.
     */
    public static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        try (InputStream in = new FileInputStream("/dev/urandom")) {
            if (in.readNBytes(bytes, 0, n) == n) {
                return bytes;
            }
        } catch (IOException e) {
            // below
        }
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
