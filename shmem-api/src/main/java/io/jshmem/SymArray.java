/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import java.lang.foreign.MemorySegment;

/**
 * A symmetric data object: an array that exists at the same place in the symmetric heap of every
 * PE, allocated collectively by {@link Shmem#malloc(SymType, long)} and friends. Remote copies are
 * reached through the RMA, atomic and synchronization routines of {@link ShmemCtx}, which take the
 * object plus an element index; this PE's own copy is {@link #local()}.
 *
 * @param <A> the Java array type with the same element type (e.g. {@code long[]}), the local side
 *            of puts and gets
 */
public interface SymArray<A> {

    /**
     * Number of elements.
     *
     * @return the number of elements
     */
    long length();

    /**
     * Element type.
     *
     * @return the element type
     */
    SymType<?> type();

    /**
     * Size in bytes ({@code length() * type().elementSize()}).
     *
     * @return the size in bytes
     */
    long byteSize();

    /**
     * This PE's copy as a memory segment (the same as {@code shmem.ptr(this, shmem.myPe())}).
     * Plain accesses; use the synchronization routines to wait for remote updates. The segment is
     * closed when the object is freed or reallocated, or the library finalized: accesses through it
     * then throw {@link IllegalStateException}.
     *
     * @return this PE's part of the object, as a segment
     * @throws ShmemException if the object was freed or the library finalized
     */
    MemorySegment local();
}
