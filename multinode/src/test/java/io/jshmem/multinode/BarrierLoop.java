/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.multinode;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * A jshmem program for the kill tests: after a first barrier each PE prints
 * {@code ready pe P pid X host H}, then loops: an atomic add on the next PE, a barrier, forever.
 */
public final class BarrierLoop {
    private BarrierLoop() {
    }

    public static void main(String[] args) throws Exception {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            SymLongArray counter = shmem.calloc(SymType.LONG, 1);
            shmem.barrierAll();
            System.out.println("ready pe " + me + " pid " + ProcessHandle.current().pid() + " host "
                    + NodeMain.hostname());
            System.out.flush();
            while (true) {
                shmem.atomicAdd(counter, 0, 1L, (me + 1) % n);
                shmem.barrierAll();
            }
        }
    }
}
