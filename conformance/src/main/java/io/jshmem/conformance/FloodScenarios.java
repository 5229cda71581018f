/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The job of BootstrapFloodTest: each PE waits until the file {@code args[0]} exists (the test
 * creates it once its flood of connections to the launcher's port is in full swing), then
 * initializes, sums {@code pe + 1} over the world team and prints {@code SUM <pe> <sum>}; then,
 * before finalizing, waits until the file {@code args[1]} exists (the test creates it when its
 * flood is over), so that the whole flood meets a running launcher rather than a closed port.
 */
public final class FloodScenarios {
    private FloodScenarios() {
    }

    public static void main(String[] args) throws InterruptedException {
        await(Path.of(args[0]));
        try (Shmem shmem = Shmem.init()) {
            SymLongArray src = shmem.malloc(SymType.LONG, 1);
            SymLongArray dst = shmem.malloc(SymType.LONG, 1);
            src.set(0, shmem.myPe() + 1);
            shmem.barrierAll();
            shmem.teamWorld().sumReduce(dst, src, 1);
            Out.line("SUM " + shmem.myPe() + " " + dst.get(0));
            await(Path.of(args[1]));
        }
    }

    /** Waits (at most 2 minutes) until {@code file} exists. */
    private static void await(Path file) throws InterruptedException {
        for (int i = 0; i < 12_000 && !Files.exists(file); i++) {
            Thread.sleep(10);
        }
    }
}
