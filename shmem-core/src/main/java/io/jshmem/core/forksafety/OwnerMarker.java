/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.ProcFs;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.OptionalLong;

/**
 * The owner marker: how a process shows, in its own {@code /proc/<pid>/maps}, that it claimed a PE
 * identity at init and when. At init the process creates {@code <shm dir>/jshmem-<job>-<pe>-owner-<ticks>}
 * (ticks since boot, the clock of process start times), maps one byte of it for the rest of its
 * life and unlinks it at once: what remains is a mapping shown as
 * {@code .../jshmem-<job>-<pe>-owner-<ticks> (deleted)}, no file. It survives finalize (the heap
 * segment does not), so a child created after finalize is still recognized (clause 2). Should the
 * process die between create and unlink, the launcher's sweep of {@code jshmem-<job>-*} removes
 * the file at the end of the job.
 *
 * <p>Plain file mapping, no native call: claiming costs well under a millisecond.
 */
public final class OwnerMarker {
    private static volatile boolean claimed;

    private OwnerMarker() {
    }

    /** Claims {@code id} for this process (once; failures are ignored: the marker only refines the clause named). */
    public static void claim(PeIdentity id, Path shmDir, ProcFs proc) {
        if (claimed) {
            return;
        }
        synchronized (OwnerMarker.class) {
            if (claimed) {
                return;
            }
            long ticks = proc.uptimeTicks();
            if (ticks < 0) {
                return;
            }
            Path file = shmDir.resolve(id.markerPrefix().concat(Long.toString(ticks)));
            try {
                Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                    ch.map(FileChannel.MapMode.READ_WRITE, 0, 1, Arena.global());
                }
                claimed = true;
            } catch (FileAlreadyExistsException e) {
                // Another process claimed the same PE in the same tick: its own init will fail on the heap segment.
            } catch (IOException | RuntimeException e) {
                // No marker: the guard then judges by the heap segment alone.
            } finally {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // swept by the launcher
                }
            }
        }
    }

    /** The claim time (ticks since boot) of {@code id} in a process whose mapped paths are {@code paths}, if it claimed it. */
    public static OptionalLong claimTicks(PeIdentity id, List<String> paths) {
        String prefix = id.markerPrefix();
        for (String p : paths) {
            String name = fileName(p);
            if (name.startsWith(prefix)) {
                try {
                    return OptionalLong.of(Long.parseLong(name.substring(prefix.length())));
                } catch (NumberFormatException e) {
                    // not ours
                }
            }
        }
        return OptionalLong.empty();
    }

    /**
     * Whether {@code id}'s symmetric-heap segment is among {@code paths}: the process is within the
     * SHMEM portion. A re-initialization's segment has {@code -g<n>} appended to the name.
     */
    public static boolean segmentMapped(PeIdentity id, List<String> paths) {
        String segment = id.segmentName();
        String later = segment.concat("-g");
        for (String p : paths) {
            String name = fileName(p);
            if (name.equals(segment) || name.startsWith(later) && name.length() > later.length()
                    && name.substring(later.length()).chars().allMatch(Character::isDigit)) {
                return true;
            }
        }
        return false;
    }

    /** The last component of a maps path, without the " (deleted)" the kernel appends to unlinked files. */
    static String fileName(String path) {
        String p = path.endsWith(" (deleted)") ? path.substring(0, path.length() - " (deleted)".length()) : path;
        return p.substring(p.lastIndexOf('/') + 1);
    }
}
