/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.team;

import io.jshmem.ShmemContext;
import io.jshmem.ShmemTeam;
import io.jshmem.TeamConfig;
import io.jshmem.core.coll.TeamSlots;
import io.jshmem.core.comm.PeState;
import java.util.ArrayList;
import java.util.List;

/**
 * The teams of one initialized PE: the predefined world and shared teams, the slots teams take,
 * the teams created since, lookup of the API's {@link ShmemTeam}s, and the world barrier. Teams
 * hold this, not the runtime: what they need from above (contexts) comes through
 * {@link TeamContexts}.
 */
public final class TeamRegistry {
    /** What a team needs from the runtime: its contexts, which are defined above the teams. */
    public interface TeamContexts {
        /** shmem_team_create_ctx: a new context on {@code team}'s PEs (options checked). */
        ShmemContext create(TeamImpl team, long options);

        /** Destroys the contexts created on {@code team} (the team is being destroyed). */
        void closeAll(TeamImpl team);
    }

    public final PeState st;
    private final TeamContexts contexts;
    private final TeamSlots slots;
    private final TeamImpl world;
    private final TeamImpl shared;
    private final List<TeamImpl> teams = new ArrayList<>();

    /** Takes the internal region of the team slots from the heap and makes the predefined teams (no collective call). */
    public TeamRegistry(PeState st, TeamContexts contexts) {
        this.st = st;
        this.contexts = contexts;
        this.slots = new TeamSlots(st, st.heap.allocInternal(TeamSlots.TOTAL_BYTES));
        int[] all = new int[st.npes];
        int[] local = new int[st.localPes];
        for (int pe = 0, j = 0; pe < st.npes; pe++) {
            all[pe] = pe;
            if (st.worldPeers[pe] != null) {
                local[j++] = pe;
            }
        }
        slots.reserve(0);
        slots.reserve(1);
        this.world = new TeamImpl(this, "SHMEM_TEAM_WORLD", all, 0, TeamConfig.DEFAULT);
        this.shared = new TeamImpl(this, "SHMEM_TEAM_SHARED", local, 1, TeamConfig.DEFAULT);
    }

    public TeamSlots slots() {
        return slots;
    }

    public TeamImpl world() {
        return world;
    }

    public TeamImpl shared() {
        return shared;
    }

    /** The live team of this PE that {@code t} is; an error naming it otherwise. */
    public TeamImpl team(ShmemTeam t) {
        if (t instanceof TeamImpl ti && ti.st == st) {
            ti.checkLive();
            return ti;
        }
        throw TeamImpl.notATeam(st, t);
    }

    /** A team created by a split, in the slot its members agreed on. */
    public TeamImpl newTeam(String name, int[] members, int slot, TeamConfig config) {
        slots.take(slot);
        TeamImpl t = new TeamImpl(this, name, members, slot, config);
        synchronized (teams) {
            teams.add(t);
        }
        return t;
    }

    /** After {@code t} was destroyed: its contexts are destroyed and its slot freed. */
    public void teamDestroyed(TeamImpl t) {
        contexts.closeAll(t);
        synchronized (teams) {
            teams.remove(t);
        }
        slots.release(t.slot);
    }

    public ShmemContext newContext(TeamImpl team, long options) {
        return contexts.create(team, options);
    }

    /**
     * The world barrier as part of {@code op} (with the arguments that must agree, for collective
     * matching): the barrier of a memory operation of {@code bytes} (and {@code alignment}, 0 for
     * the default) names them if calls do not match.
     */
    public void barrier(int op, long args, long bytes, long alignment) {
        if (st.finalized) {
            throw st.afterFinalize();
        }
        world.begin(op, args, -1, bytes, alignment, 0, null);
        // On shared memory the barrier's release/acquire chain already makes every earlier store
        // visible to every PE; only a network transport has operations to complete first.
        if (st.transport != null) {
            st.transport.quiet();
        }
        world.syncInternal();
    }
}
