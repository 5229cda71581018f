/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

/**
 * All members on this node and few of them: each member publishes the operation's epoch in its
 * arrival word and waits until every other member's word reaches it (one store, N-1 loads of
 * lines that change once per operation).
 *
 * <p>A barrier (not a sync inside a collective) then publishes this PE's exit, and waits first
 * for the exit of {@link SlotProtocol#exitGate}: the root of a broadcast that came straight after
 * the previous barrier. In a loop of barrier then broadcast the root then leaves first and pushes
 * its data before the others look for it; without the gate the others, leaving first, waited for
 * a root that had yet to get a core inside the broadcast (4 PEs on 2 cores: 40% of their calls
 * took a context switch, 10-15 us). Each PE decides alone (the root always publishes its exit),
 * so no agreement is needed; a loop of barriers alone is not gated (there a member that leaves
 * before an off-CPU root goes on into the next barrier, and the root later passes both in one
 * time slice).
 */
final class LinearSync implements SyncAlgorithm {
    private final SlotProtocol p;

    LinearSync(SlotProtocol p) {
        this.p = p;
    }

    @Override
    public String name() {
        return "linear";
    }

    @Override
    public void sync(long e) {
        p.arrive(e);
        p.awaitAll(e);
        p.allFinishedBefore = e;
        if ((p.ident & 0xFF) == SlotProtocol.OP_SYNC) {
            if (p.exitGate >= 0) {
                p.awaitExit(p.exitGate, e);
            }
            p.words.publishExitReleaseAndWake(e);
            p.barrierJustEnded = true;
        }
    }
}
