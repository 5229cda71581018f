/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * jshmem's API: OpenSHMEM 1.6 for Java ({@link io.jshmem.Shmem}). Programs {@code requires io.jshmem};
 * the runtime ({@code io.jshmem.core}, from shmem-core) is found through the
 * {@code io.jshmem.spi.ShmemProvider} service and must be on the module path too (with
 * {@code --enable-native-access=io.jshmem.core}), or on the class path.
 */
// The modules named in the qualified export are built after this one.
@SuppressWarnings("module")
module io.jshmem {
    exports io.jshmem;
    // The service-provider interfaces are between jshmem's own modules, not for applications, so
    // they are exported only to the modules that implement them (io.jshmem.core provides both) or
    // look them up (io.jshmem.spawn uses SubprocessSupport): a program cannot implement or call
    // them by mistake. ServiceLoader is unaffected on the module path. On the class path every
    // module declaration is ignored, so nothing changes there; with this module on the module path
    // and the runtime on the class path (the unnamed module), the lookups first export the package
    // to their class loader's unnamed module (ClassPathProviders), which a qualified export cannot name.
    exports io.jshmem.spi to io.jshmem.core, io.jshmem.spawn;

    uses io.jshmem.spi.ShmemProvider;
}
