package io.jshmem.core;

import io.jshmem.SymCharArray;
import io.jshmem.SymType;
import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.ValueLayout;

final class SymCharArrayImpl extends SymArrayImpl<char[]> implements SymCharArray {
    SymCharArrayImpl(SymmetricHeap heap, long offset, long length) {
        super(heap, SymType.CHAR, offset, length);
    }

    @Override
    public char get(long index) {
        try {
            return local.get(ValueLayout.JAVA_CHAR, localOffset(index));
        } catch (InternalError e) {
            throw fault(e, "get");
        }
    }

    @Override
    public void set(long index, char value) {
        try {
            local.set(ValueLayout.JAVA_CHAR, localOffset(index), value);
        } catch (InternalError e) {
            throw fault(e, "set");
        }
    }
}
