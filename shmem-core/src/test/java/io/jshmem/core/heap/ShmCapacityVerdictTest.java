/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.heap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jshmem.ShmemException;
import io.jshmem.core.testing.InProcessBootstrap;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The shared-memory capacity verdict is agreed in one flagged fence, without reading every PE's
 * verdict: when one node is short, every PE fails, the PEs of other nodes naming the first short
 * PE's message (one lookup); when none is, nobody fails. PEs are threads with in-process bootstraps.
 */
class ShmCapacityVerdictTest {

    @Test
    void everyPeFailsTogetherNamingTheFirstShortPe() throws Exception {
        List<String> outcomes = run(new String[] {null, null, "PE 2: not enough shared memory in /small (100 bytes free)",
            "PE 3: not enough shared memory in /small (96 bytes free)"});
        assertEquals("PE 2: not enough shared memory in /small (100 bytes free)", outcomes.get(2));
        // PE 2's node-mate says it in PE 2's words (it measured a little later): oshrun then prints it once.
        assertEquals("PE 3: not enough shared memory in /small (100 bytes free)", outcomes.get(3));
        for (int pe : new int[] {0, 1}) {
            assertEquals("PE " + pe + ": initialization failed, since another node lacks shared memory: PE 2: not enough"
                    + " shared memory in /small (100 bytes free)", outcomes.get(pe));
        }
    }

    @Test
    void nobodyFailsWhenEveryNodeHasRoom() throws Exception {
        assertEquals(List.of("ok", "ok", "ok", "ok", "ok"), run(new String[5]));
    }

    /** Runs failTogether on every PE with its own verdict (null: room); each PE's exception message or "ok". */
    private static List<String> run(String[] verdicts) throws Exception {
        int n = verdicts.length;
        int[] nodes = new int[n];
        for (int pe = 0; pe < n; pe++) {
            nodes[pe] = pe / 2;
        }
        InProcessBootstrap[] pes = InProcessBootstrap.job("verdict", nodes, () -> false);
        List<CompletableFuture<String>> outcomes = new ArrayList<>();
        for (int pe = 0; pe < n; pe++) {
            InProcessBootstrap b = pes[pe];
            String mine = verdicts[pe];
            outcomes.add(CompletableFuture.supplyAsync(() -> {
                if (mine != null) {
                    b.put("shmcap." + b.rank(), mine.getBytes(StandardCharsets.UTF_8));
                }
                try {
                    ShmCapacity.failTogether(b, mine, nodes);
                    return "ok";
                } catch (ShmemException e) {
                    return e.getMessage();
                }
            }, Thread::startVirtualThread));
        }
        List<String> result = new ArrayList<>();
        for (CompletableFuture<String> o : outcomes) {
            result.add(o.get(60, TimeUnit.SECONDS));
        }
        return result;
    }
}
