/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import io.jshmem.core.bootstrap.PmiBootstrap.Identity;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Node identity, local rank and job id from what PMI-2 and PMIx report (no launcher needed). */
class PmiIdentityTest {
    @Test
    void pmi2TwoNodes() {
        Identity id = Pmi2Bootstrap.identity(3, 4, "12.0", "(vector,(0,2,2))", Map.of());
        assertEquals(new Identity(3, 4, "n1", 1, 2, "slurm12.0"), id);
    }

    @Test
    void pmi2WithoutMappingUsesTheSlurmdNodeName() {
        Identity id = Pmi2Bootstrap.identity(1, 2, "12.0", null, Map.of("SLURMD_NODENAME", "node-7", "SLURM_LOCALID", "1"));
        assertEquals("hnode-7", id.nodeId());
        assertEquals(1, id.localRank());
        assertTrue(assertThrows(ShmemException.class, () -> Pmi2Bootstrap.identity(1, 2, "12.0", null, Map.of()))
                .getMessage().contains("cannot tell which PEs share a node"));
    }

    @Test
    void pmi2OtherLaunchersJobIdIsFileSafe() {
        assertEquals("pmi2-kvs_1_0", Pmi2Bootstrap.identity(0, 1, "kvs 1/0", "(vector,(0,1,1))", Map.of()).jobId());
    }

    @Test
    void pmixNodeIdAndLocalRank() {
        Identity id = PmixBootstrap.identity(2, 3, 1, "2", 0, "slurm.pmix.15.0");
        assertEquals(new Identity(2, 3, "n1", 0, 1, "slurm15.0"), id);
    }

    @Test
    void pmixWithoutNodeIdUsesTheLowestLocalPeer() {
        Identity id = PmixBootstrap.identity(3, 4, -1, "2,3", -1, "572850177");
        assertEquals(new Identity(3, 4, "p2", 1, 2, "pmix-572850177"), id);
    }

    @Test
    void pmixWithNothingIsAnError() {
        assertThrows(ShmemException.class, () -> PmixBootstrap.identity(0, 2, -1, null, -1, "ns"));
        assertThrows(ShmemException.class, () -> PmixBootstrap.identity(0, 2, -1, "0,x", -1, "ns"));
        assertThrows(ShmemException.class, () -> PmixBootstrap.identity(2, 2, 0, "0,1", 0, "ns"));
    }
}
