package io.jshmem.core;

import io.jshmem.SymFloatArray;
import io.jshmem.SymType;
import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.ValueLayout;

final class SymFloatArrayImpl extends SymArrayImpl<float[]> implements SymFloatArray {
    SymFloatArrayImpl(SymmetricHeap heap, long offset, long length) {
        super(heap, SymType.FLOAT, offset, length);
    }

    @Override
    public float get(long index) {
        return local.get(ValueLayout.JAVA_FLOAT, localOffset(index));
    }

    @Override
    public void set(long index, float value) {
        local.set(ValueLayout.JAVA_FLOAT, localOffset(index), value);
    }
}
