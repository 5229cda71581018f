package io.jshmem;

/** Comparison operators of the point-to-point synchronization routines (SHMEM_CMP_*). */
public enum Cmp {
    /** SHMEM_CMP_EQ */
    EQ,
    /** SHMEM_CMP_NE */
    NE,
    /** SHMEM_CMP_GT */
    GT,
    /** SHMEM_CMP_GE */
    GE,
    /** SHMEM_CMP_LT */
    LT,
    /** SHMEM_CMP_LE */
    LE;

    /** Whether {@code value cmp operand} holds (signed comparison, as for Java's integral types). */
    public boolean test(long value, long operand) {
        return switch (this) {
            case EQ -> value == operand;
            case NE -> value != operand;
            case GT -> value > operand;
            case GE -> value >= operand;
            case LT -> value < operand;
            case LE -> value <= operand;
        };
    }
}
