/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.PeState;

/**
 * What the collectives see of a team (issue 36): its members and this PE's place among them, the
 * PE's state (its {@code Comm}, heap, settings) and whether the team may still be used. The team
 * package implements it; {@code coll} never sees the team class itself.
 */
public interface CollTeam {
    /** This PE's state: the {@code Comm} that reaches the members, the heap, the settings. */
    PeState state();

    /** World PE number of each team PE, in team order (the team's own array: not to be changed). */
    int[] members();

    /** This PE's number in the team. */
    int myIndex();

    /** The team's name, for messages ("team(world)"). */
    String name();

    /** Throws if the team was destroyed or shmem finalized. */
    void checkLive();

    /** World PE number of team PE {@code pe}, checked (throws naming the team if it is not a member). */
    int world(int pe);
}
