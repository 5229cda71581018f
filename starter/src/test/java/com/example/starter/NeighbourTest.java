package com.example.starter;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.test.ShmemTest;

class NeighbourTest {
    @ShmemTest(npes = 4)   // runs in a job of 4 PEs through jshmem's bin/oshrun
    void ring(Shmem shmem) {
        int me = shmem.myPe(), n = shmem.nPes();
        SymLongArray box = shmem.calloc(SymType.LONG, 1);
        shmem.p(box, 0, me, (me + 1) % n);
        shmem.barrierAll();
        assertEquals((me + n - 1) % n, box.get(0), "on PE " + me);
    }
}
