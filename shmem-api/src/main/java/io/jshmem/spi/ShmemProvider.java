/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spi;

import io.jshmem.ForkSafetyReport;
import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;

/** Service interface through which {@link Shmem#init()} finds the runtime (shmem-core). */
public interface ShmemProvider {

    /**
     * Initializes (or returns the already initialized) library in this process.
     *
     * @param requested the thread level the program asks for
     * @return the library's handle
     */
    Shmem init(ThreadLevel requested);

    /** {@return whether the library is initialized and not finalized} */
    boolean initialized();

    /**
     * Whether fork() is safe in this process (see {@link ForkSafetyReport}): for the transport in
     * use when initialized, else for the one init would use. Backs {@link Shmem#forkSafety()}.
     *
     * @return the report (by default: unknown, hence not safe)
     */
    default ForkSafetyReport forkSafety() {
        return ForkSafetyReport.unknown(getClass().getName() + " does not report fork safety");
    }
}
