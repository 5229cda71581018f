/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which cases a CaseRunner job runs: filters select by substring, {@code --exclude} drops. */
class CaseSelectionTest {
    private static final List<Case> ALL = List.of(Case.of("rma.put", ctx -> { }), Case.of("alloc.rma", ctx -> { }),
            Case.of("alloc.collectives", ctx -> { }), Case.of("coll.broadcast", ctx -> { }));

    private static List<String> names(List<String> filters, List<String> excluded) {
        return CaseRunner.select(ALL, filters, excluded).stream().map(Case::name).toList();
    }

    @Test
    void filtersSelectAndExclusionsDrop() {
        assertEquals(List.of("rma.put", "alloc.rma", "alloc.collectives", "coll.broadcast"), names(List.of(), List.of()));
        assertEquals(List.of("rma.put", "coll.broadcast"), names(List.of(), List.of("alloc.")));
        assertEquals(List.of("alloc.rma"), names(List.of("rma"), List.of("put")));
        assertEquals(List.of(), names(List.of("alloc."), List.of("alloc")));
    }

    @Test
    void duplicateNamesAreRefused() {
        List<Case> twice = List.of(Case.of("a", ctx -> { }), Case.of("a", ctx -> { }));
        assertThrows(IllegalStateException.class, () -> CaseRunner.select(twice, List.of(), List.of("b")));
    }
}
