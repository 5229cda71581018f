/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;
import java.lang.foreign.MemorySegment;

/**
 * {@code push}: members all on this node, every block within one push buffer. Each member copies
 * its blocks for PE 0, 1, ... contiguously into its push buffer and arrives; each reads its block
 * from every member's buffer as soon as that member has arrived.
 */
final class PushAlltoall extends CollKind implements AlltoallAlgorithm {
    PushAlltoall(Collectives kit) {
        super(kit);
    }

    @Override
    public String name() {
        return "push";
    }

    @Override
    public void alltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per) {
        int n = team.members.length;
        long e;
        if (sst == 1) {
            e = kit.produce(s.offset, nbytes * n, false);
        } else {
            e = team.nextEpoch();
            long buf = team.buffer(e);
            team.awaitBufferFree(e);
            for (long k = 0; k < per * n; k++) {
                MemorySegment.copy(st.self, s.offset + sst * k * unit, st.self, buf + k * unit, unit);
            }
            team.arrive(e);
        }
        long buf = team.buffer(e) + team.me * nbytes;
        for (int i = 0; i < n; i++) {
            team.awaitArrival(i, e);
            int pe = team.members[i];
            if (dst == 1) {
                st.comm.get(pe, buf, st.self, d.offset + i * nbytes, nbytes, false);
            } else {
                for (long k = 0; k < per; k++) {
                    st.comm.get(pe, buf + k * unit, st.self, d.offset + dst * (i * per + k) * unit, unit, false);
                }
            }
        }
    }
}
