/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;

/**
 * Jobs whose PEs call collectives that do not match, for MismatchTest. Without SHMEM_DEBUG the
 * runtime must notice (the operation and its arguments travel with each arrival) and end the job
 * naming both sides, before any data is written:
 * <ul>
 * <li>{@code reduce-vs-barrier}: the last PE calls barrierAll while the others call sumReduce;
 * <li>{@code broadcast-roots}: PE 0 broadcasts from root 0, the others from root 1;
 * <li>{@code malloc-sizes}: PE 0 allocates 16 longs, the others 8, then PE 0 writes past 8;
 * <li>{@code finalize-vs-root-broadcast}: the last PE finalizes while the others broadcast from
 *     PE 0 and then barrier: its finalize goes through with the broadcast, and the barrier must
 *     end the job (it waited for ever on shared memory);
 * <li>{@code finalize-vs-barrier}: the last PE finalizes while the others wait in a barrier (as
 *     when an exception unwinds through try-with-resources);
 * <li>{@code large-broadcast-sizes}: PE 0 broadcasts 16384 longs, the others 8192 (above the
 *     push buffers: across nodes the root pushes into their dest once they say they entered, so
 *     it must see there that they called something else, and push nothing).
 * <li>{@code large-alltoall-vs-barrier}: the last PE calls barrierAll while the others call an
 *     alltoall of 16 KiB blocks (above the push buffers: where PEs share cores each block goes
 *     straight into its receiver's dest once the receiver has arrived, so a sender must see there
 *     that the receiver called something else, and write nothing).
 * <li>{@code scalar-reduce-vs-barrier}: the last PE calls barrierAll while the others call the
 *     scalar {@code sumReduce(long)};
 * <li>{@code scalar-vs-array-reduce}: PE 0 calls the scalar {@code maxReduce(long)}, the others
 *     the array form with nreduce 1 (the same reduction, through other memory: a mismatch).
 * </ul>
 * A PE that gets past the mismatched call prints {@code PAST <pe>}; none should, but a broadcast
 * root (which waits for no one: the mismatch shows at the barrier after it).
 */
public final class MismatchScenarios {
    private MismatchScenarios() {
    }

    public static void main(String[] args) {
        Shmem shmem = Shmem.init();
        int me = shmem.myPe();
        int last = shmem.nPes() - 1;
        SymLongArray src = shmem.calloc(SymType.LONG, 4);
        SymLongArray dst = shmem.calloc(SymType.LONG, 4);
        shmem.barrierAll();
        switch (args[0]) {
            case "reduce-vs-barrier" -> {
                if (me == last) {
                    shmem.barrierAll();
                } else {
                    shmem.teamWorld().sumReduce(dst, src, 4);
                }
            }
            case "large-alltoall-vs-barrier" -> {
                int n = shmem.nPes();
                SymLongArray to = shmem.calloc(SymType.LONG, 2048L * n);
                SymLongArray from = shmem.calloc(SymType.LONG, 2048L * n);
                if (me == last) {
                    shmem.barrierAll();
                } else {
                    shmem.teamWorld().alltoall(to, from, 2048);
                }
            }
            case "scalar-reduce-vs-barrier" -> {
                if (me == last) {
                    shmem.barrierAll();
                } else {
                    shmem.teamWorld().sumReduce(7L);
                }
            }
            case "scalar-vs-array-reduce" -> {
                if (me == 0) {
                    shmem.teamWorld().maxReduce(1L);
                } else {
                    shmem.teamWorld().maxReduce(dst, src, 1);
                }
            }
            case "split-triplets" -> {
                // Teams {0, 1} on PE 0 and {0, 2} on the others: each would think itself a member
                // of a team the others do not know.
                shmem.teamWorld().splitStrided(0, me == 0 ? 1 : 2, 2, null, 0).ifPresent(t -> t.sync());
            }
            case "split-2d-vs-strided" -> {
                if (me == last) {
                    shmem.teamWorld().split2d(2, null, 0, null, 0);
                } else {
                    shmem.teamWorld().splitStrided(0, 1, 2, null, 0);
                }
            }
            case "broadcast-roots" -> shmem.teamWorld().broadcast(dst, src, 4, me == 0 ? 0 : 1);
            case "large-broadcast-sizes" -> {
                SymLongArray big = shmem.calloc(SymType.LONG, 16384);
                SymLongArray from = shmem.calloc(SymType.LONG, 16384);
                shmem.teamWorld().broadcast(big, from, me == 0 ? 16384 : 8192, 0);
            }
            case "malloc-sizes" -> {
                SymLongArray a = shmem.calloc(SymType.LONG, me == 0 ? 16 : 8);
                if (me == 0) {
                    shmem.p(a, 15, 42L, 1);
                }
            }
            case "finalize-vs-barrier" -> {
                if (me == last) {
                    shmem.close();
                    Out.line("PAST " + me);
                    return;
                }
                shmem.barrierAll();
            }
            case "finalize-vs-root-broadcast" -> {
                // The last PE's finalize goes through with the others' broadcast (a root waits for
                // nobody); the barrier after it must see that the last PE finalized, not wait for ever.
                if (me == last) {
                    shmem.close();
                    Out.line("PAST " + me);
                    return;
                }
                shmem.teamWorld().broadcast(dst, src, 4, 0);
                shmem.barrierAll();
            }
            default -> throw new IllegalArgumentException("unknown scenario " + args[0]);
        }
        Out.line("PAST " + me);
        shmem.barrierAll();
        shmem.close();
    }
}
