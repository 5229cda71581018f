/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

import java.lang.foreign.MemorySegment;

/**
 * Whether the PEs of this node that are awake fit on its cores, for a node whose PEs outnumber
 * them: a waiting PE may then spin like one with a core of its own. Without it, with 4 PEs on 2
 * cores every wait yields, even while two PEs sleep in a barrier and the other two ping-pong
 * (each round trip then costs two sched_yield calls and often a context switch).
 *
 * <p>Sleeping PEs are counted from the sleeper counts in the wait-control lines of the node's
 * mapped segments ({@link Waiter#SLEEPERS}): a sleeping thread is registered in exactly one line.
 * PEs not mapped here count as awake. A PE with several threads asleep counts more than once, so
 * with multi-threaded PEs this may allow a spin that steals some time; the spin is bounded by the
 * wait's adaptive budget either way.
 */
final class AwakePes {
    private final MemorySegment[] segments;
    private final int pes;
    private final int cores;

    /**
     * @param segments the mapped segments of this node's PEs (this PE's included)
     * @param pes      this node's PEs, mapped or not
     * @param cores    the CPUs these PEs share
     */
    AwakePes(MemorySegment[] segments, int pes, int cores) {
        this.segments = segments;
        this.pes = pes;
        this.cores = cores;
    }

    /** Whether the PEs not asleep now number at most the cores. A racy snapshot (plain reads), taken once per wait. */
    boolean fitCores() {
        int awake = pes;
        for (MemorySegment s : segments) {
            awake -= (int) Comm.INT.getOpaque(s, Waiter.SLEEPERS);
        }
        return awake <= cores;
    }
}
