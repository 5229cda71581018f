package io.jshmem.core;

import io.jshmem.SymDoubleArray;
import io.jshmem.SymType;
import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.ValueLayout;

final class SymDoubleArrayImpl extends SymArrayImpl<double[]> implements SymDoubleArray {
    SymDoubleArrayImpl(SymmetricHeap heap, long offset, long length) {
        super(heap, SymType.DOUBLE, offset, length);
    }

    @Override
    public double get(long index) {
        try {
            return local.get(ValueLayout.JAVA_DOUBLE, localOffset(index));
        } catch (InternalError e) {
            throw fault(e, "get");
        }
    }

    @Override
    public void set(long index, double value) {
        try {
            local.set(ValueLayout.JAVA_DOUBLE, localOffset(index), value);
        } catch (InternalError e) {
            throw fault(e, "set");
        }
    }
}
