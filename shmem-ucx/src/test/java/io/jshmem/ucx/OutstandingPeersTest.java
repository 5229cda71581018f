/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jshmem.core.heap.SymmetricHeap;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A quiet visits the PEs written since the last one, not every endpoint (with eager wire-up, every
 * peer's): 10 PEs in one JVM over UCX/TCP, so that PE 0 writes to more peers between two quiets
 * than the list has room for at first.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OutstandingPeersTest {
    private static final int PES = 10;
    private InProcessJob job;
    private UcxTransport t0;
    private final long off = SymmetricHeap.INTERNAL_SIZE + 4096;

    @BeforeAll
    void start() throws Exception {
        InProcessJob.assumeLibucp(OutstandingPeersTest.class);
        Ucp.setenv("UCX_TLS", "tcp,self");
        job = new InProcessJob(PES, 8L << 20, Map.of("JSHMEM_UCX_WIREUP", "eager"));
        t0 = job.transports[0];
    }

    @AfterAll
    void stop() throws Exception {
        if (job != null) {
            job.close();
        }
    }

    @Test
    void aQuietCompletesThePeersWrittenSinceTheLastOneEachOnce() {
        t0.quiet();
        assertEquals(0, t0.main.outstandingPes(), "nothing written since the quiet");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment data = arena.allocate(64 << 10, 8);
            for (int round = 1; round <= 3; round++) {
                data.fill((byte) round);
                for (int pe = 1; pe < PES; pe++) {
                    t0.putNbi(pe, off, data);
                }
                assertEquals(PES - 1, t0.main.outstandingPes(), "round " + round + ": every peer written once");
                t0.quiet(3); // PE 3 alone: its flags cleared, still listed
                t0.putNbi(3, off, data);
                t0.putNbi(3, off, data);
                assertEquals(PES - 1, t0.main.outstandingPes(), "round " + round + ": PE 3 listed once");
                t0.quiet();
                assertEquals(0, t0.main.outstandingPes(), "round " + round + ": the quiet visited them all");
                for (int pe = 1; pe < PES; pe++) {
                    MemorySegment heap = job.heaps[pe].self();
                    assertEquals(round, heap.get(ValueLayout.JAVA_BYTE, off), "round " + round + ", PE " + pe + ": first byte");
                    assertEquals(round, heap.get(ValueLayout.JAVA_BYTE, off + data.byteSize() - 1),
                            "round " + round + ", PE " + pe + ": last byte");
                }
            }
        }
    }
}
