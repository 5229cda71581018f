/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.examples;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Each PE puts a block of values into its right neighbour's symmetric array, around the ring,
 * then checks what its left neighbour sent. Exits non-zero if any value is wrong.
 */
public final class RingPut {
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1024;
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int npes = shmem.nPes();
            SymLongArray dest = shmem.calloc(SymType.LONG, n);
            long[] block = new long[n];
            for (int i = 0; i < n; i++) {
                block[i] = me * 1_000_000L + i;
            }
            shmem.put(dest, 0, block, 0, n, (me + 1) % npes);
            shmem.barrierAll();
            int left = (me - 1 + npes) % npes;
            int bad = 0;
            for (int i = 0; i < n; i++) {
                if (dest.get(i) != left * 1_000_000L + i) {
                    bad++;
                }
            }
            System.out.println("PE " + me + ": received " + n + " values from PE " + left + (bad == 0 ? ", all correct" : ", " + bad + " WRONG"));
            shmem.barrierAll();
            if (bad != 0) {
                shmem.globalExit(1);
            }
        }
    }
}
