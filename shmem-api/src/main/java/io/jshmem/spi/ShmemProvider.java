package io.jshmem.spi;

import io.jshmem.ForkSafetyReport;
import io.jshmem.Shmem;
import io.jshmem.ThreadLevel;

/** Service interface through which {@link Shmem#init()} finds the runtime (shmem-core). */
public interface ShmemProvider {

    /** Initializes (or returns the already initialized) library in this process. */
    Shmem init(ThreadLevel requested);

    /** Whether the library is initialized and not finalized. */
    boolean initialized();

    /**
     * Whether fork() is safe in this process (see {@link ForkSafetyReport}): for the transport in
     * use when initialized, else for the one init would use. Backs {@link Shmem#forkSafety()}.
     */
    default ForkSafetyReport forkSafety() {
        return ForkSafetyReport.unknown(getClass().getName() + " does not report fork safety");
    }
}
