/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

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

    @Override
    public void get(long index, char[] dest, int destIndex, int nelems) {
        copyOut(ValueLayout.JAVA_CHAR, index, dest, destIndex, dest == null ? 0 : dest.length, nelems);
    }

    @Override
    public void set(long index, char[] source, int sourceIndex, int nelems) {
        copyIn(ValueLayout.JAVA_CHAR, index, source, sourceIndex, source == null ? 0 : source.length, nelems);
    }
}
