/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.examples;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Producer/consumer: PE 0 puts a batch of data into PE 1, fences, then raises a flag; PE 1 waits
 * for the flag with waitUntil and checks the data. Repeated for several rounds.
 */
public final class FlagHandoff {
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int n = 256;
        try (Shmem shmem = Shmem.init()) {
            if (shmem.nPes() < 2) {
                System.out.println("FlagHandoff needs at least 2 PEs");
                return;
            }
            SymLongArray data = shmem.calloc(SymType.LONG, n);
            SymLongArray flag = shmem.calloc(SymType.LONG, 1);
            SymLongArray ack = shmem.calloc(SymType.LONG, 1);
            long[] batch = new long[n];
            for (long round = 1; round <= rounds; round++) {
                if (shmem.myPe() == 0) {
                    for (int i = 0; i < n; i++) {
                        batch[i] = round * n + i;
                    }
                    shmem.put(data, 0, batch, 0, n, 1);
                    shmem.fence();              // data before flag
                    shmem.p(flag, 0, round, 1);
                    shmem.waitUntil(ack, 0, Cmp.GE, round);
                } else if (shmem.myPe() == 1) {
                    shmem.waitUntil(flag, 0, Cmp.GE, round);
                    for (int i = 0; i < n; i++) {
                        if (data.get(i) != round * n + i) {
                            System.out.println("PE 1: round " + round + ": data[" + i + "] = " + data.get(i) + ", expected " + (round * n + i));
                            shmem.globalExit(1);
                        }
                    }
                    shmem.p(ack, 0, round, 0);
                }
            }
            if (shmem.myPe() == 1) {
                System.out.println("PE 1: received " + rounds + " batches of " + n + " values, all correct");
            }
        }
    }
}
