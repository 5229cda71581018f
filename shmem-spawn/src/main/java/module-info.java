/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Subprocesses from jshmem programs, safe at any point of the program ({@link io.jshmem.spawn.Spawn}).
 * The runtime's side (what the child must not inherit) is found through
 * {@link io.jshmem.spi.SubprocessSupport}. The posix_spawnp path calls C through the FFM API: run
 * with {@code --enable-native-access=io.jshmem.spawn}.
 */
module io.jshmem.spawn {
    requires transitive io.jshmem;

    exports io.jshmem.spawn;

    uses io.jshmem.spi.SubprocessSupport;
}
