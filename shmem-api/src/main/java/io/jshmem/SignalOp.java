/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/** How a signal word is updated by {@code putSignal} (SHMEM_SIGNAL_SET, SHMEM_SIGNAL_ADD). */
public enum SignalOp {
    /** SHMEM_SIGNAL_SET: the signal word becomes the value. */
    SET,
    /** SHMEM_SIGNAL_ADD: the value is added to the signal word. */
    ADD
}
