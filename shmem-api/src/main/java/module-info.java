/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * jshmem's API: OpenSHMEM 1.6 for Java ({@link io.jshmem.Shmem}). Programs {@code requires io.jshmem};
 * the runtime ({@code io.jshmem.core}, from shmem-core) is found through the
 * {@link io.jshmem.spi.ShmemProvider} service and must be on the module path too (with
 * {@code --enable-native-access=io.jshmem.core}), or on the class path.
 */
module io.jshmem {
    exports io.jshmem;
    exports io.jshmem.spi;

    uses io.jshmem.spi.ShmemProvider;
}
