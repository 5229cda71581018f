/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * Comparison operators of the point-to-point synchronization routines (SHMEM_CMP_*).
 *
 * <p>{@link #GT}, {@link #GE}, {@link #LT} and {@link #LE} compare signed, as Java's integral
 * types are. The C routines also exist for unsigned types ({@code unsigned int},
 * {@code unsigned long}, {@code uint32_t}, {@code uint64_t}, {@code size_t}, ...) and
 * {@code shmem_signal_wait_until} compares {@code uint64_t} signal words: for those, use
 * {@link #UGT}, {@link #UGE}, {@link #ULT} and {@link #ULE}, which compare the same bits as unsigned
 * numbers of the variable's width (a {@code long} as {@code uint64_t}, an {@code int} as
 * {@code uint32_t}, a {@code short} as {@code unsigned short}). {@link #EQ} and {@link #NE} are the
 * same for both. Every wait, test and signal-wait routine accepts every operator.
 */
public enum Cmp {
    /** SHMEM_CMP_EQ */
    EQ,
    /** SHMEM_CMP_NE */
    NE,
    /** SHMEM_CMP_GT (signed) */
    GT,
    /** SHMEM_CMP_GE (signed) */
    GE,
    /** SHMEM_CMP_LT (signed) */
    LT,
    /** SHMEM_CMP_LE (signed) */
    LE,
    /** SHMEM_CMP_GT on an unsigned type: the values compare as unsigned numbers. */
    UGT,
    /** SHMEM_CMP_GE on an unsigned type. */
    UGE,
    /** SHMEM_CMP_LT on an unsigned type. */
    ULT,
    /** SHMEM_CMP_LE on an unsigned type. */
    ULE;

    /**
     * Whether {@code value cmp operand} holds. Narrower values ({@code int}, {@code short}) arrive
     * sign-extended, which keeps their unsigned order, so the unsigned operators are right for every
     * width.
     *
     * @param value   the left-hand side (the value in memory)
     * @param operand the right-hand side (the value compared against)
     * @return whether the comparison holds
     */
    public boolean test(long value, long operand) {
        return switch (this) {
            case EQ -> value == operand;
            case NE -> value != operand;
            case GT -> value > operand;
            case GE -> value >= operand;
            case LT -> value < operand;
            case LE -> value <= operand;
            case UGT -> Long.compareUnsigned(value, operand) > 0;
            case UGE -> Long.compareUnsigned(value, operand) >= 0;
            case ULT -> Long.compareUnsigned(value, operand) < 0;
            case ULE -> Long.compareUnsigned(value, operand) <= 0;
        };
    }

    /** {@return whether this operator compares unsigned ({@link #UGT}, {@link #UGE}, {@link #ULT}, {@link #ULE})} */
    public boolean isUnsigned() {
        return this == UGT || this == UGE || this == ULT || this == ULE;
    }
}
