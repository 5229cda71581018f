/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

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
        try {
            return local.get(ValueLayout.JAVA_SHORT, localOffset(index));
        } catch (InternalError e) {
            throw fault(e, "get");
        }
    }

    @Override
    public void set(long index, short value) {
        try {
            local.set(ValueLayout.JAVA_SHORT, localOffset(index), value);
        } catch (InternalError e) {
            throw fault(e, "set");
        }
    }

    @Override
    public void get(long index, short[] dest, int destIndex, int nelems) {
        copyOut(ValueLayout.JAVA_SHORT, index, dest, destIndex, dest == null ? 0 : dest.length, nelems);
    }

    @Override
    public void set(long index, short[] source, int sourceIndex, int nelems) {
        copyIn(ValueLayout.JAVA_SHORT, index, source, sourceIndex, source == null ? 0 : source.length, nelems);
    }
}
