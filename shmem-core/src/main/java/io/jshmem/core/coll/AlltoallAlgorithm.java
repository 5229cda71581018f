/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * One alltoall(s) algorithm, a class each: {@link PushAlltoall}, {@link BruckAlltoall}, {@link ExchangeAlltoall}, {@link PairwiseAlltoall},
 * {@link PushIntoDestAlltoall}, {@link AsArrivedIntoDestAlltoall}, {@link PullAlltoall},
 * {@link HierarchicalAlltoall}. The
 * {@link Selector#ALLTOALL} table says which a team may use, for which calls, in which order;
 * {@link AllToAlls} checks the arguments, begins the operation and runs the first that fits.
 * Nothing is allocated per call.
 */
interface AlltoallAlgorithm {
    /** The name the JFR {@code jshmem.Collective} event reports (a constant). */
    String name();

    /**
     * Whether this team's instance takes a call of {@code nbytes} per member, beyond its table
     * row's call condition: a bound that depends on the team's node shape ({@link HierarchicalAlltoall}).
     */
    default boolean fits(long nbytes) {
        return true;
    }

    /**
     * Sends block i of {@code s} to member i, into its {@code d} at block me: blocks of
     * {@code nbytes} ({@code per} elements of {@code unit} bytes), elements {@code sst} and
     * {@code dst} elements apart.
     */
    void alltoall(SymArrayImpl<?> d, SymArrayImpl<?> s, long dst, long sst, long nbytes, long unit, long per);
}
