/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/** {@code push-exchange}: an fcollect of two members across nodes within a push buffer: each pushes its data into the other's buffer. */
final class ExchangeCollect extends CollKind implements CollectAlgorithm {
    ExchangeCollect(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-exchange";
    }

    @Override
    public void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine) {
        int n = team.members.length;
        MemorySegment.copy(st.self, kit.exchangeAcross(s.offset, nbytes, 0), st.self, d.offset, nbytes * n);
    }
}
