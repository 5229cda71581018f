/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.transport;

/**
 * Stores the result of a non-blocking fetching atomic into the Java array the caller named: the
 * transport holds the array as an {@code Object} until the operation completes at quiet.
 */
public final class Fetched {
    private Fetched() {
    }

    /**
     * Stores {@code bits} (the old value, as {@link RemoteTransport#atomic64}/{@code atomic32}
     * return it) into {@code array[index]}: a {@code long[]}, {@code double[]} (8-byte bits),
     * {@code int[]} or {@code float[]} (4-byte bits).
     */
    public static void store(Object array, int index, long bits) {
        if (array instanceof long[] a) {
            a[index] = bits;
        } else if (array instanceof int[] a) {
            a[index] = (int) bits;
        } else if (array instanceof double[] a) {
            a[index] = Double.longBitsToDouble(bits);
        } else if (array instanceof float[] a) {
            a[index] = Float.intBitsToFloat((int) bits);
        } else {
            throw new IllegalArgumentException("not a long[], int[], double[] or float[]: " + array);
        }
    }
}
