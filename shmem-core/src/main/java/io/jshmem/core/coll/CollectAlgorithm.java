/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * One (f)collect algorithm, a class each: {@link PushCollect}, {@link ExchangeCollect}, {@link BruckFcollect}, {@link RingFcollect},
 * {@link GatherAt0Collect}, {@link PushIntoDestCollect}, {@link PullCollect}. The
 * {@link Selector#FCOLLECT} and {@link Selector#COLLECT} tables say which a team may use, for which
 * sizes, in which order; {@link Collects} checks the arguments (for fcollect also that every
 * member passed the same size and that dest holds all), begins the operation and runs the first
 * that fits. Nothing is allocated per call.
 */
interface CollectAlgorithm {
    /** The name the JFR {@code jshmem.Collective} event reports (a constant). */
    String name();

    /**
     * Gathers every member's {@code nbytes} of {@code s} into {@code d} in team order; {@code fixed}:
     * an fcollect (the same {@code nbytes} on every member), else a collect.
     */
    void collect(SymArrayImpl<?> d, SymArrayImpl<?> s, long nbytes, boolean fixed, String routine);
}
