/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

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
        try {
            return local.get(ValueLayout.JAVA_FLOAT, localOffset(index));
        } catch (InternalError e) {
            throw fault(e, "get");
        }
    }

    @Override
    public void set(long index, float value) {
        try {
            local.set(ValueLayout.JAVA_FLOAT, localOffset(index), value);
        } catch (InternalError e) {
            throw fault(e, "set");
        }
    }

    @Override
    public void get(long index, float[] dest, int destIndex, int nelems) {
        copyOut(ValueLayout.JAVA_FLOAT, index, dest, destIndex, dest == null ? 0 : dest.length, nelems);
    }

    @Override
    public void set(long index, float[] source, int sourceIndex, int nelems) {
        copyIn(ValueLayout.JAVA_FLOAT, index, source, sourceIndex, source == null ? 0 : source.length, nelems);
    }
}
