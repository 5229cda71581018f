/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.Shmem;

/** A minimal jshmem program for {@link MultiHostEndToEndTest}: init, a barrier, one line, finalize. */
public final class ShmemPeMain {
    private ShmemPeMain() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            shmem.barrierAll();
            System.out.println("jshmem pe " + shmem.myPe() + " of " + shmem.nPes() + " node "
                    + System.getenv("JSHMEM_NODE"));
        }
    }
}
