/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymArray;
import io.jshmem.SymByteArray;
import io.jshmem.SymCharArray;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymFloatArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymShortArray;
import io.jshmem.SymType;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * One element type seen through raw bits, so that the RMA cases are written once for the seven
 * types. Values are the element's bits, zero-extended to a long ({@code float}/{@code double}:
 * the raw IEEE bits, so NaN payloads compare exactly).
 *
 * @param <A> the Java array type
 * @param <S> the symmetric array type
 */
abstract class TypeOps<A, S extends SymArray<A>> {
    final String name;
    final SymType<S> type;
    final int size;
    final long mask;

    private TypeOps(SymType<S> type) {
        this.name = type.name();
        this.type = type;
        this.size = type.elementSize();
        this.mask = size == 8 ? -1L : (1L << (8 * size)) - 1;
    }

    abstract A newArray(int n);

    /** A heap memory segment over the whole array. */
    abstract MemorySegment heapSegment(A array);

    abstract long bits(A array, int i);

    abstract void setBits(A array, int i, long bits);

    /** Element i of this PE's copy, through the typed get. */
    abstract long local(S object, long i);

    /** Writes element i of this PE's copy through the typed set. */
    abstract void setLocal(S object, long i, long bits);

    /** The typed bulk get: elements [i, i + n) of this PE's copy into {@code dest[destIndex, destIndex + n)}. */
    abstract void bulkGet(S object, long i, A dest, int destIndex, int n);

    /** The typed bulk set: {@code source[sourceIndex, sourceIndex + n)} into elements [i, i + n) of this PE's copy. */
    abstract void bulkSet(S object, long i, A source, int sourceIndex, int n);

    abstract void p(Shmem s, S object, long i, long bits, int pe);

    abstract long g(Shmem s, S object, long i, int pe);

    /** Interesting values of the type, as bits. */
    abstract long[] boundary();

    /** Element i of this PE's copy read as raw bits from local(), bypassing the typed get. */
    final long localRaw(S object, long i) {
        return segBits(object.local(), i);
    }

    /** Element i of a memory segment holding elements of this type, as bits. */
    final long segBits(MemorySegment seg, long i) {
        long off = i * size;
        return switch (size) {
            case 1 -> seg.get(ValueLayout.JAVA_BYTE, off) & mask;
            case 2 -> seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, off) & mask;
            case 4 -> seg.get(ValueLayout.JAVA_INT_UNALIGNED, off) & mask;
            default -> seg.get(ValueLayout.JAVA_LONG_UNALIGNED, off);
        };
    }

    final void setSegBits(MemorySegment seg, long i, long bits) {
        long off = i * size;
        switch (size) {
            case 1 -> seg.set(ValueLayout.JAVA_BYTE, off, (byte) bits);
            case 2 -> seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, off, (short) bits);
            case 4 -> seg.set(ValueLayout.JAVA_INT_UNALIGNED, off, (int) bits);
            default -> seg.set(ValueLayout.JAVA_LONG_UNALIGNED, off, bits);
        }
    }

    /** A deterministic value for (pe, index, salt): spread over the type, never a NaN. */
    long pattern(int pe, int i, int salt) {
        long x = (pe + 1L) * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L + salt * 0x94D049BB133111EBL;
        x ^= x >>> 31;
        x *= 0xD6E8FEB86659FD93L;
        x ^= x >>> 29;
        return x & mask;
    }

    /** An array of n pattern values. */
    final A patternArray(int pe, int n, int salt) {
        A a = newArray(n);
        for (int i = 0; i < n; i++) {
            setBits(a, i, pattern(pe, i, salt));
        }
        return a;
    }

    /** An array holding the given bits. */
    final A arrayOf(long[] bits) {
        A a = newArray(bits.length);
        for (int i = 0; i < bits.length; i++) {
            setBits(a, i, bits[i]);
        }
        return a;
    }

    String show(long bits) {
        return "0x" + Long.toHexString(bits & mask);
    }

    @Override
    public String toString() {
        return name;
    }

    // ---------------------------------------------------------------- the seven types

    static final TypeOps<long[], SymLongArray> LONG = new TypeOps<>(SymType.LONG) {
        long[] newArray(int n) { return new long[n]; }
        MemorySegment heapSegment(long[] a) { return MemorySegment.ofArray(a); }
        long bits(long[] a, int i) { return a[i]; }
        void setBits(long[] a, int i, long b) { a[i] = b; }
        long local(SymLongArray o, long i) { return o.get(i); }
        void setLocal(SymLongArray o, long i, long b) { o.set(i, b); }
        void bulkGet(SymLongArray o, long i, long[] d, int di, int n) { o.get(i, d, di, n); }
        void bulkSet(SymLongArray o, long i, long[] a, int ai, int n) { o.set(i, a, ai, n); }
        void p(Shmem s, SymLongArray o, long i, long b, int pe) { s.p(o, i, b, pe); }
        long g(Shmem s, SymLongArray o, long i, int pe) { return s.g(o, i, pe); }
        long[] boundary() {
            return new long[] {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MIN_VALUE + 1, Long.MAX_VALUE - 1,
                               0x8000_0000L, 0xFFFF_FFFFL, 0x0123_4567_89AB_CDEFL, 0xFEDC_BA98_7654_3210L};
        }
    };

    static final TypeOps<int[], SymIntArray> INT = new TypeOps<>(SymType.INT) {
        int[] newArray(int n) { return new int[n]; }
        MemorySegment heapSegment(int[] a) { return MemorySegment.ofArray(a); }
        long bits(int[] a, int i) { return a[i] & 0xFFFF_FFFFL; }
        void setBits(int[] a, int i, long b) { a[i] = (int) b; }
        long local(SymIntArray o, long i) { return o.get(i) & 0xFFFF_FFFFL; }
        void setLocal(SymIntArray o, long i, long b) { o.set(i, (int) b); }
        void bulkGet(SymIntArray o, long i, int[] d, int di, int n) { o.get(i, d, di, n); }
        void bulkSet(SymIntArray o, long i, int[] a, int ai, int n) { o.set(i, a, ai, n); }
        void p(Shmem s, SymIntArray o, long i, long b, int pe) { s.p(o, i, (int) b, pe); }
        long g(Shmem s, SymIntArray o, long i, int pe) { return s.g(o, i, pe) & 0xFFFF_FFFFL; }
        long[] boundary() {
            return masked(new long[] {Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1, Integer.MIN_VALUE + 1, 0x8000, 0xFFFF, 0x1234_5678});
        }
    };

    static final TypeOps<short[], SymShortArray> SHORT = new TypeOps<>(SymType.SHORT) {
        short[] newArray(int n) { return new short[n]; }
        MemorySegment heapSegment(short[] a) { return MemorySegment.ofArray(a); }
        long bits(short[] a, int i) { return a[i] & 0xFFFFL; }
        void setBits(short[] a, int i, long b) { a[i] = (short) b; }
        long local(SymShortArray o, long i) { return o.get(i) & 0xFFFFL; }
        void setLocal(SymShortArray o, long i, long b) { o.set(i, (short) b); }
        void bulkGet(SymShortArray o, long i, short[] d, int di, int n) { o.get(i, d, di, n); }
        void bulkSet(SymShortArray o, long i, short[] a, int ai, int n) { o.set(i, a, ai, n); }
        void p(Shmem s, SymShortArray o, long i, long b, int pe) { s.p(o, i, (short) b, pe); }
        long g(Shmem s, SymShortArray o, long i, int pe) { return s.g(o, i, pe) & 0xFFFFL; }
        long[] boundary() {
            return masked(new long[] {Short.MIN_VALUE, Short.MAX_VALUE, 0, -1, 1, 0x80, 0xFF, 0x1234});
        }
    };

    static final TypeOps<byte[], SymByteArray> BYTE = new TypeOps<>(SymType.BYTE) {
        byte[] newArray(int n) { return new byte[n]; }
        MemorySegment heapSegment(byte[] a) { return MemorySegment.ofArray(a); }
        long bits(byte[] a, int i) { return a[i] & 0xFFL; }
        void setBits(byte[] a, int i, long b) { a[i] = (byte) b; }
        long local(SymByteArray o, long i) { return o.get(i) & 0xFFL; }
        void setLocal(SymByteArray o, long i, long b) { o.set(i, (byte) b); }
        void bulkGet(SymByteArray o, long i, byte[] d, int di, int n) { o.get(i, d, di, n); }
        void bulkSet(SymByteArray o, long i, byte[] a, int ai, int n) { o.set(i, a, ai, n); }
        void p(Shmem s, SymByteArray o, long i, long b, int pe) { s.p(o, i, (byte) b, pe); }
        long g(Shmem s, SymByteArray o, long i, int pe) { return s.g(o, i, pe) & 0xFFL; }
        long[] boundary() {
            return masked(new long[] {Byte.MIN_VALUE, Byte.MAX_VALUE, 0, -1, 1, 0x55, 0xAA});
        }
    };

    static final TypeOps<char[], SymCharArray> CHAR = new TypeOps<>(SymType.CHAR) {
        char[] newArray(int n) { return new char[n]; }
        MemorySegment heapSegment(char[] a) { return MemorySegment.ofArray(a); }
        long bits(char[] a, int i) { return a[i]; }
        void setBits(char[] a, int i, long b) { a[i] = (char) b; }
        long local(SymCharArray o, long i) { return o.get(i); }
        void setLocal(SymCharArray o, long i, long b) { o.set(i, (char) b); }
        void bulkGet(SymCharArray o, long i, char[] d, int di, int n) { o.get(i, d, di, n); }
        void bulkSet(SymCharArray o, long i, char[] a, int ai, int n) { o.set(i, a, ai, n); }
        void p(Shmem s, SymCharArray o, long i, long b, int pe) { s.p(o, i, (char) b, pe); }
        long g(Shmem s, SymCharArray o, long i, int pe) { return s.g(o, i, pe); }
        long[] boundary() {
            return new long[] {Character.MIN_VALUE, Character.MAX_VALUE, 0x7FFF, 0x8000, 'A', 0xD800, 0xDFFF, 0xFFFE, 0x00E9};
        }
    };

    static final TypeOps<float[], SymFloatArray> FLOAT = new TypeOps<>(SymType.FLOAT) {
        float[] newArray(int n) { return new float[n]; }
        MemorySegment heapSegment(float[] a) { return MemorySegment.ofArray(a); }
        long bits(float[] a, int i) { return Float.floatToRawIntBits(a[i]) & 0xFFFF_FFFFL; }
        void setBits(float[] a, int i, long b) { a[i] = Float.intBitsToFloat((int) b); }
        long local(SymFloatArray o, long i) { return Float.floatToRawIntBits(o.get(i)) & 0xFFFF_FFFFL; }
        void setLocal(SymFloatArray o, long i, long b) { o.set(i, Float.intBitsToFloat((int) b)); }
        void bulkGet(SymFloatArray o, long i, float[] d, int di, int n) { o.get(i, d, di, n); }
        void bulkSet(SymFloatArray o, long i, float[] a, int ai, int n) { o.set(i, a, ai, n); }
        void p(Shmem s, SymFloatArray o, long i, long b, int pe) { s.p(o, i, Float.intBitsToFloat((int) b), pe); }
        long g(Shmem s, SymFloatArray o, long i, int pe) { return Float.floatToRawIntBits(s.g(o, i, pe)) & 0xFFFF_FFFFL; }
        @Override
        long pattern(int pe, int i, int salt) {
            long b = super.pattern(pe, i, salt);
            return (b & 0x7F80_0000L) == 0x7F80_0000L ? b & ~0x0080_0000L : b; // no NaN or infinity
        }
        long[] boundary() {
            return masked(new long[] {
                Float.floatToRawIntBits(Float.NaN), 0x7FC1_2345, 0xFFC0_0001, // quiet NaNs with payloads
                0x7F80_0001, 0xFF80_0001,                                       // signalling NaNs
                Float.floatToRawIntBits(Float.POSITIVE_INFINITY), Float.floatToRawIntBits(Float.NEGATIVE_INFINITY),
                Float.floatToRawIntBits(-0.0f), 0, Float.floatToRawIntBits(Float.MIN_VALUE),
                Float.floatToRawIntBits(Float.MAX_VALUE), Float.floatToRawIntBits(-Float.MAX_VALUE),
                Float.floatToRawIntBits(Float.MIN_NORMAL), Float.floatToRawIntBits(1.0f / 3)});
        }
        @Override
        String show(long b) {
            return super.show(b) + "(" + Float.intBitsToFloat((int) b) + ")";
        }
    };

    static final TypeOps<double[], SymDoubleArray> DOUBLE = new TypeOps<>(SymType.DOUBLE) {
        double[] newArray(int n) { return new double[n]; }
        MemorySegment heapSegment(double[] a) { return MemorySegment.ofArray(a); }
        long bits(double[] a, int i) { return Double.doubleToRawLongBits(a[i]); }
        void setBits(double[] a, int i, long b) { a[i] = Double.longBitsToDouble(b); }
        long local(SymDoubleArray o, long i) { return Double.doubleToRawLongBits(o.get(i)); }
        void setLocal(SymDoubleArray o, long i, long b) { o.set(i, Double.longBitsToDouble(b)); }
        void bulkGet(SymDoubleArray o, long i, double[] d, int di, int n) { o.get(i, d, di, n); }
        void bulkSet(SymDoubleArray o, long i, double[] a, int ai, int n) { o.set(i, a, ai, n); }
        void p(Shmem s, SymDoubleArray o, long i, long b, int pe) { s.p(o, i, Double.longBitsToDouble(b), pe); }
        long g(Shmem s, SymDoubleArray o, long i, int pe) { return Double.doubleToRawLongBits(s.g(o, i, pe)); }
        @Override
        long pattern(int pe, int i, int salt) {
            long b = super.pattern(pe, i, salt);
            return (b & 0x7FF0_0000_0000_0000L) == 0x7FF0_0000_0000_0000L ? b & ~0x0010_0000_0000_0000L : b;
        }
        long[] boundary() {
            return new long[] {
                Double.doubleToRawLongBits(Double.NaN), 0x7FF8_0000_1234_5678L, 0xFFF8_0000_0000_0001L,
                0x7FF0_0000_0000_0001L, 0xFFF4_0000_0000_0000L,
                Double.doubleToRawLongBits(Double.POSITIVE_INFINITY), Double.doubleToRawLongBits(Double.NEGATIVE_INFINITY),
                Double.doubleToRawLongBits(-0.0), 0, Double.doubleToRawLongBits(Double.MIN_VALUE),
                Double.doubleToRawLongBits(Double.MAX_VALUE), Double.doubleToRawLongBits(-Double.MAX_VALUE),
                Double.doubleToRawLongBits(Double.MIN_NORMAL), Double.doubleToRawLongBits(Math.PI)};
        }
        @Override
        String show(long b) {
            return super.show(b) + "(" + Double.longBitsToDouble(b) + ")";
        }
    };

    static final List<TypeOps<?, ?>> ALL = List.of(LONG, INT, SHORT, BYTE, CHAR, FLOAT, DOUBLE);

    /** The values cut to the type's width (as bits). */
    final long[] masked(long[] values) {
        long[] m = new long[values.length];
        for (int i = 0; i < values.length; i++) {
            m[i] = values[i] & mask;
        }
        return m;
    }
}
