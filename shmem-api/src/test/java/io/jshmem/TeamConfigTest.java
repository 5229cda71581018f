/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** TeamConfig (shmem_team_config_t) refuses what no team can be configured with. */
class TeamConfigTest {

    @Test
    void aNegativeContextCountIsRefusedNamingIt() {
        for (int n : new int[] {-1, Integer.MIN_VALUE}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TeamConfig(n));
            assertTrue(e.getMessage().contains("numContexts " + n), e.getMessage());
        }
    }

    @Test
    void zeroAndPositiveContextCountsAreKept() {
        assertEquals(0, TeamConfig.DEFAULT.numContexts());
        assertEquals(0, new TeamConfig(0).numContexts());
        assertEquals(Integer.MAX_VALUE, new TeamConfig(Integer.MAX_VALUE).numContexts());
    }
}
