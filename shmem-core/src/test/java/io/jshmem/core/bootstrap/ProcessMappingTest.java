package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
}
