/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.jshmem.Shmem;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import java.lang.reflect.Array;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Puts from and gets into Java arrays of every element type between PEs of one node (Comm's
 * direct copies, which the PRK ports' halo and block transfers use): every type lands at the
 * right offset with its bits intact, strided transfers (iput/iget, a copy per element) too, and
 * an array that does not match the symmetric array's type is refused before anything moves.
 */
class ArrayPutGetTest {
    private static final List<SymType<?>> TYPES = List.of(SymType.DOUBLE, SymType.LONG, SymType.INT, SymType.FLOAT,
            SymType.BYTE, SymType.SHORT, SymType.CHAR);

    private static Object newArray(SymType<?> t, int n) {
        return Array.newInstance(t.arrayClass().componentType(), n);
    }

    /** Element k of the pattern of PE {@code pe}: distinct per type's width, never 0. */
    private static Object pattern(SymType<?> t, int pe, int n) {
        Object a = newArray(t, n);
        for (int k = 0; k < n; k++) {
            int v = 1 + pe * 37 + k * 3;
            switch (t.kind()) {
                case DOUBLE -> Array.setDouble(a, k, v + 0.25);
                case LONG -> Array.setLong(a, k, ((long) v << 40) | v);
                case INT -> Array.setInt(a, k, -v);
                case FLOAT -> Array.setFloat(a, k, v - 0.5f);
                case BYTE -> Array.setByte(a, k, (byte) v);
                case SHORT -> Array.setShort(a, k, (short) (v * 300));
                case CHAR -> Array.setChar(a, k, (char) ('a' + v % 26));
            }
        }
        return a;
    }

    private static void assertSameElements(Object expected, Object actual, String what) {
        switch (expected) {
            case double[] e -> assertArrayEquals(e, (double[]) actual, what);
            case long[] e -> assertArrayEquals(e, (long[]) actual, what);
            case int[] e -> assertArrayEquals(e, (int[]) actual, what);
            case float[] e -> assertArrayEquals(e, (float[]) actual, what);
            case byte[] e -> assertArrayEquals(e, (byte[]) actual, what);
            case short[] e -> assertArrayEquals(e, (short[]) actual, what);
            case char[] e -> assertArrayEquals(e, (char[]) actual, what);
            default -> throw new AssertionError(expected);
        }
    }

    /** {@code a[from, from + n)} as a new array. */
    private static Object range(Object a, int from, int n) {
        Object r = Array.newInstance(a.getClass().componentType(), n);
        System.arraycopy(a, from, r, 0, n);
        return r;
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void everyTypeRoundTripsAndAMismatchedArrayIsRefused() throws Exception {
        try (InProcessJob job = new InProcessJob(new int[] {0, 0}, true, "auto", false)) {
            job.all(me -> {
                Shmem s = job.shmem(me);
                int right = (me + 1) % s.nPes();
                for (SymType<?> t : TYPES) {
                    String w = t.name() + ", PE " + me + ": ";
                    SymArray dest = s.calloc(t, 16);
                    Object mine = pattern(t, me, 16);
                    s.barrierAll();
                    // elements 3..9 of my pattern to the right neighbour's elements 5..11
                    s.put(dest, 5, mine, 3, 7, right);
                    s.barrierAll();
                    int left = (me + s.nPes() - 1) % s.nPes();
                    Object got = newArray(t, 16);
                    s.get(got, 2, dest, 5, 7, me);
                    assertSameElements(range(pattern(t, left, 16), 3, 7), range(got, 2, 7), w + "put then get");
                    assertEquals(0, Array.getDouble(range(got, 0, 1), 0), w + "get wrote before its range");
                    Object back = newArray(t, 7);
                    s.get(back, 0, dest, 5, 7, right); // what I put there
                    assertSameElements(range(mine, 3, 7), back, w + "get from the right neighbour");
                    // strided: every second element of my pattern to elements 0, 3, 6, 9 of the neighbour's
                    s.barrierAll();
                    s.iput(dest, 0, 3, mine, 0, 2, 4, right);
                    s.barrierAll();
                    Object strided = newArray(t, 8);
                    s.iget(strided, 0, 2, dest, 0, 3, 4, me);
                    Object expected = pattern(t, left, 16);
                    for (int k = 0; k < 4; k++) {
                        assertSameElements(range(expected, 2 * k, 1), range(strided, 2 * k, 1), w + "iput/iget element " + k);
                    }
                    // a Java array of another type: refused, nothing written
                    Object wrong = t == SymType.LONG ? new double[16] : new long[16];
                    Object before = newArray(t, 16);
                    s.get(before, 0, dest, 0, 16, right);
                    assertThrows(IllegalArgumentException.class, () -> s.put(dest, 0, wrong, 0, 2, right), w + "put of a mismatched array");
                    assertThrows(IllegalArgumentException.class, () -> s.get(wrong, 0, dest, 0, 2, right), w + "get into a mismatched array");
                    Object after = newArray(t, 16);
                    s.get(after, 0, dest, 0, 16, right);
                    assertSameElements(before, after, w + "a refused put changed the target");
                    s.barrierAll();
                    s.free(dest);
                }
                return null;
            });
        }
    }
}
