/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Byte values as PMI-2 strings in chunks under PMI2_MAX_VALLEN. */
class PmiValuesTest {
    @Test
    void roundTripsAllSizes() {
        Random rnd = new Random(1);
        for (int n : new int[] {0, 1, 2, 3, 749, 750, 751, 1500, 5000, 70_000}) {
            byte[] v = new byte[n];
            rnd.nextBytes(v);
            List<String> chunks = PmiValues.encode(v);
            assertEquals(chunks.size(), PmiValues.chunkCount(chunks.get(0)));
            for (String c : chunks) {
                assertTrue(c.length() < Pmi2Bootstrap.MAX_VALLEN, "chunk of " + c.length() + " characters");
                assertTrue(c.matches("[0-9]*:?[A-Za-z0-9_-]*"), "PMI-unsafe characters in " + c);
            }
            assertArrayEquals(v, PmiValues.decode(chunks), n + " bytes");
        }
    }

    @Test
    void chunkKeysStayShort() {
        assertEquals("j12.3.4", PmiValues.chunkKey("j12.3.4", 0));
        assertEquals("j12.3.4.7", PmiValues.chunkKey("j12.3.4", 7));
        assertTrue(PmiValues.chunkKey(PmiBootstrap.valueKey(99_999, 1_000, 10_000), 999).length() < Pmi2Bootstrap.MAX_KEYLEN);
    }

    @Test
    void garbledHeaderIsReported() {
        assertThrows(IllegalStateException.class, () -> PmiValues.chunkCount("abc"));
        assertThrows(IllegalStateException.class, () -> PmiValues.chunkCount("0:abc"));
    }
}
