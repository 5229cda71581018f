/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.AmoOp;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lazy wire-up inside one JVM ({@link InProcessJob}, real libucp over tcp): nothing connected or
 * fetched at init, the facts decided from the context's transports, and a peer that is gone
 * before anyone used it reported at the first operation, naming it. (Real jobs through oshrun:
 * {@link LazyWireUpJobTest}.)
 */
class LazyWireUpTest {
    private static final long HEAP = 8L << 20;
    private static final long USER = SymmetricHeap.INTERNAL_SIZE;

    @BeforeAll
    static void needLibucp() {
        InProcessJob.assumeLibucp(LazyWireUpTest.class);
        Ucp.setenv("UCX_TLS", "tcp,self");
    }

    @Test
    void nothingIsConnectedOrFetchedUntilFirstUse() throws Exception {
        try (InProcessJob job = new InProcessJob(3, HEAP, Map.of("JSHMEM_UCX_WIREUP", "lazy"))) {
            for (UcxTransport t : job.transports) {
                assertArrayEquals(new int[0], t.connectedPes());
                assertEquals(0, t.job.peersFetched());
                assertEquals("ucx (tcp)", t.name());
                assertTrue(t.atomicsCoherentWithCpu(), "tcp's atomics are the target CPU's");
                assertTrue(t.remoteWritesWake(), "over tcp only, this PE's progress applies every remote write");
            }
            UcxTransport t0 = job.transports[0];
            assertEquals(0, t0.atomic64(2, USER, AmoOp.FETCH_ADD, 5, 0));
            assertArrayEquals(new int[] {2}, t0.connectedPes());
            assertEquals(1, t0.job.peersFetched());
            assertEquals(5, job.heaps[2].self().get(java.lang.foreign.ValueLayout.JAVA_LONG, USER));
            // PE 2 answered through the endpoint UCX made for PE 0's: it made none of its own.
            assertArrayEquals(new int[0], job.transports[2].connectedPes());
        }
    }

    @Test
    void eagerWireUpConnectsEveryPeerAtInit() throws Exception {
        try (InProcessJob job = new InProcessJob(3, HEAP, Map.of("JSHMEM_UCX_WIREUP", "eager"))) {
            assertArrayEquals(new int[] {1, 2}, job.transports[0].connectedPes());
            assertEquals("ucx (tcp)", job.transports[0].name());
            assertTrue(job.transports[0].atomicsCoherentWithCpu());
        }
    }

    @Test
    void aPeerGoneBeforeFirstUseIsNamedThen() throws Exception {
        InProcessJob.assumeUcxSurvivesPeerLossInWireUp("LazyWireUpTest.aPeerGoneBeforeFirstUseIsNamedThen");
        InProcessJob job = new InProcessJob(3, HEAP, Map.of("JSHMEM_UCX_TIMEOUT", "30", "JSHMEM_UCX_WIREUP", "lazy"));
        try {
            job.transports[2].abandon(); // its worker and listener are gone; nobody had connected to it
            UcxTransport t0 = job.transports[0];
            assertFalse(t0.main.connected(2));
            ShmemException e = assertThrows(ShmemException.class, () -> {
                for (int i = 0; i < 1000; i++) {
                    t0.putValue(2, USER, i, 8);
                    t0.quiet();
                }
            });
            System.out.println("first use of a PE gone before it: " + e.getMessage());
            assertTrue(e.getMessage().startsWith("PE 0: "), e.getMessage());
            assertTrue(e.getMessage().contains("PE 2"), e.getMessage());
            // The others still work.
            assertEquals(0, t0.atomic64(1, USER, AmoOp.FETCH_ADD, 1, 0));
        } finally {
            job.abandon();
        }
    }

    @Test
    void autoWiresUpEagerlyWithAUcxThatAbortsOnPeerLossInWireUp() {
        assertTrue(Ucp.abortsOnPeerLossInWireUp("1.13.1"));
        assertTrue(Ucp.abortsOnPeerLossInWireUp("1.12.0"));
        assertFalse(Ucp.abortsOnPeerLossInWireUp("1.14.0"));
        assertFalse(Ucp.abortsOnPeerLossInWireUp("1.17.0"));
        assertEquals(Ucp.abortsOnPeerLossInWireUp(), WireUp.eager(io.jshmem.core.base.Config.UcxWireUp.AUTO));
        assertTrue(WireUp.eager(io.jshmem.core.base.Config.UcxWireUp.EAGER));
        assertFalse(WireUp.eager(io.jshmem.core.base.Config.UcxWireUp.LAZY));
    }

    @Test
    void theFactsComeFromEveryTransportTheContextOffers() {
        String info = """
                #      resource 0  :  md 0  dev 0  flags -- self/memory0
                #      resource 1  :  md 1  dev 1  flags -- tcp/eth0
                #      resource 2  :  md 2  dev 2  flags -- posix/memory
                #      resource 3  :  md 3  dev 3  flags -- rc_mlx5/mlx5_0:1
                """;
        List<String> offered = WireUp.offeredTransports(info);
        assertEquals(List.of("posix", "rc_mlx5", "tcp"), offered);
        assertFalse(WireUp.cpuAtomicTransports(offered), "rc_mlx5 may carry device atomics");
        assertTrue(WireUp.cpuAtomicTransports(List.of("tcp", "posix", "ud_verbs")));
        assertFalse(WireUp.cpuAtomicTransports(List.of("tcp", "something_new")), "an unknown transport is not trusted");
        assertTrue(WireUp.PROGRESS_WRITE_TRANSPORTS.containsAll(List.of("tcp")));
        assertFalse(WireUp.PROGRESS_WRITE_TRANSPORTS.containsAll(List.of("posix", "tcp")));
    }
}
