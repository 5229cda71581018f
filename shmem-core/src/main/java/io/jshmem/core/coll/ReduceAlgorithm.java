/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;

/**
 * One reduction algorithm, a class each: {@link PushReduce}, {@link ExchangeReduce},
 * {@link GatherAt0Reduce}, {@link RecursiveDoublingReduce}, {@link ExchangeRunReduce},
 * {@link RabenseifnerReduce}, {@link PushedScatterReduce}, {@link PullWholeReduce},
 * {@link PullScatterReduce}. The {@link Selector#REDUCE} table says which a team may use, for which
 * calls, in which order; {@link ReduceScans} checks the arguments (array, complex and scalar forms
 * alike), begins the operation and runs the first that fits. Every member combines the inputs in
 * team order (left to right; recursive doubling and Rabenseifner group them in a tree), so all get
 * bitwise the same (floating-point) result.
 * Nothing is allocated per call (but the scratch memory, once, when it grows).
 */
interface ReduceAlgorithm {
    /** The name the JFR {@code jshmem.Collective} event reports (a constant). */
    String name();

    /**
     * Reduces {@code count} elements of {@code elem}, each {@code 1 << shift} bytes, {@code nbytes}
     * in all, from heap offset {@code sOff} (the source) into {@code dOff} (the dest), both the
     * same on every member; dest may be the source.
     */
    void reduce(ReduceOp op, Reductions.Elem elem, int shift, long dOff, long sOff, long count, long nbytes);
}
