/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** A SymLongArray that jshmem did not allocate: every routine must refuse it. */
final class FakeLongArray implements SymLongArray {
    private final MemorySegment memory;

    FakeLongArray(long length) {
        this.memory = Arena.ofAuto().allocate(Math.max(8, length * 8), 8);
    }

    @Override
    public long length() {
        return memory.byteSize() / 8;
    }

    @Override
    public SymType<?> type() {
        return SymType.LONG;
    }

    @Override
    public long byteSize() {
        return memory.byteSize();
    }

    @Override
    public MemorySegment local() {
        return memory;
    }

    @Override
    public long get(long index) {
        return memory.getAtIndex(ValueLayout.JAVA_LONG, index);
    }

    @Override
    public void set(long index, long value) {
        memory.setAtIndex(ValueLayout.JAVA_LONG, index, value);
    }

    @Override
    public void get(long index, long[] dest, int destIndex, int nelems) {
        MemorySegment.copy(memory, ValueLayout.JAVA_LONG, index * 8, dest, destIndex, nelems);
    }

    @Override
    public void set(long index, long[] source, int sourceIndex, int nelems) {
        MemorySegment.copy(source, sourceIndex, memory, ValueLayout.JAVA_LONG, index * 8, nelems);
    }

    @Override
    public String toString() {
        return "FakeLongArray[" + length() + "]";
    }
}
