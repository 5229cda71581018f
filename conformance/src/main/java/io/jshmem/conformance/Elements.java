/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.ReduceOp;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * Element values of the seven types as long "bits" (integral types sign-extended, char
 * zero-extended, float/double as raw IEEE bits), with the reduction semantics computed here,
 * independently of the runtime, for the collective cases.
 */
final class Elements {
    static final List<SymType<?>> TYPES = List.of(SymType.LONG, SymType.INT, SymType.SHORT, SymType.BYTE,
            SymType.CHAR, SymType.FLOAT, SymType.DOUBLE);

    private Elements() {
    }

    static boolean floating(SymType<?> t) {
        return t == SymType.FLOAT || t == SymType.DOUBLE;
    }

    /** Element {@code i} of a segment holding elements of type {@code t}. */
    static long get(MemorySegment s, SymType<?> t, long i) {
        return switch (t.kind()) {
            case LONG -> s.getAtIndex(ValueLayout.JAVA_LONG, i);
            case INT -> s.getAtIndex(ValueLayout.JAVA_INT, i);
            case SHORT -> s.getAtIndex(ValueLayout.JAVA_SHORT, i);
            case BYTE -> s.getAtIndex(ValueLayout.JAVA_BYTE, i);
            case CHAR -> s.getAtIndex(ValueLayout.JAVA_CHAR, i);
            case FLOAT -> Float.floatToRawIntBits(s.getAtIndex(ValueLayout.JAVA_FLOAT, i));
            case DOUBLE -> Double.doubleToRawLongBits(s.getAtIndex(ValueLayout.JAVA_DOUBLE, i));
        };
    }

    static void set(MemorySegment s, SymType<?> t, long i, long v) {
        switch (t.kind()) {
            case LONG -> s.setAtIndex(ValueLayout.JAVA_LONG, i, v);
            case INT -> s.setAtIndex(ValueLayout.JAVA_INT, i, (int) v);
            case SHORT -> s.setAtIndex(ValueLayout.JAVA_SHORT, i, (short) v);
            case BYTE -> s.setAtIndex(ValueLayout.JAVA_BYTE, i, (byte) v);
            case CHAR -> s.setAtIndex(ValueLayout.JAVA_CHAR, i, (char) v);
            case FLOAT -> s.setAtIndex(ValueLayout.JAVA_FLOAT, i, Float.intBitsToFloat((int) v));
            case DOUBLE -> s.setAtIndex(ValueLayout.JAVA_DOUBLE, i, Double.longBitsToDouble(v));
        }
    }

    static long get(SymArray<?> a, long i) {
        return get(a.local(), a.type(), i);
    }

    static void set(SymArray<?> a, long i, long v) {
        set(a.local(), a.type(), i, v);
    }

    /**
     * A value for PE {@code pe}, element {@code i}. Integral types include their boundary values
     * (so sums and products wrap); floating values are small multiples of 1/2, exact in any order.
     */
    static long value(SymType<?> t, int pe, long i) {
        if (floating(t)) {
            double d = ((pe + 1) * 0.5) + (i % 7) - 3;
            return t == SymType.FLOAT ? Float.floatToRawIntBits((float) d) : Double.doubleToRawLongBits(d);
        }
        long[] specials = switch (t.kind()) {
            case LONG -> new long[] {Long.MAX_VALUE, Long.MIN_VALUE, -1, 0};
            case INT -> new long[] {Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 0};
            case SHORT -> new long[] {Short.MAX_VALUE, Short.MIN_VALUE, -1, 0};
            case BYTE -> new long[] {Byte.MAX_VALUE, Byte.MIN_VALUE, -1, 0};
            case CHAR -> new long[] {Character.MAX_VALUE, 0x8000, 1, 0};
            case FLOAT, DOUBLE -> throw new AssertionError(t); // returned above
        };
        long v = i % 11 < specials.length && (pe + i) % 3 == 0 ? specials[(int) (i % 11)] : (pe * 37 + i * 5) % 97 - 20;
        return narrow(t, v);
    }

    /** {@code v} as a value of type {@code t} (wrapped like a Java cast). */
    static long narrow(SymType<?> t, long v) {
        return switch (t.kind()) {
            case INT -> (int) v;
            case SHORT -> (short) v;
            case BYTE -> (byte) v;
            case CHAR -> (char) v;
            case LONG, FLOAT, DOUBLE -> v;
        };
    }

    /** {@code a op b} with the semantics of type {@code t}. */
    static long combine(SymType<?> t, ReduceOp op, long a, long b) {
        if (t == SymType.DOUBLE) {
            double x = Double.longBitsToDouble(a);
            double y = Double.longBitsToDouble(b);
            return Double.doubleToRawLongBits(switch (op) {
                case MAX -> Math.max(x, y);
                case MIN -> Math.min(x, y);
                case SUM -> x + y;
                case PROD -> x * y;
                default -> throw new IllegalArgumentException(op.name());
            });
        }
        if (t == SymType.FLOAT) {
            float x = Float.intBitsToFloat((int) a);
            float y = Float.intBitsToFloat((int) b);
            return Float.floatToRawIntBits(switch (op) {
                case MAX -> Math.max(x, y);
                case MIN -> Math.min(x, y);
                case SUM -> x + y;
                case PROD -> x * y;
                default -> throw new IllegalArgumentException(op.name());
            });
        }
        // Integral: a and b already hold the typed values (char zero-extended), so long arithmetic
        // then narrowing gives Java's wrap-around, and signed (unsigned for char) max/min.
        return narrow(t, switch (op) {
            case AND -> a & b;
            case OR -> a | b;
            case XOR -> a ^ b;
            case MAX -> Math.max(a, b);
            case MIN -> Math.min(a, b);
            case SUM -> a + b;
            case PROD -> a * b;
            // Sign extension keeps the unsigned order of values of one width.
            case UMAX -> Long.compareUnsigned(a, b) >= 0 ? a : b;
            case UMIN -> Long.compareUnsigned(a, b) <= 0 ? a : b;
        });
    }

    /** Printable form of a value. */
    static String show(SymType<?> t, long v) {
        return switch (t.kind()) {
            case FLOAT -> Float.toString(Float.intBitsToFloat((int) v));
            case DOUBLE -> Double.toString(Double.longBitsToDouble(v));
            case LONG, INT, SHORT, BYTE, CHAR -> Long.toString(v);
        };
    }
}
