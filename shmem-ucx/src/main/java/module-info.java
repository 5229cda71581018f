/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * jshmem's UCX network transport, for PEs on other nodes: the provider of the runtime's transport
 * service. It exports nothing. It calls libucp through the FFM API: run with
 * {@code --enable-native-access=io.jshmem.ucx}.
 */
module io.jshmem.ucx {
    requires io.jshmem;
    requires io.jshmem.core;
    requires jdk.jfr;

    provides io.jshmem.core.transport.TransportProvider with io.jshmem.ucx.UcxTransportProvider;
}
