/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemTeam;
import io.jshmem.core.team.TeamImpl;
import io.jshmem.core.transport.RemoteTransport;

/**
 * A created context. On shared memory every operation completes at once, so a context is its own
 * view of the team's peers plus its life cycle; with a network transport it is where per-context
 * completion would live. PE numbers are the team's.
 */
final class ContextImpl extends AbstractShmemCtx implements ShmemContext {
    private final TeamImpl team;
    private final long options;

    ContextImpl(TeamImpl team, long options) {
        super(team.st, team.st.comm.withTransport(team.st.transport == null ? null : team.st.transport.openContext(options)),
                team.members.clone(), (options & Shmem.CTX_PRIVATE) != 0 ? Thread.currentThread() : null);
        this.team = team;
        this.options = options;
    }

    @Override
    public ShmemTeam team() {
        if (destroyed()) {
            throw st.error("context used after it was destroyed (closed)");
        }
        return team;
    }

    @Override
    public long options() {
        return options;
    }

    @Override
    public void close() {
        if (destroyed() || st.finalized) {
            return;
        }
        quiet(); // throws on a thread other than a CTX_PRIVATE context's creator, which must destroy it (1.6)
        release();
    }

    /** Destroys this context with its team (shmem_team_destroy), on whichever thread destroys the team. */
    void closeWithTeam() {
        if (destroyed() || st.finalized) {
            return;
        }
        comm.quiet();
        release();
    }

    private void release() {
        invalidate(true);
        st.contexts.remove(this);
        RemoteTransport own = ownTransport();
        if (own != null) {
            own.close();
        }
    }

    @Override
    public String toString() {
        return "ShmemContext[team=" + team + ", options=" + options + (destroyed() ? ", destroyed" : "") + "]";
    }
}
