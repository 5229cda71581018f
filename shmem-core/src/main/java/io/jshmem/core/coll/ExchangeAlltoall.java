/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-exchange}: members not all on this node, contiguous blocks, all of them within a
 * push buffer: each member pushes block i into member i's push buffer of a new epoch, then copies
 * its buffer (every member's block for it, in team order) into its dest.
 */
final class ExchangeAlltoall extends CollKind implements AlltoallAlgorithm {
    ExchangeAlltoall(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-exchange";
    }

    @Override
    public void alltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        long buf = kit.exchangeAcross(s.offset, nbytes, nbytes);
        MemorySegment.copy(st.self, buf, st.self, d.offset, nbytes * team.members.length);
    }
}
