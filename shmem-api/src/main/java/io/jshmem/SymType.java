/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import java.lang.foreign.ValueLayout;
import java.util.Locale;

/**
 * Element type of a symmetric array: the token passed to {@link Shmem#malloc(SymType, long)} and
 * friends, so that each allocation routine is one method returning the right typed array.
 *
 * <p>The seven constants below are the only instances. Their {@link #kind() kind} is the same set
 * as an enum, for code that must handle every element type: a {@code switch} over
 * {@link Kind} without a {@code default} branch is checked by the compiler to cover them all.
 *
 * @param <T> the symmetric array type this token allocates
 */
public final class SymType<T extends SymArray<?>> {
    /** Elements of type {@code long}. */
    public static final SymType<SymLongArray> LONG = new SymType<>(Kind.LONG, ValueLayout.JAVA_LONG, long[].class);
    /** Elements of type {@code int}. */
    public static final SymType<SymIntArray> INT = new SymType<>(Kind.INT, ValueLayout.JAVA_INT, int[].class);
    /** Elements of type {@code short}. */
    public static final SymType<SymShortArray> SHORT = new SymType<>(Kind.SHORT, ValueLayout.JAVA_SHORT, short[].class);
    /** Elements of type {@code byte}. */
    public static final SymType<SymByteArray> BYTE = new SymType<>(Kind.BYTE, ValueLayout.JAVA_BYTE, byte[].class);
    /** Elements of type {@code char}. */
    public static final SymType<SymCharArray> CHAR = new SymType<>(Kind.CHAR, ValueLayout.JAVA_CHAR, char[].class);
    /** Elements of type {@code float}. */
    public static final SymType<SymFloatArray> FLOAT = new SymType<>(Kind.FLOAT, ValueLayout.JAVA_FLOAT, float[].class);
    /** Elements of type {@code double}. */
    public static final SymType<SymDoubleArray> DOUBLE = new SymType<>(Kind.DOUBLE, ValueLayout.JAVA_DOUBLE, double[].class);

    /**
     * The element types as a closed set: one constant per {@link SymType} constant, of the same
     * name ({@code SymType.LONG.kind() == Kind.LONG}). {@code SymType} itself cannot be an enum,
     * since each constant has its own type argument.
     */
    public enum Kind {
        /** {@code long}: {@link SymType#LONG}. */
        LONG,
        /** {@code int}: {@link SymType#INT}. */
        INT,
        /** {@code short}: {@link SymType#SHORT}. */
        SHORT,
        /** {@code byte}: {@link SymType#BYTE}. */
        BYTE,
        /** {@code char}: {@link SymType#CHAR}. */
        CHAR,
        /** {@code float}: {@link SymType#FLOAT}. */
        FLOAT,
        /** {@code double}: {@link SymType#DOUBLE}. */
        DOUBLE
    }

    private final Kind kind;
    private final String name;
    private final ValueLayout layout;
    private final Class<?> arrayClass;

    private SymType(Kind kind, ValueLayout layout, Class<?> arrayClass) {
        this.kind = kind;
        this.name = kind.name().toLowerCase(Locale.ROOT);
        this.layout = layout;
        this.arrayClass = arrayClass;
    }

    /**
     * Which of the seven element types this is, as an enum constant to {@code switch} on.
     *
     * @return the element type's constant in the closed set {@link Kind}
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Java name of the element type, e.g. {@code "long"}.
     *
     * @return the Java name of the element type, e.g. {@code long}
     */
    public String name() {
        return name;
    }

    /**
     * Layout of one element (native byte order, naturally aligned).
     *
     * @return the memory layout of an element
     */
    public ValueLayout layout() {
        return layout;
    }

    /**
     * Size of one element in bytes.
     *
     * @return the size of an element in bytes
     */
    public int elementSize() {
        return (int) layout.byteSize();
    }

    /**
     * The Java array class of the same element type, e.g. {@code long[].class}.
     *
     * @return the Java array class of the local side, e.g. {@code long[].class}
     */
    public Class<?> arrayClass() {
        return arrayClass;
    }

    @Override
    public String toString() {
        return name;
    }
}
