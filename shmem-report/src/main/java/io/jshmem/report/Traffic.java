/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

/**
 * The PE x PE traffic matrix from transfer events: row = the PE that called put or get, column =
 * the PE whose memory it read or wrote. Only transfers of at least 64 KiB are recorded as events
 * (shmem-core's Flight.TRANSFER_THRESHOLD), so smaller ones are not in it.
 */
final class Traffic {
    final long[][] bytes;
    final long[][] ops;
    /** The same split by direction: puts (data from row to column) and gets (data from column to row). */
    final long[][] putBytes;
    final long[][] getBytes;

    Traffic(Recordings.Job job) {
        int n = job.pes().size();
        bytes = new long[n][n];
        ops = new long[n][n];
        putBytes = new long[n][n];
        getBytes = new long[n][n];
        for (PeRecording p : job.pes()) {
            for (Op o : p.ops()) {
                if (o.kind() != Kind.TRANSFER || o.target() < 0 || o.target() >= n) {
                    continue;
                }
                bytes[p.pe()][o.target()] += o.bytes();
                ops[p.pe()][o.target()]++;
                (o.routine().startsWith("get") ? getBytes : putBytes)[p.pe()][o.target()] += o.bytes();
            }
        }
    }
}
