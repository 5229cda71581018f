/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** {@link SymType}'s constants and their {@link SymType.Kind}s match one to one. */
class SymTypeTest {
    private static final List<SymType<?>> ALL = List.of(SymType.LONG, SymType.INT, SymType.SHORT, SymType.BYTE,
            SymType.CHAR, SymType.FLOAT, SymType.DOUBLE);

    @Test
    void eachConstantHasItsOwnKindOfTheSameName() {
        assertEquals(SymType.Kind.values().length, ALL.size());
        for (int i = 0; i < ALL.size(); i++) {
            SymType<?> t = ALL.get(i);
            SymType.Kind k = SymType.Kind.values()[i];
            assertSame(k, t.kind(), t.name());
            assertEquals(k.name().toLowerCase(Locale.ROOT), t.name());
            assertEquals(t.name(), t.toString());
            assertEquals(t.name(), t.arrayClass().getComponentType().getName());
            assertEquals(t.arrayClass().getComponentType(), t.layout().carrier());
        }
    }
}
