/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.transport.AmoOp;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bounded waits and peer failures with real UCX ({@link InProcessJob}): a peer that goes away, a
 * peer that stops progressing (timeout), the job's abort notice; and one round with UCX's own
 * transport selection.
 */
class UcxFailureTest {
    private static final long HEAP = 8L << 20;
    private static final long USER = SymmetricHeap.INTERNAL_SIZE;

    @BeforeAll
    static void needLibucp() {
        InProcessJob.assumeLibucp(UcxFailureTest.class);
    }

    @Test
    void aPeerThatGoesAwayFailsOperationsNamingIt() throws Exception {
        Ucp.setenv("UCX_TLS", "tcp,self");
        InProcessJob job = new InProcessJob(2, HEAP, Map.of("JSHMEM_UCX_TIMEOUT", "30"));
        try {
            UcxTransport t0 = job.transports[0];
            assertEquals(0, t0.atomic64(1, USER, AmoOp.FETCH_ADD, 1, 0));
            job.transports[1].abandon();
            long start = System.nanoTime();
            ShmemException e = assertThrows(ShmemException.class, () -> {
                for (int i = 0; i < 1_000_000; i++) {
                    t0.atomic64(1, USER, AmoOp.FETCH_ADD, 1, 0);
                }
            });
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.println("peer gone -> after " + seconds + " s: " + e.getMessage());
            assertTrue(e.getMessage().startsWith("PE 0: "), e.getMessage());
            assertTrue(e.getMessage().contains("PE 1"), e.getMessage());
            assertTrue(seconds < 20, "took " + seconds + " s");
            // Later operations to the failed peer fail at once.
            ShmemException again = assertThrows(ShmemException.class, () -> t0.getValue(1, USER, 8));
            assertTrue(again.getMessage().contains("PE 1"), again.getMessage());
        } finally {
            job.abandon();
        }
    }

    @Test
    void aPeerThatNeverProgressesTimesOut() throws Exception {
        Ucp.setenv("UCX_TLS", "tcp,self");
        InProcessJob job = new InProcessJob(2, HEAP, Map.of("JSHMEM_UCX_TIMEOUT", "2"));
        try {
            job.transports[1].progressEngine().stop();
            long start = System.nanoTime();
            ShmemException e = assertThrows(ShmemException.class, () -> job.transports[0].getValue(1, USER, 8));
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.println("stalled peer -> after " + seconds + " s: " + e.getMessage());
            assertTrue(e.getMessage().contains("PE 1") && e.getMessage().contains("JSHMEM_UCX_TIMEOUT"), e.getMessage());
            assertTrue(seconds >= 1.9 && seconds < 10, "took " + seconds + " s");
        } finally {
            job.abandon();
        }
    }

    @Test
    void theAbortNoticeEndsAWait() throws Exception {
        Ucp.setenv("UCX_TLS", "tcp,self");
        InProcessJob job = new InProcessJob(2, HEAP, Map.of());
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
        try {
            job.transports[1].progressEngine().stop();
            timer.schedule(() -> job.pes[0].abortNotice("PE 1 exited with status 9"), 500, TimeUnit.MILLISECONDS);
            long start = System.nanoTime();
            ShmemException e = assertThrows(ShmemException.class,
                    () -> job.transports[0].atomic32(1, USER, AmoOp.FETCH_ADD, 1, 0));
            double seconds = (System.nanoTime() - start) / 1e9;
            assertTrue(e.getMessage().contains("aborted: PE 1 exited with status 9"), e.getMessage());
            assertTrue(seconds < 5, "took " + seconds + " s");
        } finally {
            timer.shutdownNow();
            job.abandon();
        }
    }

    @Test
    void uCXsDefaultTransportSelection() throws Exception {
        Ucp.setenv("UCX_TLS", "all");
        try (InProcessJob job = new InProcessJob(3, HEAP, Map.of())) {
            System.out.println("default UCX_TLS, 3 PEs in one process: " + job.transports[0].name());
            assertTrue(job.transports[0].name().startsWith("ucx ("), job.transports[0].name());
            job.all(pe -> {
                UcxTransport t = job.transports[pe];
                for (int other = 0; other < 3; other++) {
                    if (other != pe) {
                        t.atomic64(other, USER, AmoOp.ADD, pe + 1, 0);
                        t.put(other, USER + 64 + 8 * pe, MemorySegment.ofArray(new long[] {pe * 100L}));
                    }
                }
                t.quiet();
                return null;
            });
            job.all(pe -> {
                job.pes[pe].fence();
                return null;
            });
            for (int pe = 0; pe < 3; pe++) {
                MemorySegment h = job.heaps[pe].self();
                assertEquals(6 - (pe + 1), h.get(ValueLayout.JAVA_LONG, USER), "sum of adds on PE " + pe);
                for (int other = 0; other < 3; other++) {
                    if (other != pe) {
                        assertEquals(other * 100L, h.get(ValueLayout.JAVA_LONG, USER + 64 + 8 * other));
                    }
                }
                assertEquals(h.get(ValueLayout.JAVA_LONG, USER), job.transports[(pe + 1) % 3].getValue(pe, USER, 8));
            }
        }
    }
}
