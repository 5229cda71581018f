/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

/**
 * One jshmem event of one PE, as the report needs it: times in nanoseconds since the job's first
 * event (so that the page holds small numbers), strings interned by {@link Recordings}.
 *
 * @param kind     the event kind (see {@link Kind})
 * @param routine  the routine ("barrier_all", "sum_reduce", "put"...), or the kind's name for events without one
 * @param team     the team of a sync or collective, else null
 * @param sequence the team's sequence number of a sync or collective (names it on every member), else 0
 * @param start    start, ns since the job's first event
 * @param duration duration in ns
 * @param bytes    bytes of a transfer, collective or allocation, else 0
 * @param target   the target PE of a transfer, else -1
 * @param algorithm the collective's algorithm when the event says it, else null
 */
record Op(Kind kind, String routine, String team, long sequence, long start, long duration, long bytes, int target,
          String algorithm) {

    long end() {
        return start + duration;
    }
}
