/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.SymByteArray;
import io.jshmem.SymType;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Jobs for ShmCapacityTest, run with JSHMEM_SHM_DIR on a small tmpfs:
 * <ul>
 * <li>{@code hello}: init, a barrier, {@code PAST <pe>}, close;
 * <li>{@code fill-after-init DIR}: after init, PE 0 fills DIR with a ballast file until it is full,
 *     then writes every byte of a heap-sized array on PE 0; {@code FILLED <pe>} if that worked. With
 *     JSHMEM_SHM_PREALLOCATE the heap's pages were allocated at init and the writes cannot fault;
 *     without it they do, and {@code FAULT put|set <exception>} tells what the put and the local
 *     set threw (the set's exception then ends the job).
 * </ul>
 */
public final class ShmCapacityScenarios {
    private ShmCapacityScenarios() {
    }

    public static void main(String[] args) throws IOException {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            switch (args[0]) {
                case "hello" -> {
                    shmem.barrierAll();
                    Out.line("PAST " + me);
                }
                case "fill-after-init" -> {
                    long bytes = Long.parseLong(args[2]);
                    SymByteArray heap = shmem.malloc(SymType.BYTE, bytes);
                    shmem.barrierAll();
                    if (me == 0) {
                        Path ballast = Path.of(args[1], "ballast");
                        fill(ballast);
                        try {
                            // A bulk put (the runtime's copy path). Not p: HotSpot 25 crashes on a fault
                            // in an interpreted release store (its SIGBUS handler cannot decode the
                            // instruction), which no catch block can turn into an exception.
                            byte[] page = new byte[4096];
                            try {
                                for (long i = 0; i + page.length <= bytes; i += page.length) {
                                    shmem.put(heap, i, page, 0, page.length, me);
                                }
                            } catch (ShmemException e) {
                                Out.line("FAULT put " + e.getClass().getName() + ": " + e.getMessage());
                            }
                            for (long i = 0; i < bytes; i += 4096) {
                                heap.set(i, (byte) 1);
                            }
                        } catch (ShmemException e) {
                            Out.line("FAULT set " + e.getClass().getName() + ": " + e.getMessage());
                            throw e;
                        } finally {
                            Files.deleteIfExists(ballast);
                        }
                        Out.line("FILLED " + me);
                    }
                    shmem.barrierAll();
                }
                default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
            }
        }
    }

    /** Writes zeros to {@code file} until its file system is full. */
    private static void fill(Path file) throws IOException {
        byte[] chunk = new byte[1 << 16];
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            while (true) {
                f.write(chunk);
            }
        } catch (IOException e) {
            // full
        }
    }
}
