/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import io.jshmem.core.base.Config;
import io.jshmem.core.base.NativeAccess;
import io.jshmem.core.base.Settings;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.RemoteTransport;
import io.jshmem.core.transport.TransportProvider;
import java.util.List;

/** The UCX transport, found by the runtime through {@link java.util.ServiceLoader}. */
public final class UcxTransportProvider implements TransportProvider {
    /** Creates the provider (the {@link java.util.ServiceLoader} does). */
    public UcxTransportProvider() {
    }

    @Override
    public String name() {
        return "ucx";
    }

    @Override
    public RemoteTransport create(Bootstrap bootstrap, SymmetricHeap heap, Config config) {
        NativeAccess.require(UcxTransportProvider.class, "jshmem's UCX transport");
        return UcxTransport.create(bootstrap, heap, config.network(), Settings.systemEnvironment());
    }

    @Override
    public List<String> describe() {
        return UcxInfo.describe();
    }
}
