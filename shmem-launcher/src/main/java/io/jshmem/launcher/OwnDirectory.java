/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A directory oshrun (or its PEs) writes files into by name (--output-filename, --jfr-dir): made
 * 0700 when it does not exist; one that exists must be the user's own and writable by nobody else.
 * Otherwise another user could put links there under those names, and the job would truncate and
 * write the files they point to with the user's rights (or, run by root, anyone's).
 */
final class OwnDirectory {
    private OwnDirectory() {
    }

    /** Makes {@code dir} or checks the existing one, for {@code option}; returns it. */
    static Path prepare(Path dir, String option) throws LaunchOptions.UsageException {
        try {
            if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                return Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            if (!Files.isDirectory(dir)) {
                throw new LaunchOptions.UsageException(option + " " + dir + ": not a directory");
            }
            String problem = othersControl(dir);
            if (problem != null) {
                throw new LaunchOptions.UsageException(option + " " + dir + " " + problem + ", who could replace the files"
                        + " written there with links to yours: use a directory that only you can write to (chmod go-w), or a"
                        + " new one (made 0700)");
            }
            return dir;
        } catch (IOException | UnsupportedOperationException e) {
            throw new LaunchOptions.UsageException(option + " " + dir + ": " + e.getMessage());
        }
    }

    /**
     * Whether another user controls {@code path} (a file or directory, links followed): what says so
     * ("belongs to another user (uid 1001)", "is writable by other users (mode 777)"), or null.
     */
    static String othersControl(Path path) throws IOException {
        int owner = (Integer) Files.getAttribute(path, "unix:uid");
        int mode = (Integer) Files.getAttribute(path, "unix:mode");
        if (owner != myUid()) {
            return "belongs to another user (uid " + owner + ")";
        }
        return (mode & 022) != 0 ? "is writable by other users (mode " + Integer.toOctalString(mode & 07777) + ")" : null;
    }

    /**
     * The private directory {@code name} in {@code dir} (a checked one), made or set 0700: JFR's
     * repository, whose chunks (the PE's environment among them) JFR writes with the umask's modes.
     */
    static Path privateSubdirectory(Path dir, String name, String option) throws LaunchOptions.UsageException {
        Path sub = dir.resolve(name);
        try {
            Files.createDirectories(sub, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            Files.setPosixFilePermissions(sub, PosixFilePermissions.fromString("rwx------"));
            return sub;
        } catch (IOException | UnsupportedOperationException e) {
            throw new LaunchOptions.UsageException(option + " " + dir + ": cannot make " + sub + ": " + e.getMessage());
        }
    }

    /** This process's (effective) user id: the owner of /proc/self. */
    static int myUid() throws IOException {
        return (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid");
    }

    /** Removes {@code dir} and everything in it (a directory oshrun or its PEs made). */
    static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
