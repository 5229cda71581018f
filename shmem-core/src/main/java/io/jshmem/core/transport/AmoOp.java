/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.transport;

/** The atomic operations a transport must offer; everything else (inc, signals, locks) is built on them. */
public enum AmoOp {
    FETCH, SET, SWAP, COMPARE_SWAP, FETCH_ADD, ADD, FETCH_AND, AND, FETCH_OR, OR, FETCH_XOR, XOR
}
