/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.aot;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemTeam;
import io.jshmem.SignalOp;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.StringConcatFactory;

/**
 * The training job of oshrun's start-up caches ({@code io.jshmem.launcher.AotCache}). Here, in the
 * runtime's jar, because its PEs run it and never see the launcher's jar, and the recording JVM
 * archives classes from jars only (a class directory on its class path must be empty). PEs started by oshrun (two, over UCX or shared memory) go
 * through what a PE typically loads (init, allocation, RMA and atomics on the next PE, waits,
 * signals, teams, contexts, collectives, locks, finalize), so that the cache holds those classes.
 * Not for users; it checks nothing, and waits only for what its predecessor surely sends.
 */
public final class AotTraining {
    private AotTraining() {
    }

    public static void main(String[] args) {
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int peer = (me + 1) % shmem.nPes(); // a remote PE, so that the transport's paths are trained
            SymLongArray a = shmem.calloc(SymType.LONG, 64);
            SymLongArray b = shmem.calloc(SymType.LONG, 64);
            SymIntArray ints = shmem.calloc(SymType.INT, 8);
            long[] local = new long[64];
            // Elements 8.. only: unordered with the p to element 1 below, which the predecessor waits for.
            shmem.put(a, 8, local, 0, 8, peer);
            shmem.get(local, 0, a, 0, 64, peer);
            shmem.p(a, 1, 7L, peer);
            shmem.g(a, 1, peer);
            shmem.atomicFetchAdd(a, 2, 1L, peer);
            shmem.atomicCompareSwap(ints, 0, 0, 1, peer);
            shmem.putSignal(a, 3, local, 0, 1, b, 0, 1L, SignalOp.SET, peer);
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
                ctx.p(a, 0, 1L, peer);
                ctx.quiet();
            }
            shmem.setLock(a, 60);
            shmem.clearLock(a, 60);
            shmem.free(b);
            concatenate(me, peer);
        }
    }

    /**
     * Programs concatenate strings through invokedynamic (javac's default); jshmem's own code does
     * not (it is compiled with -XDstringConcat=inline), so the training links one such call site
     * itself, and the cache holds the JDK's machinery for it.
     */
    private static void concatenate(int me, int peer) {
        try {
            MethodHandle concat = StringConcatFactory.makeConcatWithConstants(MethodHandles.lookup(), "concat",
                    MethodType.methodType(String.class, int.class, int.class), "PE \u0001 of \u0001").dynamicInvoker();
            String s = (String) concat.invokeExact(me, peer);
            if (s.isEmpty()) {
                throw new AssertionError(s);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("string concatenation", t);
        }
    }
}
