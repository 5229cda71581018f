/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import java.lang.foreign.MemorySegment;

/**
 * {@code push-exchange}: two members across nodes, both inputs within a push buffer: each pushes
 * its input into the other's buffer (one hop) and combines both, in team order, into its dest.
 */
final class ExchangeReduce extends CollKind implements ReduceAlgorithm {
    ExchangeReduce(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push-exchange";
    }

    @Override
    public void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes) {
        long buf = kit.exchangeAcross(sOff, nbytes, 0);
        MemorySegment.copy(st.self, buf, st.self, dOff, nbytes);
        Reductions.combine(op, elem, st.self, dOff, st.self, buf + nbytes, count);
    }
}
