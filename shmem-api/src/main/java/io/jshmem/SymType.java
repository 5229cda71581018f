package io.jshmem;

import java.lang.foreign.ValueLayout;

/**
 * Element type of a symmetric array: the token passed to {@link Shmem#malloc(SymType, long)} and
 * friends, so that each allocation routine is one method returning the right typed array.
 *
 * @param <T> the symmetric array type this token allocates
 */
public final class SymType<T extends SymArray<?>> {
    public static final SymType<SymLongArray> LONG = new SymType<>("long", ValueLayout.JAVA_LONG, long[].class);
    public static final SymType<SymIntArray> INT = new SymType<>("int", ValueLayout.JAVA_INT, int[].class);
    public static final SymType<SymShortArray> SHORT = new SymType<>("short", ValueLayout.JAVA_SHORT, short[].class);
    public static final SymType<SymByteArray> BYTE = new SymType<>("byte", ValueLayout.JAVA_BYTE, byte[].class);
    public static final SymType<SymCharArray> CHAR = new SymType<>("char", ValueLayout.JAVA_CHAR, char[].class);
    public static final SymType<SymFloatArray> FLOAT = new SymType<>("float", ValueLayout.JAVA_FLOAT, float[].class);
    public static final SymType<SymDoubleArray> DOUBLE = new SymType<>("double", ValueLayout.JAVA_DOUBLE, double[].class);

    private final String name;
    private final ValueLayout layout;
    private final Class<?> arrayClass;

    private SymType(String name, ValueLayout layout, Class<?> arrayClass) {
        this.name = name;
        this.layout = layout;
        this.arrayClass = arrayClass;
    }

    /** Java name of the element type, e.g. {@code "long"}. */
    public String name() {
        return name;
    }

    /** Layout of one element (native byte order, naturally aligned). */
    public ValueLayout layout() {
        return layout;
    }

    /** Size of one element in bytes. */
    public int elementSize() {
        return (int) layout.byteSize();
    }

    /** The Java array class of the same element type, e.g. {@code long[].class}. */
    public Class<?> arrayClass() {
        return arrayClass;
    }

    @Override
    public String toString() {
        return name;
    }
}
