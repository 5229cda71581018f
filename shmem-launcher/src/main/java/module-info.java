/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * oshrun's launcher ({@code io.jshmem.launcher.Launcher}, started by {@code bin/oshrun}): it starts
 * the PE JVMs, serves the bootstrap protocol, forwards the PEs' output and makes the ahead-of-time
 * caches. It exports nothing: it runs in the launcher's JVM only, and PEs never load it. It uses
 * shmem-core's bootstrap protocol and settings through qualified exports.
 */
module io.jshmem.launcher {
    requires io.jshmem;
    requires io.jshmem.core;
}
