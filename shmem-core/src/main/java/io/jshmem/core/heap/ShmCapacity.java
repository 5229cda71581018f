/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.heap;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Log;
import io.jshmem.core.base.NativeLibrary;
import io.jshmem.core.bootstrap.Bootstrap;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Makes sure the shared-memory directory can hold the heaps of every PE of the node before any is
 * used. A segment is a sparse file: tmpfs gives it pages only when they are touched, so a directory
 * too small for the heaps (Docker's 64 MB /dev/shm) maps fine, and the first touch of a page that
 * does not fit kills the access with SIGBUS, which the JVM turns into an InternalError far from the
 * cause. Every PE of the node compares the directory's free space (statvfs) with what the node's
 * segments need; they all see the same figures, since nothing is allocated yet; the verdicts are
 * exchanged, so every PE of the job fails, at init, naming the directory, the sizes and the fixes. With JSHMEM_SHM_PREALLOCATE
 * each PE also allocates its pages (posix_fallocate), so that nothing else on the machine can take
 * the space later.
 */
final class ShmCapacity {
    private ShmCapacity() {
    }

    /** The capacity message if {@code dir} has no room for {@code localPes} segments of {@code segmentBytes}, else null. */
    static String problem(int me, Path dir, int localPes, long segmentBytes, long userBytes) {
        long available;
        try {
            available = Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            return null; // no figures to judge by: creating the segments already worked
        }
        // Each segment's file already holds its last page (written to size it).
        long needed = localPes * segmentBytes;
        if (needed > available + localPes * 4096L) {
            return tooSmall(me, dir, localPes, segmentBytes, userBytes, needed, available).getMessage();
        }
        return null;
    }

    /**
     * A fence at which every PE learns whether any PE's node is short of room, at O(1) cost per PE
     * ({@link Bootstrap#fenceFlagged}): a PE whose node is short has put its message as
     * {@code shmcap.<pe>} before. If any is, every PE prints why (its own message, or the first
     * PE's, the one lookup) and waits at one more fence until all have, since the launcher ends the
     * job as soon as the first one exits; then throws.
     */
    static void failTogether(Bootstrap bootstrap, String mine, int[] nodeOf) {
        int firstPe = bootstrap.fenceFlagged(mine != null);
        if (firstPe < 0) {
            return;
        }
        int me = bootstrap.rank();
        String message = mine;
        if (mine != null && firstPe != me && nodeOf[firstPe] == nodeOf[me]) {
            // The first PE's words, under this PE's number: the PEs of a node reach the same verdict,
            // but each measured the free space a little later, after more of the node's segments
            // were made, and messages that differ in it would be printed once per PE, not once.
            byte[] v = bootstrap.get("shmcap." + firstPe);
            String first = v == null ? "" : new String(v, StandardCharsets.UTF_8);
            String prefix = "PE " + firstPe + ": ";
            if (first.startsWith(prefix)) {
                message = "PE " + me + ": " + first.substring(prefix.length());
            }
        } else if (message == null) {
            byte[] v = bootstrap.get("shmcap." + firstPe);
            message = "PE " + bootstrap.rank() + ": initialization failed, since another node lacks shared memory: "
                    + (v != null ? new String(v, StandardCharsets.UTF_8) : "PE " + firstPe + " reported it");
        }
        Log.HEAP.error("jshmem: " + message);
        bootstrap.fence();
        throw new ShmemException(message);
    }

    /** Allocates every page of the file at {@code path}; throws the capacity message if it does not fit. */
    static void preallocate(int me, Path path, int localPes, long segmentBytes, long userBytes) {
        int error;
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) Native.OPEN.invokeExact(arena.allocateFrom(path.toString()), 2 /* O_RDWR */);
            if (fd < 0) {
                throw new ShmemException("PE " + me + ": cannot open " + path + " to allocate its pages"
                        + " (JSHMEM_SHM_PREALLOCATE)");
            }
            try {
                error = (int) Native.FALLOCATE.invokeExact(fd, 0L, segmentBytes);
            } finally {
                int ignored = (int) Native.CLOSE.invokeExact(fd);
            }
        } catch (ShmemException e) {
            throw e;
        } catch (Throwable e) {
            throw new ShmemException("PE " + me + ": JSHMEM_SHM_PREALLOCATE: cannot call posix_fallocate: " + e, e);
        }
        if (error == 28 /* ENOSPC */) {
            long available;
            try {
                available = Files.getFileStore(path.getParent()).getUsableSpace();
            } catch (IOException e) {
                available = 0;
            }
            throw tooSmall(me, path.getParent(), localPes, segmentBytes, userBytes, localPes * segmentBytes, available);
        }
        if (error != 0) {
            throw new ShmemException("PE " + me + ": JSHMEM_SHM_PREALLOCATE: posix_fallocate of " + segmentBytes
                    + " bytes in " + path.getParent() + " failed with error " + error);
        }
    }

    private static ShmemException tooSmall(int me, Path dir, int localPes, long segmentBytes, long userBytes, long needed,
                                           long available) {
        long mib = 1L << 20;
        long shmSize = (needed + needed / 4 + mib - 1) / mib; // a quarter more, for the JVM's and others' files
        return new ShmemException("PE " + me + ": not enough shared memory in " + dir + " for the symmetric heaps: the "
                + localPes + " PE" + (localPes == 1 ? "" : "s") + " on this node need " + needed + " bytes ("
                + localPes + " x " + Config.formatSize(segmentBytes) + ": SHMEM_SYMMETRIC_SIZE " + Config.formatSize(userBytes)
                + " + " + Config.formatSize(SymmetricHeap.INTERNAL_SIZE) + " internal), " + available + " bytes ("
                + Config.formatSize(available) + ") are available. Lower SHMEM_SYMMETRIC_SIZE, set JSHMEM_SHM_DIR to a"
                + " directory on a tmpfs with more room, or give the container a larger /dev/shm (docker run --shm-size="
                + shmSize + "m)");
    }

    /** open, posix_fallocate and close of the C library; linked on first use (JSHMEM_SHM_PREALLOCATE only). */
    private static final class Native {
        static final MethodHandle OPEN = NativeLibrary.libc("open",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_INT),
                Linker.Option.firstVariadicArg(2));
        static final MethodHandle FALLOCATE = NativeLibrary.libc("posix_fallocate",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG));
        static final MethodHandle CLOSE = NativeLibrary.libc("close",
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    }
}
