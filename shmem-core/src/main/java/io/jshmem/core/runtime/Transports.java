/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.RemoteTransport;
import io.jshmem.core.transport.TransportProvider;
import java.lang.foreign.MemorySegment;
import java.util.Optional;
import java.util.ServiceLoader;

/** Chooses the network transport at init: none when every peer is mapped directly. */
final class Transports {
    private Transports() {
    }

    /**
     * Collective. Every PE asks the bootstrap whether any PE lacks a direct mapping to some peer;
     * if so (or SHMEM_TRANSPORT=ucx, or SHMEM_ATOMICS=transport), every PE creates the transport
     * (wire-up is collective), else none does.
     */
    static RemoteTransport forHeap(Bootstrap bootstrap, SymmetricHeap heap, Config config) {
        boolean needed = false;
        for (MemorySegment s : heap.peers()) {
            needed |= s == null;
        }
        // Whether anyone needs it: all PEs see the same node ids and the same settings, so this is consistent.
        boolean atomics = config.atomics() == Config.Atomics.TRANSPORT;
        if (!needed && !atomics && config.transport() != Config.Transport.UCX) {
            return null;
        }
        if (config.transport() == Config.Transport.SHM) {
            throw new ShmemException("PE " + bootstrap.rank() + ": SHMEM_TRANSPORT=shm but "
                    + (needed ? "some PEs are on other nodes" : "SHMEM_ATOMICS=transport needs a network transport")
                    + "; use SHMEM_TRANSPORT=auto or ucx");
        }
        TransportProvider provider = provider().orElseThrow(() -> new ShmemException("PE " + bootstrap.rank()
                + ": PEs on other nodes (or SHMEM_TRANSPORT=ucx) need the UCX transport: put shmem-ucx on the class path"
                + " (bin/oshrun does) and install libucx0"));
        return provider.create(bootstrap, heap, config);
    }

    static Optional<TransportProvider> provider() {
        return ServiceLoader.load(TransportProvider.class, Transports.class.getClassLoader()).findFirst();
    }
}
