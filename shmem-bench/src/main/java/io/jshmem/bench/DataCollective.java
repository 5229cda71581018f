/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * broadcast (root 0), sum_reduce, fcollect and alltoall over the world team, on longs, as
 * {@code bench/c/coll.c}: each call is timed on its own with an untimed barrier between calls,
 * and the result of the last call is checked element by element. With {@code withBarrier} (op
 * {@code <op>+barrier_all}) the barrier_all after each call is part of the timed call instead: what
 * a program that synchronizes after the collective pays, including the wait for the slowest PE
 * that the collective alone may leave to the untimed barrier.
 */
final class DataCollective implements Collective {
    enum Kind {
        BROADCAST("broadcast"), SUM_REDUCE("sum_reduce"), FCOLLECT("fcollect"), ALLTOALL("alltoall");

        final String op;

        Kind(String op) {
            this.op = op;
        }
    }

    private final Harness h;
    private final Shmem shmem;
    private final ShmemTeam world;
    private final Kind kind;
    private final long bytes;
    /** Elements per PE (or per PE pair for alltoall). */
    private final long ne;
    private final SymLongArray src;
    private final SymLongArray dst;
    private final boolean withBarrier;

    DataCollective(Harness h, Kind kind, long bytes, boolean withBarrier, SymLongArray src, SymLongArray dst) {
        this.h = h;
        this.shmem = h.shmem();
        this.world = shmem.teamWorld();
        this.kind = kind;
        this.bytes = bytes;
        this.ne = bytes / 8;
        this.src = src;
        this.dst = dst;
        this.withBarrier = withBarrier;
    }

    @Override
    public String op() {
        return withBarrier ? kind.op + "+barrier_all" : kind.op;
    }

    @Override
    public long bytes() {
        return bytes;
    }

    @Override
    public void prepare(int seed) {
        int me = shmem.myPe();
        int npes = shmem.nPes();
        long nsrc = kind == Kind.ALLTOALL ? ne * npes : ne;
        for (long j = 0; j < nsrc; j++) {
            src.set(j, kind == Kind.ALLTOALL ? CollBench.value(seed, me, (int) (j / ne), j % ne) : CollBench.value(seed, me, 0, j));
        }
        for (long j = 0; j < ne * npes; j++) {
            dst.set(j, -1);
        }
    }

    @Override
    public double time(long iters) {
        return withBarrier ? timeWithBarrier(iters) : timeAlone(iters);
    }

    private double timeAlone(long iters) {
        double acc = 0;
        for (long i = 0; i < iters; i++) {
            double t0 = Harness.nowUs();
            call();
            double dt = Harness.nowUs() - t0;
            if (h.sampling()) {
                h.sample(dt);
            }
            acc += dt;
            shmem.barrierAll();
        }
        return acc;
    }

    /** Each call and the barrier_all after it timed together (one loop per variant, as coll.c). */
    private double timeWithBarrier(long iters) {
        double acc = 0;
        for (long i = 0; i < iters; i++) {
            double t0 = Harness.nowUs();
            call();
            shmem.barrierAll();
            double dt = Harness.nowUs() - t0;
            if (h.sampling()) {
                h.sample(dt);
            }
            acc += dt;
        }
        return acc;
    }

    private void call() {
        switch (kind) {
            case BROADCAST -> world.broadcast(dst, src, ne, 0);
            case SUM_REDUCE -> world.sumReduce(dst, src, ne);
            case FCOLLECT -> world.fcollect(dst, src, ne);
            case ALLTOALL -> world.alltoall(dst, src, ne);
        }
    }

    @Override
    public void verify(int seed, boolean corrupt) {
        int me = shmem.myPe();
        int npes = shmem.nPes();
        boolean flip = corrupt && me == npes - 1;
        long n = kind == Kind.BROADCAST || kind == Kind.SUM_REDUCE ? ne : ne * npes;
        for (long j = 0; j < n; j++) {
            long want = switch (kind) {
                case BROADCAST -> CollBench.value(seed, 0, 0, j);
                case SUM_REDUCE -> {
                    long sum = 0;
                    for (int p = 0; p < npes; p++) {
                        sum += CollBench.value(seed, p, 0, j);
                    }
                    yield sum;
                }
                case FCOLLECT -> CollBench.value(seed, (int) (j / ne), 0, j % ne);
                case ALLTOALL -> CollBench.value(seed, (int) (j / ne), me, j % ne);
            };
            long got = dst.get(j) ^ (flip && j == 0 ? 1 : 0);
            if (got != want) {
                h.fail("coll %s %d B: element %d is %d, expected %d".formatted(kind.op, bytes, j, got, want));
                return;
            }
        }
    }
}
