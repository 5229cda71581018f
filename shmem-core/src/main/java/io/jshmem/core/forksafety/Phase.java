/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

/** Where a process is in the jshmem life cycle; recorded in a spawned child's {@link SpawnMarker}. */
public enum Phase {
    /** jshmem not initialized yet (or initialization failed). */
    BEFORE_INIT("before-init"),
    /** Within the OpenSHMEM portion of the program: initialized, not finalized. */
    INITIALIZED("initialized"),
    /** Finalized (and not initialized again since). */
    FINALIZED("finalized");

    private final String label;

    Phase(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public static Phase fromLabel(String s) {
        for (Phase p : values()) {
            if (p.label.equals(s)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown phase " + s);
    }
}
