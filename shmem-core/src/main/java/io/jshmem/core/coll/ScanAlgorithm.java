/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.core.comm.SymArrayImpl;

/**
 * One scan (prefix sum) algorithm, a class each: {@link PushScan}, {@link SuccessorsScan}, {@link RecursiveDoublingScan}, {@link HierarchicalScan},
 * {@link PullScan}. The {@link Selector#SCAN} table says which a team may use, for which calls,
 * in which order; {@link ReduceScans} checks the arguments, begins the operation and runs the
 * first that fits. Nothing is allocated per call (but the scratch memory, once, when it grows).
 */
interface ScanAlgorithm {
    /** The name the JFR {@code jshmem.Collective} event reports (a constant). */
    String name();

    /**
     * Sums into {@code d} the {@code count} elements of {@code elem} ({@code nbytes}) of {@code s}
     * of the members before this PE in team order, and with {@code inclusive} this PE's own.
     */
    void scan(SymArrayImpl<?> d, SymArrayImpl<?> s, Reductions.Elem elem, long count, long nbytes, boolean inclusive);
}
