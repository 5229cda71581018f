/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * {@code push-into-dest}: members not all on this node (no more than a slot has entry words),
 * contiguous blocks above the push buffers: every member's dest is free once all have entered, so
 * each member tells every other that it has and then puts each block straight there, counted.
 */
final class PushIntoDestAlltoall extends CollKind implements AlltoallAlgorithm {
    PushIntoDestAlltoall(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-into-dest";
    }

    @Override
    public void alltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        kit.exchange(kit.allEntered(), d.offset, s.offset, nbytes, nbytes);
    }
}
