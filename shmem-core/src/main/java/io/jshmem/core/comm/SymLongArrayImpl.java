/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

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
        try {
            return local.get(ValueLayout.JAVA_LONG, localOffset(index));
        } catch (InternalError e) {
            throw fault(e, "get");
        }
    }

    @Override
    public void set(long index, long value) {
        try {
            local.set(ValueLayout.JAVA_LONG, localOffset(index), value);
        } catch (InternalError e) {
            throw fault(e, "set");
        }
    }

    @Override
    public void get(long index, long[] dest, int destIndex, int nelems) {
        copyOut(ValueLayout.JAVA_LONG, index, dest, destIndex, dest == null ? 0 : dest.length, nelems);
    }

    @Override
    public void set(long index, long[] source, int sourceIndex, int nelems) {
        copyIn(ValueLayout.JAVA_LONG, index, source, sourceIndex, source == null ? 0 : source.length, nelems);
    }
}
