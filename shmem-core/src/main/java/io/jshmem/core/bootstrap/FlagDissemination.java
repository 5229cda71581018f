/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import java.nio.ByteBuffer;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link Bootstrap#fenceFlagged} over a plain key-value store with fences: a dissemination of the
 * minimum flagged PE. In round r each PE publishes the lowest flagged PE it knows of, fences, and
 * reads the value of PE {@code (rank - 2^r) mod N}; after ceil(log2 N) rounds every PE knows the
 * minimum over all. ceil(log2 N) fences and lookups per PE, O(1) bytes each: no PE reads N keys.
 */
final class FlagDissemination {
    /**
     * Numbers each bootstrap's calls, so every call's keys are new (PMI stores are write-once). Per
     * bootstrap, not per process: the PEs of an in-process job share a JVM.
     */
    private static final Map<Bootstrap, AtomicLong> CALLS = Collections.synchronizedMap(new WeakHashMap<>());

    private FlagDissemination() {
    }

    static int run(Bootstrap b, boolean flag) {
        int n = b.size();
        int me = b.rank();
        // Every PE makes the same calls in the same order, so the numbers agree.
        long call = CALLS.computeIfAbsent(b, x -> new AtomicLong()).getAndIncrement();
        int known = flag ? me : Integer.MAX_VALUE;
        if (n == 1) {
            b.fence();
        }
        // Otherwise the rounds' fences make what was put before visible, as fence() does.
        for (int distance = 1; distance < n; distance <<= 1) {
            String round = "jflag." + b.generation() + "." + call + "." + Integer.numberOfTrailingZeros(distance) + ".";
            b.put(round + me, ByteBuffer.allocate(4).putInt(known).array());
            b.fence();
            int from = Math.floorMod(me - distance, n);
            byte[] v = b.get(round + from);
            if (v == null || v.length != 4) {
                throw new IllegalStateException("PE " + me + ": PE " + from + " published no flag for round "
                        + round + " of a flagged fence");
            }
            known = Math.min(known, ByteBuffer.wrap(v).getInt());
        }
        return known == Integer.MAX_VALUE ? -1 : known;
    }
}
