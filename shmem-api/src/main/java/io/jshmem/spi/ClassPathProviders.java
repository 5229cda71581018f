/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spi;

/**
 * Lets a provider on the class path implement this package's interfaces when the API is a named
 * module: the package is exported only to jshmem's modules (see io.jshmem's module declaration), and
 * a qualified export cannot name the class path's unnamed module, so the lookups
 * ({@code Shmem.init}, {@code io.jshmem.spawn.Spawn}) export it at run time, before
 * {@link java.util.ServiceLoader} loads a provider. Not for applications.
 */
public final class ClassPathProviders {
    private ClassPathProviders() {
    }

    /**
     * Exports this package to the unnamed module of {@code loader} (the class path, when it is the
     * application class loader), where shmem-core's providers are when it is on the class path.
     * Nothing to do when this package is itself on the class path.
     *
     * @param loader the class loader the service lookup uses; null for the system class loader
     */
    public static void open(ClassLoader loader) {
        Module api = ClassPathProviders.class.getModule();
        if (api.isNamed()) {
            ClassLoader l = loader != null ? loader : ClassLoader.getSystemClassLoader();
            api.addExports(ClassPathProviders.class.getPackageName(), l.getUnnamedModule());
        }
    }
}
