/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

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

    @Override
    public void get(long index, double[] dest, int destIndex, int nelems) {
        copyOut(ValueLayout.JAVA_DOUBLE, index, dest, destIndex, dest == null ? 0 : dest.length, nelems);
    }

    @Override
    public void set(long index, double[] source, int sourceIndex, int nelems) {
        copyIn(ValueLayout.JAVA_DOUBLE, index, source, sourceIndex, source == null ? 0 : source.length, nelems);
    }
}
