/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.core.comm.OpenContext;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.team.TeamImpl;
import io.jshmem.core.team.TeamRegistry;

/** The runtime's side of a team's contexts: creating them (the options checked) and destroying a destroyed team's. */
final class Contexts implements TeamRegistry.TeamContexts {
    private final PeState st;

    Contexts(PeState st) {
        this.st = st;
    }

    @Override
    public ShmemContext create(TeamImpl team, long options) {
        if (st.finalized) {
            throw st.afterFinalize();
        }
        if ((options & ~(Shmem.CTX_PRIVATE | Shmem.CTX_SERIALIZED | Shmem.CTX_NOSTORE)) != 0) {
            throw st.error("ctx_create: unknown option bits " + Long.toHexString(options));
        }
        ContextImpl c = new ContextImpl(team, options);
        st.contexts.add(c);
        return c;
    }

    @Override
    public void closeAll(TeamImpl team) {
        for (OpenContext c : st.contexts) {
            if (c instanceof ContextImpl ci && ci.team() == team) {
                ci.closeWithTeam();
            }
        }
    }
}
