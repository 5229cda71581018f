/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.heap;

import io.jshmem.ShmemException;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Creates and maps the files in /dev/shm that hold each PE's symmetric heap. A PE creates its own
 * file (mode 0600: private to the user), its node peers map it, and it is unlinked as soon as
 * every peer has it mapped, so no segment outlives the job whatever way it ends.
 */
public final class SharedSegments {
    private SharedSegments() {
    }

    /**
     * The file name of PE {@code pe}'s segment in job {@code jobId} for its initialization
     * {@code generation} (0: the first; a re-initialization gets new names, {@code -g<n>} appended,
     * so that nothing of an earlier one can be mistaken for it); the launcher sweeps {@code jshmem-<jobId>-*}.
     */
    public static String fileName(String jobId, int generation, int pe) {
        String name = "jshmem-" + jobId + "-" + pe;
        return generation == 0 ? name : name + "-g" + generation;
    }

    /** Creates a zero-filled segment of {@code size} bytes at {@code path} and maps it into {@code arena}. */
    public static MemorySegment create(Path path, long size, Arena arena) {
        try {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            throw new ShmemException("shared-memory segment " + path + " already exists (a job with the same id?)");
        } catch (IOException e) {
            throw new ShmemException("cannot create shared-memory segment " + path + ": " + e, e);
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            // Sparse: tmpfs gives pages only when touched, so a large heap costs nothing until used.
            ch.truncate(0);
            ch.position(size - 1);
            ch.write(java.nio.ByteBuffer.wrap(new byte[1]));
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        } catch (IOException e) {
            unlinkQuietly(path);
            throw new ShmemException("cannot map shared-memory segment " + path + " of " + size
                    + " bytes (is " + path.getParent() + " full? lower SHMEM_SYMMETRIC_SIZE): " + e, e);
        }
    }

    /** Maps a peer's existing segment. */
    public static MemorySegment open(Path path, long size, Arena arena) {
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (ch.size() != size) {
                throw new ShmemException("segment " + path + " has " + ch.size() + " bytes, expected " + size
                        + " (do all PEs have the same SHMEM_SYMMETRIC_SIZE?)");
            }
            return ch.map(FileChannel.MapMode.READ_WRITE, 0, size, arena);
        } catch (IOException e) {
            throw new ShmemException("cannot map peer segment " + path + ": " + e, e);
        }
    }

    public static void unlinkQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // The launcher sweeps leftovers at the end of the job.
        }
    }
}
