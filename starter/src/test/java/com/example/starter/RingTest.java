package com.example.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jshmem.Shmem;
import io.jshmem.test.ShmemTest;

/** Runs {@link Ring#ring} in a job of 4 PEs through the real bin/oshrun (jshmem-test's @ShmemTest). */
class RingTest {
    @ShmemTest(npes = 4)
    void ringOfFourPes(Shmem shmem) {
        int me = shmem.myPe();
        int n = shmem.nPes();
        Ring.Result r = Ring.ring(shmem);
        assertEquals((me + n - 1) % n, r.got(), "what PE " + me + " got from its left neighbour");
        assertEquals((long) n * (n - 1) / 2, r.sum(), "the sum on PE " + me);
    }
}
