package io.jshmem.core.launcher;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemTeam;
import io.jshmem.SignalOp;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * The training run of {@link AotCache}: a one-PE job that goes through what a PE typically loads
 * (init, allocation, RMA, atomics, waits, signals, teams, contexts, collectives, locks, finalize),
 * so that the cache holds those classes. Not for users; it checks nothing.
 */
public final class AotTraining {
    private AotTraining() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            SymLongArray a = shmem.calloc(SymType.LONG, 64);
            SymLongArray b = shmem.malloc(SymType.LONG, 64);
            SymIntArray ints = shmem.calloc(SymType.INT, 8);
            long[] local = new long[64];
            shmem.put(a, 0, local, 0, 64, me);
            shmem.get(local, 0, a, 0, 64, me);
            shmem.p(a, 1, 7L, me);
            shmem.g(a, 1, me);
            shmem.atomicFetchAdd(a, 2, 1L, me);
            shmem.atomicCompareSwap(ints, 0, 0, 1, me);
            shmem.putSignal(a, 3, local, 0, 1, b, 0, 1L, SignalOp.SET, me);
            shmem.signalWaitUntil(b, 0, Cmp.GE, 1L);
            shmem.waitUntil(a, 1, Cmp.EQ, 7L);
            shmem.quiet();
            shmem.barrierAll();
            ShmemTeam world = shmem.teamWorld();
            world.broadcast(b, a, 8, 0);
            world.sumReduce(b, a, 8);
            world.fcollect(b, a, 8);
            world.alltoall(b, a, 8);
            world.sync();
            try (ShmemContext ctx = shmem.ctxCreate(0)) {
                ctx.p(a, 0, 1L, me);
                ctx.quiet();
            }
            shmem.setLock(a, 60);
            shmem.clearLock(a, 60);
            shmem.free(b);
        }
    }
}
