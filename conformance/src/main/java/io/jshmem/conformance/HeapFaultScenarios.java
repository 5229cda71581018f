/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Jobs for HeapFaultTest: after init, PE 0 truncates its own heap segment to 0 bytes behind the
 * library's back (through /proc/self/map_files, the file itself being unlinked), so that the next
 * access to it raises SIGBUS, then calls a fetching atomic on its own heap:
 * <ul>
 * <li>{@code atomic-cold}: the first atomicFetchAdd of the program (interpreted);
 * <li>{@code atomic-hot}: after 200,000 of them in a loop, in the same loop (compiled and inlined).
 * </ul>
 * {@code THREW <exception>} tells what the call threw; the exception then leaves main, and the
 * runtime's failure path reports it and ends the job. {@code SKIP <why>} when the mapping cannot be
 * opened for writing (not root).
 */
public final class HeapFaultScenarios {
    private HeapFaultScenarios() {
    }

    public static void main(String[] args) throws IOException {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            SymLongArray counter = shmem.calloc(SymType.LONG, 1);
            boolean hot = args[0].equals("atomic-hot");
            if (hot) {
                Out.line("WARM " + loop(shmem, counter, 200_000));
            }
            shmem.barrierAll();
            if (me == 0) {
                String skip = truncateOwnSegment(me);
                if (skip != null) {
                    Out.line("SKIP " + skip);
                    return;
                }
                try {
                    long old = hot ? loop(shmem, counter, 1000) : shmem.atomicFetchAdd(counter, 0, 1, me);
                    Out.line("RETURNED " + old);
                } catch (Throwable e) {
                    Out.line("THREW " + e);
                    throw e;
                }
            }
            shmem.barrierAll();
        }
    }

    /** {@code n} fetch-adds of 1 on this PE's counter; their sum of old values. */
    private static long loop(Shmem shmem, SymLongArray counter, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += shmem.atomicFetchAdd(counter, 0, 1, shmem.myPe());
        }
        return sum;
    }

    /** Truncates the mapped segment of PE {@code me} to 0 bytes; null if done, else why not. */
    private static String truncateOwnSegment(int me) throws IOException {
        List<String> maps = Files.readAllLines(Path.of("/proc/self/maps"));
        String suffix = "-" + me;
        for (String line : maps) {
            String[] f = line.trim().split("\\s+", 6);
            if (f.length < 6) {
                continue;
            }
            String file = f[5].replace(" (deleted)", "");
            if (file.contains("/jshmem-") && file.endsWith(suffix)) {
                Path mapping = Path.of("/proc/self/map_files", f[0]);
                try (FileChannel ch = FileChannel.open(mapping, StandardOpenOption.WRITE)) {
                    ch.truncate(0);
                    return null;
                } catch (IOException | SecurityException e) {
                    return "cannot open " + mapping + " for writing: " + e;
                }
            }
        }
        return "no mapping of this PE's segment in /proc/self/maps";
    }
}
