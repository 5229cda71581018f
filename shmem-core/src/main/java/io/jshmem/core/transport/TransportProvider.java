/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.transport;

import io.jshmem.core.base.Config;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.heap.SymmetricHeap;

/**
 * Service interface of a network transport (shmem-ucx implements it). At init, when some peer is
 * not mapped directly (another node, or SHMEM_TRANSPORT=ucx), the runtime loads the provider with
 * {@link java.util.ServiceLoader} and asks it for a transport. Wire-up is collective: every PE
 * calls {@link #create} (also those that need no remote peer) so that key exchanges match.
 */
public interface TransportProvider {

    /** Short name, e.g. "ucx". */
    String name();

    /**
     * Creates the transport for this PE: registers the heap, exchanges addresses through the
     * bootstrap, connects to the peers that {@code heap.peers()} does not map.
     *
     * @throws io.jshmem.ShmemException with a message naming what to install when the native
     *         library is missing
     */
    RemoteTransport create(Bootstrap bootstrap, SymmetricHeap heap, Config config);

    /** One line per capability for bin/shmem-info (e.g. the UCX transports found), or a reason it is unavailable. */
    java.util.List<String> describe();
}
