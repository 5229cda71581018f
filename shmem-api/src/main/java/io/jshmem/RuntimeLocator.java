/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import io.jshmem.spi.ClassPathProviders;
import io.jshmem.spi.ShmemProvider;
import java.util.ServiceLoader;

/** Finds the runtime (shmem-core), once: by its class name on the class path, else through {@link ServiceLoader}. */
final class RuntimeLocator {
    /** shmem-core's provider, as its {@code META-INF/services} file and module declaration name it. */
    static final String RUNTIME_PROVIDER = "io.jshmem.core.runtime.ShmemProviderImpl";
    private static volatile ShmemProvider provider;

    private RuntimeLocator() {
    }

    static ShmemProvider loaded() {
        return provider;
    }

    /**
     * On the class path, the runtime's provider by its class name, which is what the service file
     * in shmem-core names: ServiceLoader would find the same class, but its lookup of that file asks
     * the JDK's modules first, which costs every PE several milliseconds of its start. Null on the
     * module path, or when shmem-core is absent or not that runtime (then ServiceLoader decides).
     */
    private static ShmemProvider onClassPath() {
        if (RuntimeLocator.class.getModule().isNamed()) {
            return null;
        }
        try {
            Class<?> c = Class.forName(RUNTIME_PROVIDER, true, Shmem.class.getClassLoader());
            return ShmemProvider.class.isAssignableFrom(c)
                    ? (ShmemProvider) c.getConstructor().newInstance()
                    : null;
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            return null;
        }
    }

    static ShmemProvider get() {
        ShmemProvider p = provider;
        if (p == null) {
            synchronized (RuntimeLocator.class) {
                p = provider;
                if (p == null) {
                    ShmemVersion.checkSingleVersion(Shmem.class.getClassLoader());
                    p = onClassPath();
                    if (p == null) {
                        ClassPathProviders.open(Shmem.class.getClassLoader());
                        p = ServiceLoader.load(ShmemProvider.class, Shmem.class.getClassLoader()).findFirst()
                                .orElseThrow(() -> new ShmemException(
                                        "no jshmem runtime found: put shmem-core on the class path (bin/oshrun does this)"));
                    }
                    provider = p;
                }
            }
        }
        return p;
    }
}
