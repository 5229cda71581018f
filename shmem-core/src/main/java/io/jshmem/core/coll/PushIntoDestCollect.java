/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * {@code push-into-dest}: an fcollect across nodes above the push buffers: every member tells
 * every other that it has entered (its dest is free) and puts its data straight into each dest.
 */
final class PushIntoDestCollect extends CollKind implements CollectAlgorithm {
    PushIntoDestCollect(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-into-dest";
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        kit.exchange(kit.allEntered(), d.offset, s.offset, nbytes, 0);
    }
}
