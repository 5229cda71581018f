package io.jshmem;

/** Reduction operators; bitwise ones apply to integral element types only. */
public enum ReduceOp {
    AND, OR, XOR, MAX, MIN, SUM, PROD;

    /** Whether the operator is bitwise (and, or, xor). */
    public boolean bitwise() {
        return this == AND || this == OR || this == XOR;
    }
}
