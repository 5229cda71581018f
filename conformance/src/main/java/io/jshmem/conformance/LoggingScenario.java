/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;

/**
 * Every PE logs one WARNING, {@code logged by PE <pe> of <n>}, through a logger under {@code io.jshmem}
 * (so a configuration that routes jshmem's loggers routes it too), between init and finalize: for
 * the test that PE k's messages land in PE k's file.
 */
public final class LoggingScenario {
    private LoggingScenario() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            System.getLogger("io.jshmem.conformance.logging").log(System.Logger.Level.WARNING,
                    "logged by PE " + shmem.myPe() + " of " + shmem.nPes());
            shmem.barrierAll();
        }
    }
}
