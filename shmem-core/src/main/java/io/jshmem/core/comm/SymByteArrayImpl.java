/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

import io.jshmem.SymByteArray;
import io.jshmem.SymType;
import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.ValueLayout;

final class SymByteArrayImpl extends SymArrayImpl<byte[]> implements SymByteArray {
    SymByteArrayImpl(SymmetricHeap heap, long offset, long length) {
        super(heap, SymType.BYTE, offset, length);
    }

    @Override
    public byte get(long index) {
        try {
            return local.get(ValueLayout.JAVA_BYTE, localOffset(index));
        } catch (InternalError e) {
            throw fault(e, "get");
        }
    }

    @Override
    public void set(long index, byte value) {
        try {
            local.set(ValueLayout.JAVA_BYTE, localOffset(index), value);
        } catch (InternalError e) {
            throw fault(e, "set");
        }
    }

    @Override
    public void get(long index, byte[] dest, int destIndex, int nelems) {
        copyOut(ValueLayout.JAVA_BYTE, index, dest, destIndex, dest == null ? 0 : dest.length, nelems);
    }

    @Override
    public void set(long index, byte[] source, int sourceIndex, int nelems) {
        copyIn(ValueLayout.JAVA_BYTE, index, source, sourceIndex, source == null ? 0 : source.length, nelems);
    }
}
