/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import java.lang.foreign.ValueLayout;

/**
 * Element type of a symmetric array: the token passed to {@link Shmem#malloc(SymType, long)} and
 * friends, so that each allocation routine is one method returning the right typed array.
 *
 * @param <T> the symmetric array type this token allocates
 */
public final class SymType<T extends SymArray<?>> {
    /** Elements of type {@code long}. */
    public static final SymType<SymLongArray> LONG = new SymType<>("long", ValueLayout.JAVA_LONG, long[].class);
    /** Elements of type {@code int}. */
    public static final SymType<SymIntArray> INT = new SymType<>("int", ValueLayout.JAVA_INT, int[].class);
    /** Elements of type {@code short}. */
    public static final SymType<SymShortArray> SHORT = new SymType<>("short", ValueLayout.JAVA_SHORT, short[].class);
    /** Elements of type {@code byte}. */
    public static final SymType<SymByteArray> BYTE = new SymType<>("byte", ValueLayout.JAVA_BYTE, byte[].class);
    /** Elements of type {@code char}. */
    public static final SymType<SymCharArray> CHAR = new SymType<>("char", ValueLayout.JAVA_CHAR, char[].class);
    /** Elements of type {@code float}. */
    public static final SymType<SymFloatArray> FLOAT = new SymType<>("float", ValueLayout.JAVA_FLOAT, float[].class);
    /** Elements of type {@code double}. */
    public static final SymType<SymDoubleArray> DOUBLE = new SymType<>("double", ValueLayout.JAVA_DOUBLE, double[].class);

    private final String name;
    private final ValueLayout layout;
    private final Class<?> arrayClass;

    private SymType(String name, ValueLayout layout, Class<?> arrayClass) {
        this.name = name;
        this.layout = layout;
        this.arrayClass = arrayClass;
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
