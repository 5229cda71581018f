/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.PeState;

/**
 * The algorithms of one kind of collective ({@link Broadcasts}, {@link Collects},
 * {@link AllToAlls}, {@link ReduceScans}) for one team: what they share of {@link Collectives}
 * (the team's choices from the {@link Selector}, the shared steps, the scratch memory, the name of
 * the algorithm taken).
 */
abstract class CollKind {
    final Collectives kit;
    final SlotProtocol team;
    final PeState st;
    /** The team's {@link Selector.Family}, as {@link Collectives} has it. */
    final boolean push;
    final boolean pushAcross;
    final boolean pushIntoDest;

    CollKind(Collectives kit) {
        this.kit = kit;
        this.team = kit.team;
        this.st = kit.st;
        this.push = kit.push;
        this.pushAcross = kit.pushAcross;
        this.pushIntoDest = kit.pushIntoDest;
    }
}
