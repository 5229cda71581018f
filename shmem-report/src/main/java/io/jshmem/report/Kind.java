/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

/** The kinds of jshmem JFR events, by their event type names (see shmem-core's Flight and shmem-ucx). */
enum Kind {
    SYNC("jshmem.Sync"),
    COLLECTIVE("jshmem.Collective"),
    WAIT("jshmem.Wait"),
    LOCK("jshmem.Lock"),
    QUIET("jshmem.Quiet"),
    FENCE("jshmem.Fence"),
    TRANSFER("jshmem.Transfer"),
    ALLOCATION("jshmem.Allocation"),
    UCX_PROGRESS("jshmem.UcxProgress");

    final String eventName;
    private final String label;

    Kind(String eventName) {
        this.eventName = eventName;
        this.label = name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }

    /** The kind of a JFR event type, or null for an event that is not jshmem's. */
    static Kind of(String eventName) {
        for (Kind k : values()) {
            if (k.eventName.equals(eventName)) {
                return k;
            }
        }
        return null;
    }

    /** The lower-case label the page shows ("sync", "ucx progress"). */
    String label() {
        return label;
    }
}
