package io.jshmem.spi;

import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;

/** Service interface through which {@link Shmem#init()} finds the runtime (shmem-core). */
public interface ShmemProvider {

    /** Initializes (or returns the already initialized) library in this process. */
    Shmem init(ThreadLevel requested);

    /** Whether the library is initialized and not finalized. */
    boolean initialized();
}
