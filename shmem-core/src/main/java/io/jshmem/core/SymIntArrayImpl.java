package io.jshmem.core;

import io.jshmem.SymIntArray;
import io.jshmem.SymType;
import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.ValueLayout;

final class SymIntArrayImpl extends SymArrayImpl<int[]> implements SymIntArray {
    SymIntArrayImpl(SymmetricHeap heap, long offset, long length) {
        super(heap, SymType.INT, offset, length);
    }

    @Override
    public int get(long index) {
        try {
            return local.get(ValueLayout.JAVA_INT, localOffset(index));
        } catch (InternalError e) {
            throw fault(e, "get");
        }
    }

    @Override
    public void set(long index, int value) {
        try {
            local.set(ValueLayout.JAVA_INT, localOffset(index), value);
        } catch (InternalError e) {
            throw fault(e, "set");
        }
    }
}
