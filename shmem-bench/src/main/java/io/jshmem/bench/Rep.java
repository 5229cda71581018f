/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

/**
 * One repetition of a benchmark: called by every PE with the same {@code iters}; performs
 * {@code iters} iterations of the operation under test, verifies the data it moved, and returns
 * the elapsed time in microseconds on PE 0 (ignored on the other PEs).
 */
@FunctionalInterface
public interface Rep {
    double run(long iters);
}
