/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * Thrown by the symmetric allocation routines ({@code malloc}, {@code calloc}, {@code align},
 * {@code realloc}, ...) when the symmetric heap has no free block large enough, or the size
 * overflows. Allocation is collective: every PE gets the same outcome. The message names the PE,
 * the routine, the request and what is free; {@code SHMEM_SYMMETRIC_SIZE} sets the heap's size.
 */
public final class HeapExhaustedException extends ShmemException {
    private static final long serialVersionUID = 1L;

    /** Bytes requested. */
    private final long requestedBytes;
    /** Bytes free in the heap. */
    private final long freeBytes;

    /**
     * Creates the exception (the runtime does).
     *
     * @param requestedBytes bytes requested ({@link Long#MAX_VALUE} when the size overflows)
     * @param freeBytes      bytes free in the heap, in all blocks together
     * @param message        the PE, the routine, the request, what is free and what to do
     */
    public HeapExhaustedException(long requestedBytes, long freeBytes, String message) {
        super(message);
        this.requestedBytes = requestedBytes;
        this.freeBytes = freeBytes;
    }

    /** {@return the bytes requested ({@link Long#MAX_VALUE} when the size overflows)} */
    public long requestedBytes() {
        return requestedBytes;
    }

    /** {@return the bytes free in the symmetric heap, in all blocks together (none may be large enough)} */
    public long freeBytes() {
        return freeBytes;
    }
}
