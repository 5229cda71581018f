/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/** Reduction operators; bitwise ones and the unsigned maximum and minimum apply to integral element types only. */
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
    PROD,
    /**
     * Maximum of integers read as unsigned of their width (integer types): OpenSHMEM's max
     * reductions on {@code unsigned char}, {@code unsigned short}, {@code unsigned int},
     * {@code unsigned long}, {@code uint8_t}-{@code uint64_t}, {@code size_t}.
     */
    UMAX,
    /** Minimum of integers read as unsigned of their width (integer types); see {@link #UMAX}. */
    UMIN;

    /**
     * Whether the operator is bitwise (and, or, xor).
     *
     * @return whether the operation is bitwise (AND, OR, XOR: integer types only)
     */
    public boolean bitwise() {
        return this == AND || this == OR || this == XOR;
    }

    /**
     * Whether the operator is defined on integer types only: the bitwise ones and the unsigned
     * maximum and minimum.
     *
     * @return whether the operation needs an integral element type (AND, OR, XOR, UMAX, UMIN)
     */
    public boolean integralOnly() {
        return bitwise() || this == UMAX || this == UMIN;
    }
}
