package io.jshmem;

import io.jshmem.spi.ShmemProvider;
import java.util.ServiceLoader;

/** Finds the runtime (shmem-core) through {@link ServiceLoader}, once. */
final class RuntimeLocator {
    private static volatile ShmemProvider provider;

    private RuntimeLocator() {
    }

    static ShmemProvider loaded() {
        return provider;
    }

    static ShmemProvider get() {
        ShmemProvider p = provider;
        if (p == null) {
            synchronized (RuntimeLocator.class) {
                p = provider;
                if (p == null) {
                    ShmemVersion.checkSingleVersion(Shmem.class.getClassLoader());
                    p = ServiceLoader.load(ShmemProvider.class, Shmem.class.getClassLoader()).findFirst()
                            .orElseThrow(() -> new ShmemException(
                                    "no jshmem runtime found: put shmem-core on the class path (bin/oshrun does this)"));
                    provider = p;
                }
            }
        }
        return p;
    }
}
