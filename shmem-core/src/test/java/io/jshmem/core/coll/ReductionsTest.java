/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.jshmem.ReduceOp;
import io.jshmem.SymType;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

/** {@link Reductions.Elem}: the element kinds of the kernels, by {@link SymType.Kind}. */
class ReductionsTest {
    @Test
    void everyKindHasItsKernelsUnderItsName() {
        for (SymType.Kind k : SymType.Kind.values()) {
            Reductions.Elem e = Reductions.Elem.of(k);
            assertEquals(k.name(), e.name());
        }
        assertSame(Reductions.Elem.COMPLEXF, Reductions.Elem.complexOf(SymType.Kind.FLOAT));
        assertSame(Reductions.Elem.COMPLEXD, Reductions.Elem.complexOf(SymType.Kind.DOUBLE));
        assertNull(Reductions.Elem.complexOf(SymType.Kind.LONG));
        for (SymType.Kind k : java.util.List.of(SymType.Kind.INT, SymType.Kind.SHORT, SymType.Kind.BYTE, SymType.Kind.CHAR)) {
            assertNull(Reductions.Elem.complexOf(k));
        }
    }

    @Test
    void combineRunsTheKernelOfTheElem() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment acc = arena.allocate(32, 8);
            MemorySegment in = arena.allocate(32, 8);
            for (int i = 0; i < 4; i++) {
                acc.setAtIndex(ValueLayout.JAVA_LONG, i, 10 + i);
                in.setAtIndex(ValueLayout.JAVA_LONG, i, 100);
            }
            Reductions.combine(ReduceOp.SUM, Reductions.Elem.of(SymType.Kind.LONG), acc, 0, in, 0, 2);
            Reductions.combine(ReduceOp.MAX, Reductions.Elem.LONG, acc, 16, in, 16, 2);
            assertEquals(110, acc.getAtIndex(ValueLayout.JAVA_LONG, 0));
            assertEquals(111, acc.getAtIndex(ValueLayout.JAVA_LONG, 1));
            assertEquals(100, acc.getAtIndex(ValueLayout.JAVA_LONG, 2));
            assertEquals(100, acc.getAtIndex(ValueLayout.JAVA_LONG, 3));
            // (1+2i)(3+4i) = -5+10i
            acc.setAtIndex(ValueLayout.JAVA_DOUBLE, 0, 1);
            acc.setAtIndex(ValueLayout.JAVA_DOUBLE, 1, 2);
            in.setAtIndex(ValueLayout.JAVA_DOUBLE, 0, 3);
            in.setAtIndex(ValueLayout.JAVA_DOUBLE, 1, 4);
            Reductions.combine(ReduceOp.PROD, Reductions.Elem.complexOf(SymType.Kind.DOUBLE), acc, 0, in, 0, 1);
            assertEquals(-5.0, acc.getAtIndex(ValueLayout.JAVA_DOUBLE, 0));
            assertEquals(10.0, acc.getAtIndex(ValueLayout.JAVA_DOUBLE, 1));
        }
    }
}
