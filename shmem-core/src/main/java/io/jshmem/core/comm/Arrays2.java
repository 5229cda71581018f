/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

import io.jshmem.SignalOp;
import java.lang.foreign.MemorySegment;

/** Small checks and conversions shared by the RMA and synchronization routines. */
public final class Arrays2 {
    private Arrays2() {
    }

    /**
     * Checks {@code array[index, index + count)} for the remote path as the on-node path's copy
     * would: a primitive array (else NullPointerException, IllegalArgumentException) holding that
     * range (else IndexOutOfBoundsException). An empty array and count 0 pass.
     */
    static void checkRemoteRange(Object array, int index, int count) {
        requireArray(array);
        Class<?> element = array.getClass().componentType();
        if (element == null || !element.isPrimitive()) {
            throw new IllegalArgumentException("not a primitive array: " + array.getClass().getName());
        }
        checkArrayRange(array, index, count);
    }

    /** Number of elements of {@code object}'s type that {@code local} holds; it must hold a whole number. */
    public static long elements(MemorySegment local, SymArrayImpl<?> object) {
        long size = local.byteSize();
        if ((size & ((1L << object.shift) - 1)) != 0) {
            throw new IllegalArgumentException("local segment of " + size + " bytes is not a whole number of "
                    + object.type().name() + " elements");
        }
        return size >> object.shift;
    }

    /**
     * A null local array is refused with the same exception and message on every path, shared
     * memory or transport, before anything moves.
     */
    static Object requireArray(Object array) {
        if (array == null) {
            throw new NullPointerException("local array is null");
        }
        return array;
    }

    /** A put with signal refuses a null signal operation before it writes the data (it would write no signal). */
    public static SignalOp requireSignalOp(SignalOp op) {
        if (op == null) {
            throw new NullPointerException("signal operation (sigOp) is null");
        }
        return op;
    }

    /** Checks that {@code array[index, index + count)} exists, before any element moves. */
    public static void checkArrayRange(Object array, int index, long count) {
        requireArray(array);
        java.util.Objects.checkFromIndexSize(index, count, (long) java.lang.reflect.Array.getLength(array));
    }

    public static void checkStrides(long dst, long sst, long bsize, long nblocks) {
        if (dst < 1 || sst < 1 || bsize < 0 || nblocks < 0) {
            throw new IllegalArgumentException("strides must be >= 1 and counts >= 0 (dst=" + dst + ", sst=" + sst
                    + ", bsize=" + bsize + ", nblocks=" + nblocks + ")");
        }
        if (nblocks > 1 && (dst < bsize || sst < bsize)) {
            throw new IllegalArgumentException("block size " + bsize + " is larger than a stride (dst=" + dst + ", sst=" + sst + ")");
        }
        if (nblocks > 1 && (extentOverflows(dst, bsize, nblocks) || extentOverflows(sst, bsize, nblocks))) {
            // Else the wrapped-around extent passes the range checks and the blocks land elsewhere.
            throw new IllegalArgumentException("(nblocks - 1) x stride + bsize overflows a long (dst=" + dst + ", sst=" + sst
                    + ", bsize=" + bsize + ", nblocks=" + nblocks + "): no object is that long");
        }
    }

    private static boolean extentOverflows(long stride, long bsize, long nblocks) {
        long high = Math.multiplyHigh(nblocks - 1, stride);
        long low = (nblocks - 1) * stride;
        return high != 0 || low < 0 || low + bsize < 0;
    }

    public static Object requireValues(Object values) {
        if (values == null) {
            throw new NullPointerException("comparison values are null");
        }
        return values;
    }
}
