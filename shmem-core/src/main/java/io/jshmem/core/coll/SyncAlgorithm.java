/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * A team's barrier/sync algorithm ({@link Selector} picks one per team): {@link LinearSync},
 * {@link DisseminationSync}, {@link HierarchicalSync} or {@link CentralSync}. Each runs on the
 * team's {@link SlotProtocol} and ends with every member known to have finished every operation
 * before the sync's epoch.
 */
interface SyncAlgorithm {
    /** The name the JFR {@code jshmem.Sync} event and SHMEM_INFO report ({@code linear}, ...). */
    String name();

    /** The sync of epoch {@code e} (already counted by {@link SlotProtocol#syncInternal}). */
    void sync(long e);
}
