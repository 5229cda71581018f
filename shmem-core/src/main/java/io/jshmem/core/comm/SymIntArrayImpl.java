/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

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

    @Override
    public void get(long index, int[] dest, int destIndex, int nelems) {
        copyOut(ValueLayout.JAVA_INT, index, dest, destIndex, dest == null ? 0 : dest.length, nelems);
    }

    @Override
    public void set(long index, int[] source, int sourceIndex, int nelems) {
        copyIn(ValueLayout.JAVA_INT, index, source, sourceIndex, source == null ? 0 : source.length, nelems);
    }
}
