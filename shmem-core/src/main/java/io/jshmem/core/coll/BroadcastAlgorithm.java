/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * One broadcast algorithm, a class each: {@link PushBroadcast}, {@link InPlaceBroadcast},
 * {@link PushDownBroadcast}, {@link PushIntoDestBroadcast}, {@link PipelinedBroadcast}, {@link PullBroadcast}. The
 * {@link Selector#BROADCAST} table says which of them a team may use, for which sizes, in which
 * order; {@link Broadcasts} checks the arguments, begins the operation and runs the first that
 * fits. Nothing is allocated per call.
 */
interface BroadcastAlgorithm {
    /** The name the JFR {@code jshmem.Collective} event reports (a constant). */
    String name();

    /** Broadcasts {@code nbytes} of team PE {@code root}'s {@code s} into every member's {@code d} (the operation has begun). */
    void broadcast(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, int root);
}
