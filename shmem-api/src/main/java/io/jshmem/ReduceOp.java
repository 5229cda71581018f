/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/** Reduction operators; bitwise ones apply to integral element types only. */
public enum ReduceOp {
    /** Bitwise and (integer types). */
    AND,
    /** Bitwise or (integer types). */
    OR,
    /** Bitwise exclusive or (integer types). */
    XOR,
    /** Maximum. */
    MAX,
    /** Minimum. */
    MIN,
    /** Sum. */
    SUM,
    /** Product. */
    PROD;

    /**
     * Whether the operator is bitwise (and, or, xor).
     *
     * @return whether the operation is bitwise (AND, OR, XOR: integer types only)
     */
    public boolean bitwise() {
        return this == AND || this == OR || this == XOR;
    }
}
