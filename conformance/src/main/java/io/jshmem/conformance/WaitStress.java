/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SignalOp;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * A wait/wake stress job for WaitStressTest: many barriers, signal waits, small collectives and
 * waitUntil hand-offs, with exact checks after each, while the test stops PEs now and then
 * (SIGSTOP for a second), so that the others go through every phase of waiting, sleep included,
 * and must be woken. A lost wake-up shows as a hang (oshrun's --timeout ends the job) and a wrong
 * value as a FAIL line.
 *
 * <p>{@code WaitStress BARRIERS RING_ROUNDS}: prints {@code PID <pe> <pid>}, then {@code STARTED},
 * then PE 0 prints {@code WAITSTRESS OK ...} if every check on every PE passed.
 */
public final class WaitStress {
    private WaitStress() {
    }

    public static void main(String[] args) {
        long barriers = Long.parseLong(args[0]);
        long rounds = Long.parseLong(args[1]);
        try (Shmem shmem = Shmem.init()) {
            int me = shmem.myPe();
            int n = shmem.nPes();
            Out.line("PID " + me + " " + ProcessHandle.current().pid());
            SymLongArray counter = shmem.calloc(SymType.LONG, 1);
            SymLongArray data = shmem.calloc(SymType.LONG, 1);
            SymLongArray sig = shmem.calloc(SymType.LONG, 1);
            SymLongArray flag = shmem.calloc(SymType.LONG, 1);
            SymLongArray src = shmem.calloc(SymType.LONG, 1);
            SymLongArray dst = shmem.calloc(SymType.LONG, n);
            SymLongArray failures = shmem.calloc(SymType.LONG, 1);
            shmem.barrierAll();
            if (me == 0) {
                Out.line("STARTED");
            }
            long bad = 0;

            // 1. Barriers: in iteration i exactly one PE adds 1 to this PE's counter, so after the
            // barrier it holds i (or i+1 once the next iteration's adder has run ahead), and exactly
            // BARRIERS at the end; every 16th iteration also a broadcast and a reduction.
            for (long i = 1; i <= barriers; i++) {
                shmem.atomicAdd(counter, 0, 1L, (int) ((i + me) % n));
                shmem.barrierAll();
                long c = counter.get(0);
                if ((c < i || c > i + 1) && bad++ < 5) {
                    Out.line("FAIL PE " + me + " barrier " + i + ": counter " + c + ", expected " + i + " or " + (i + 1));
                }
                if ((i & 15) == 0) {
                    src.set(0, i * 1000 + me);
                    shmem.teamWorld().broadcast(dst, src, 1, (int) (i % n));
                    long want = i * 1000 + i % n;
                    if (dst.get(0) != want && bad++ < 5) {
                        Out.line("FAIL PE " + me + " broadcast " + i + ": " + dst.get(0) + ", expected " + want);
                    }
                    shmem.teamWorld().sumReduce(dst, src, 1);
                    want = i * 1000L * n + (long) n * (n - 1) / 2;
                    if (dst.get(0) != want && bad++ < 5) {
                        Out.line("FAIL PE " + me + " sum_reduce " + i + ": " + dst.get(0) + ", expected " + want);
                    }
                }
            }

            shmem.barrierAll();
            if (counter.get(0) != barriers && bad++ < 5) {
                Out.line("FAIL PE " + me + ": counter " + counter.get(0) + " after " + barriers + " barriers");
            }

            // 2. A token ring of put-with-signal: round r goes 0 -> 1 -> ... -> n-1 -> 0, carrying r.
            int right = (me + 1) % n;
            for (long r = 1; r <= rounds; r++) {
                if (me == 0) {
                    shmem.putSignal(data, 0, new long[] {r}, 0, 1, sig, 0, r, SignalOp.SET, right);
                    shmem.signalWaitUntil(sig, 0, Cmp.GE, r);
                } else {
                    shmem.signalWaitUntil(sig, 0, Cmp.GE, r);
                    if (data.get(0) != r && bad++ < 5) {
                        Out.line("FAIL PE " + me + " ring round " + r + ": data " + data.get(0));
                    }
                    shmem.putSignal(data, 0, new long[] {r}, 0, 1, sig, 0, r, SignalOp.SET, right);
                }
            }

            // 3. A ping-pong of p + waitUntil between PE 0 and the last PE (plain puts: the rare
            // wake-up they miss must be recovered by the sleeper's timeout, never lost for good).
            int partner = n - 1;
            for (long r = 1; r <= rounds && n > 1; r++) {
                if (me == 0) {
                    shmem.p(flag, 0, r, partner);
                    shmem.waitUntil(flag, 0, Cmp.EQ, -r);
                } else if (me == partner) {
                    shmem.waitUntil(flag, 0, Cmp.EQ, r);
                    shmem.p(flag, 0, -r, 0);
                }
            }
            shmem.barrierAll();

            shmem.atomicAdd(failures, 0, bad, 0);
            shmem.barrierAll();
            if (me == 0) {
                long total = failures.get(0);
                Out.line(total == 0 ? "WAITSTRESS OK barriers=" + barriers + " rounds=" + rounds + " pes=" + n
                        : "WAITSTRESS FAILED checks=" + total);
            }
        }
    }
}
