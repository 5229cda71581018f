/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * A symmetric array of {@code float}; {@link #get}/{@link #set} access this PE's copy, one element or a range at a
 * time.
 */
public interface SymFloatArray extends SymArray<float[]> {
    /**
     * Reads element {@code index} of this PE's copy.
     *
     * @param index the index of the element
     * @return the element's value on this PE
     */
    float get(long index);

    /**
     * Writes element {@code index} of this PE's copy.
     *
     * @param index the index of the element
     * @param value the value to store
     */
    void set(long index, float value);

    /**
     * Copies elements {@code [index, index + nelems)} of this PE's copy into
     * {@code dest[destIndex, destIndex + nelems)}: a bulk {@link #get(long)}, one memory copy
     * (native byte order, no allocation). Local only: no communication and not a collective; it
     * returns when the elements are copied. Plain reads, like {@link #local()}: use the
     * synchronization routines to wait for remote updates. A Java convenience (C reads the
     * symmetric object's memory directly); {@code nelems} 0 copies nothing.
     *
     * @param index the index of the first element of this array read
     * @param dest the Java array to copy into
     * @param destIndex the index in {@code dest} of the first element written
     * @param nelems the number of elements
     * @throws ShmemException naming this PE if {@code index} or {@code nelems} is negative or the
     *         range is outside this array, or if the object was freed or the library finalized
     * @throws NullPointerException if {@code dest} is null
     * @throws IndexOutOfBoundsException if {@code dest} has no elements {@code [destIndex, destIndex + nelems)}
     */
    void get(long index, float[] dest, int destIndex, int nelems);

    /**
     * Copies {@code source[sourceIndex, sourceIndex + nelems)} into elements
     * {@code [index, index + nelems)} of this PE's copy: a bulk {@link #set(long, float)}, one memory
     * copy (native byte order, no allocation). Local only: no communication and not a collective;
     * it returns when the elements are stored (plain stores: other PEs see them after a barrier or
     * another synchronization, as with {@link #local()}). A Java convenience (C writes the
     * symmetric object's memory directly); {@code nelems} 0 copies nothing.
     *
     * @param index the index of the first element of this array written
     * @param source the Java array to copy from
     * @param sourceIndex the index in {@code source} of the first element read
     * @param nelems the number of elements
     * @throws ShmemException naming this PE if {@code index} or {@code nelems} is negative or the
     *         range is outside this array, or if the object was freed or the library finalized
     * @throws NullPointerException if {@code source} is null
     * @throws IndexOutOfBoundsException if {@code source} has no elements {@code [sourceIndex, sourceIndex + nelems)}
     */
    void set(long index, float[] source, int sourceIndex, int nelems);
}
