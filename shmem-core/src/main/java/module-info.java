/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * jshmem's runtime: the provider of {@link io.jshmem.spi.ShmemProvider} (what {@code Shmem.init()}
 * finds) and of {@link io.jshmem.spi.SubprocessSupport} (for {@code io.jshmem.spawn}). It exports
 * nothing to applications, which use the API module {@code io.jshmem}; the transport SPI and what a
 * transport needs are exported to the UCX module only, and the bootstrap protocol and settings to
 * oshrun's launcher ({@code io.jshmem.launcher}), which PEs do not load. Native code (futexes, PMI,
 * libibverbs) is called through the FFM API: run with {@code --enable-native-access=io.jshmem.core}.
 */
@SuppressWarnings("module") // io.jshmem.ucx and io.jshmem.launcher, the targets of the qualified exports, are built after this module
module io.jshmem.core {
    requires io.jshmem;
    requires java.management; // SHMEM_INFO reports the JVM's options
    requires jdk.jfr; // JDK Flight Recorder events (oshrun --jfr)
    requires jdk.net;
    requires jdk.unsupported; // sun.misc.Signal: SIGTERM/SIGINT from srun or mpirun become an abort notice
    // Only for a JUL configuration that names io.jshmem.logging.PeFileHandler (which then adds java.logging).
    requires static java.logging;

    // The per-PE log file handler, which JUL instantiates by reflection.
    exports io.jshmem.logging to java.logging;

    // What a network transport needs: the transport SPI, the bootstrap, the heap, and base (the
    // settings, logging, native access). Not the runtime, contexts, teams or collectives.
    // The launcher (oshrun's JVM only) needs base (settings, native access, the launch environment)
    // and the bootstrap protocol and job secret.
    exports io.jshmem.core.base to io.jshmem.ucx, io.jshmem.launcher;
    exports io.jshmem.core.bootstrap to io.jshmem.ucx, io.jshmem.launcher;
    exports io.jshmem.core.heap to io.jshmem.ucx;
    exports io.jshmem.core.transport to io.jshmem.ucx;

    uses io.jshmem.core.transport.TransportProvider;

    provides io.jshmem.spi.ShmemProvider with io.jshmem.core.runtime.ShmemProviderImpl;
    provides io.jshmem.spi.SubprocessSupport with io.jshmem.core.runtime.SubprocessSupportImpl;
}
