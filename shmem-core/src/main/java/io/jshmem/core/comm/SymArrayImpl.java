/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

import io.jshmem.ShmemException;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A symmetric array: a place in the symmetric heap (the same offset on every PE) plus this PE's
 * view of it. Immutable but for {@link #freed}, set by the collective free ({@link #markFreed}).
 */
public abstract class SymArrayImpl<A> implements SymArray<A> {
    public final SymmetricHeap heap;
    public final SymType<?> type;
    public final ValueLayout layout;
    /** Byte offset in every PE's heap segment. */
    public final long offset;
    public final long length;
    /** log2 of the element size. */
    public final int shift;
    /** This PE's copy, for the runtime's own accesses (each checks {@link #freed} first). */
    public final MemorySegment local;
    public boolean freed;
    /**
     * The scope of the segments handed to the program ({@link #local()}, {@code ptr}), made at the
     * first and closed when the object is freed: a segment kept past free() then fails with
     * IllegalStateException instead of reading or writing the block's next owner (on this PE or,
     * through ptr, on a peer). Guarded by the heap's lock.
     */
    private Arena viewScope;
    /** {@link #local()}'s segment once made (a plain field: a segment's fields are final). */
    private MemorySegment localView;
    /**
     * Where the next testAny ({@link #testAnyStart}) or waitUntilAny ({@link #waitAnyStart}) over
     * this object starts scanning: just after the index the last call of the same routine returned,
     * so every satisfied index is returned within {@code length} calls of each (OpenSHMEM 1.6,
     * shmem_test_any, shmem_wait_until_any); one cursor for both let calls of one alternating with
     * the other return every other index only. Racy by design: threads sharing the object only
     * share the fairness.
     */
    public long testAnyStart;
    public long waitAnyStart;

    SymArrayImpl(SymmetricHeap heap, SymType<?> type, long offset, long length) {
        this.heap = heap;
        this.type = type;
        this.layout = type.layout();
        this.offset = offset;
        this.length = length;
        this.shift = Integer.numberOfTrailingZeros(type.elementSize());
        this.local = heap.self().asSlice(offset, length << shift);
    }

    public static SymArrayImpl<?> create(SymmetricHeap heap, SymType<?> type, long offset, long length) {
        return switch (type.kind()) { // no default: a new kind must be added here
            case LONG -> new SymLongArrayImpl(heap, offset, length);
            case INT -> new SymIntArrayImpl(heap, offset, length);
            case SHORT -> new SymShortArrayImpl(heap, offset, length);
            case BYTE -> new SymByteArrayImpl(heap, offset, length);
            case CHAR -> new SymCharArrayImpl(heap, offset, length);
            case FLOAT -> new SymFloatArrayImpl(heap, offset, length);
            case DOUBLE -> new SymDoubleArrayImpl(heap, offset, length);
        };
    }

    @Override
    public final long length() {
        return length;
    }

    @Override
    public final SymType<?> type() {
        return type;
    }

    @Override
    public final long byteSize() {
        return length << shift;
    }

    /** Byte offset of this object in the symmetric heap (the same on every PE). */
    public final long heapOffset() {
        return offset;
    }

    @Override
    public final MemorySegment local() {
        if (freed) {
            throw heap.deadObject(this);
        }
        MemorySegment v = localView;
        return v != null ? v : (localView = view(local));
    }

    /**
     * {@code mapping} (this object's bytes in a mapped heap: this PE's or, for ptr, a peer's on
     * the node) as a segment the program may keep: usable until the object is freed or the heap
     * unmapped, whichever comes first.
     */
    public final MemorySegment view(MemorySegment mapping) {
        synchronized (heap) { // the lock free() holds while it calls markFreed: one lock, one order
            if (freed) {
                throw heap.deadObject(this);
            }
            if (viewScope == null) {
                viewScope = heap.openViewScope(this);
            }
            return mapping.reinterpret(viewScope, null);
        }
    }

    /** At free, realloc and finalize: marks this object dead and closes the segments handed out. */
    public final void markFreed() {
        synchronized (heap) {
            freed = true;
            if (viewScope != null) {
                heap.closeViewScope(viewScope, this);
                viewScope = null;
            }
        }
    }

    /** What a local element access throws instead of a fault on the heap's pages (see SymmetricHeap.fault). */
    final ShmemException fault(InternalError e, String routine) {
        return heap.fault(e, routine + " on " + this, heap.myPe());
    }

    /** Checks a local element access. */
    final long localOffset(long index) {
        if (freed) {
            throw heap.deadObject(this);
        }
        if (index < 0 || index >= length) {
            throw new ShmemException("PE " + heap.myPe() + ": index " + index + " out of bounds for symmetric "
                    + type.name() + " array of length " + length);
        }
        return index << shift;
    }

    /**
     * A bulk get: elements {@code [index, index + nelems)} of this PE's copy into
     * {@code dest[destIndex, destIndex + nelems)}, a Java array of {@code arrayLength} elements of
     * {@code elementLayout}'s carrier (the typed subclass's constant, so the copy compiles to a
     * plain memory copy).
     */
    final void copyOut(ValueLayout elementLayout, long index, Object dest, int destIndex, int arrayLength, int nelems) {
        long off = localRange(index, nelems, dest, destIndex, arrayLength, "get");
        try {
            MemorySegment.copy(local, elementLayout, off, dest, destIndex, nelems);
        } catch (InternalError e) {
            throw fault(e, "get");
        }
    }

    /** A bulk set: {@code source[sourceIndex, sourceIndex + nelems)} into elements {@code [index, index + nelems)}, as {@link #copyOut}. */
    final void copyIn(ValueLayout elementLayout, long index, Object source, int sourceIndex, int arrayLength, int nelems) {
        long off = localRange(index, nelems, source, sourceIndex, arrayLength, "set");
        try {
            MemorySegment.copy(source, sourceIndex, local, elementLayout, off, nelems);
        } catch (InternalError e) {
            throw fault(e, "set");
        }
    }

    /**
     * Checks a bulk local copy between elements {@code [index, index + nelems)} and a Java array
     * of {@code arrayLength} elements ({@code array[arrayIndex, arrayIndex + nelems)}); returns the
     * byte offset of element {@code index} in {@link #local}. The symmetric side fails with a
     * {@link ShmemException} naming the PE, the Java side as Java's copies do (put and get too).
     */
    private long localRange(long index, int nelems, Object array, int arrayIndex, int arrayLength, String routine) {
        if (freed) {
            throw heap.deadObject(this);
        }
        if (index < 0 || nelems < 0 || index > length - nelems) {
            throw new ShmemException("PE " + heap.myPe() + ": " + routine + " of " + nelems + " elements at index " + index
                    + (nelems < 0 ? ": negative count" : index < 0 ? ": negative index" : ": elements [" + index + ", "
                    + (index + nelems) + ") are outside the symmetric " + type.name() + " array of length " + length));
        }
        if (array == null) {
            throw new NullPointerException("local array is null");
        }
        java.util.Objects.checkFromIndexSize(arrayIndex, nelems, arrayLength);
        return index << shift;
    }

    @Override
    public String toString() {
        return "Sym" + Character.toUpperCase(type.name().charAt(0)) + type.name().substring(1) + "Array[length=" + length
                + ", offset=" + offset + (freed ? ", freed" : "") + "]";
    }
}
