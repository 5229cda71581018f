/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** PMI_process_mapping as Slurm's pmi2 plugin writes it. */
class ProcessMappingTest {
    @Test
    void blockOnOneNode() {
        assertArrayEquals(new int[] {0, 0, 0, 0}, ProcessMapping.nodeOfRanks("(vector,(0,1,4))", 4));
    }

    @Test
    void blockOnTwoNodes() {
        assertArrayEquals(new int[] {0, 0, 1, 1}, ProcessMapping.nodeOfRanks("(vector,(0,2,2))", 4));
    }

    @Test
    void unevenBlocks() {
        // srun -N 2 -n 3: two ranks on node 0, one on node 1
        assertArrayEquals(new int[] {0, 0, 1}, ProcessMapping.nodeOfRanks("(vector,(0,1,2),(1,1,1))", 3));
    }

    @Test
    void cyclicRepeatsThePattern() {
        assertArrayEquals(new int[] {0, 1, 0, 1, 0}, ProcessMapping.nodeOfRanks("(vector,(0,2,1))", 5));
    }

    @Test
    void spacesAreAllowed() {
        assertArrayEquals(new int[] {3, 3}, ProcessMapping.nodeOfRanks(" ( vector , ( 3 , 1 , 2 ) ) ", 2));
    }

    @Test
    void garbageIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> ProcessMapping.nodeOfRanks("(vector)", 2));
        assertThrows(IllegalArgumentException.class, () -> ProcessMapping.nodeOfRanks("(vector,(0,0,0))", 2));
        assertThrows(IllegalArgumentException.class, () -> ProcessMapping.nodeOfRanks("0,1,2", 2));
        assertThrows(IllegalArgumentException.class, () -> ProcessMapping.nodeOfRanks(null, 2));
    }

    /** oshrun's own mapping: what it encodes decodes to the same placement, and stays short. */
    @Test
    void encodeRoundTripsAndStaysShortForRepeatingPatterns() {
        int[][] placements = {
            {0, 0, 0, 0},
            {0, 0, 1, 1},
            {0, 0, 0, 1, 1, 2},                // hosts with 3, 2 and 1 slots
            {0, 0, 1, 1, 0},                   // 2 hosts x 2 slots, 5 PEs oversubscribed
            {3, 1, 2},
        };
        for (int[] nodeOf : placements) {
            assertArrayEquals(nodeOf, ProcessMapping.nodeOfRanks(ProcessMapping.encode(nodeOf), nodeOf.length),
                    ProcessMapping.encode(nodeOf));
        }
        assertEquals("(vector,(0,1024,64))", ProcessMapping.encode(blocks(65_536, 1024, 64)));
        // 65,536 PEs round-robin over 2 one-slot hosts: one block, not 32,768
        assertEquals("(vector,(0,2,1))", ProcessMapping.encode(blocks(65_536, 2, 1)));
        int[] uneven = blocks(10_000, 3, 7);
        assertArrayEquals(uneven, ProcessMapping.nodeOfRanks(ProcessMapping.encode(uneven), uneven.length));
        assertTrue(ProcessMapping.encode(uneven).length() < 40, ProcessMapping.encode(uneven));
    }

    /** {@code npes} PEs over {@code hosts} hosts of {@code slots} slots each, round after round. */
    private static int[] blocks(int npes, int hosts, int slots) {
        int[] nodeOf = new int[npes];
        for (int pe = 0; pe < npes; pe++) {
            nodeOf[pe] = pe / slots % hosts;
        }
        return nodeOf;
    }
}
