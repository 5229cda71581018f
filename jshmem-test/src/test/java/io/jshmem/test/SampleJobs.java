/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Jobs that {@link ShmemJobExtensionTest} runs through the JUnit engine to check their outcomes:
 * one passes, one fails on PE 1, one is skipped. Not a test class of its own (the name does not
 * match surefire's patterns).
 */
class SampleJobs {
    @ShmemTest(npes = 4)
    void ring(Shmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        SymLongArray box = shmem.calloc(SymType.LONG, 1);
        shmem.p(box, 0, me, (me + 1) % n);
        shmem.barrierAll();
        assertEquals((me + n - 1) % n, box.get(0));
        System.out.println("ring ok on PE " + me);
    }

    @ShmemTest(npes = 2)
    void failsOnPe1(Shmem shmem) {
        System.out.println("PE " + shmem.myPe() + " before the check");
        if (shmem.myPe() == 1) {
            fail("boom on PE 1");
        }
        shmem.barrierAll(); // PE 0 waits here until PE 1's failure ends the job
    }

    @ShmemTest(npes = 2)
    void skipped(Shmem shmem) {
        assumeTrue(false, "no widget on PE " + shmem.myPe());
    }
}
