package io.jshmem.core;

import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.ValueLayout;

final class SymLongArrayImpl extends SymArrayImpl<long[]> implements SymLongArray {
    SymLongArrayImpl(SymmetricHeap heap, long offset, long length) {
        super(heap, SymType.LONG, offset, length);
    }

    @Override
    public long get(long index) {
        return local.get(ValueLayout.JAVA_LONG, localOffset(index));
    }

    @Override
    public void set(long index, long value) {
        local.set(ValueLayout.JAVA_LONG, localOffset(index), value);
    }
}
