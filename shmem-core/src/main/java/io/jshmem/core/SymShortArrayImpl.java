package io.jshmem.core;

import io.jshmem.SymShortArray;
import io.jshmem.SymType;
import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.ValueLayout;

final class SymShortArrayImpl extends SymArrayImpl<short[]> implements SymShortArray {
    SymShortArrayImpl(SymmetricHeap heap, long offset, long length) {
        super(heap, SymType.SHORT, offset, length);
    }

    @Override
    public short get(long index) {
        return local.get(ValueLayout.JAVA_SHORT, localOffset(index));
    }

    @Override
    public void set(long index, short value) {
        local.set(ValueLayout.JAVA_SHORT, localOffset(index), value);
    }
}
