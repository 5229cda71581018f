/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.core.coll.TeamSlot;
import io.jshmem.core.transport.AmoOp;
import io.jshmem.core.transport.RemoteTransport;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The collective simulator's network (issue 36 item 5): one PE's transport, a
 * {@link LoopbackTransport} underneath, that counts what this PE sends to PEs on other simulated
 * nodes (messages, bytes, distinct targets) and follows the critical path of a collective in
 * {@link Clock}: every write carries its writer's depth plus one step, and a PE's depth becomes
 * the largest depth of the words its waits loaded.
 *
 * <p>The job runs with SHMEM_ATOMICS=transport, so that the adds on a mapped (same-node) heap
 * also come through here and carry a depth; they count as on-node steps, not as messages. The
 * syncs' plain stores and loads of slot words on mapped heaps are seen through
 * {@link TeamSlot#probe}.
 *
 * <p>Like TCP's, this network wakes the target's sleepers after every write it carries
 * ({@link #remoteWritesWake}): else each of hundreds of waiting PE threads would look at its
 * memory every 100 us (as over RDMA), and on a loaded 2-core machine the polling alone starves the
 * few PEs that have work, stretching a 256-PE alltoall from seconds to minutes.
 */
final class CountingTransport implements RemoteTransport {
    /**
     * The depths of one job: per PE its current depth, per (PE, heap offset) the depth the last
     * writes carried. A depth packs two path lengths, maximized independently: network steps (high
     * 32 bits: a one-way message between nodes) and all steps (low 32 bits: network messages and
     * on-node hand-overs, i.e. a store or add one PE makes and another PE's wait loads).
     */
    static final class Clock implements TeamSlot.WordProbe {
        static final long NET = 1L << 32 | 1;
        static final long LOCAL = 1;
        final long[] depth;
        private final Map<Long, Long>[] tags;
        private final Map<Long, Integer> ownerByAddress = new HashMap<>();
        private final ThreadLocal<Integer> current = new ThreadLocal<>();
        /** Per heap offset read with getValue: whether it is read by waits' mismatch checks (an arrival word). */
        final Map<Long, Boolean> checkOffsets = new ConcurrentHashMap<>();

        @SuppressWarnings("unchecked")
        Clock(int n) {
            depth = new long[n];
            tags = new Map[n];
            for (int i = 0; i < n; i++) {
                tags[i] = new ConcurrentHashMap<>();
            }
        }

        /** Learns every mapping of every PE's heap (each PE maps its node-mates at addresses of its own). */
        void learn(ShmemRuntime[] runtimes) {
            for (int pe = 0; pe < runtimes.length; pe++) {
                ownerByAddress.put(runtimes[pe].st.self.address(), pe);
                MemorySegment[] peers = runtimes[pe].st.worldPeers;
                for (int q = 0; q < peers.length; q++) {
                    if (peers[q] != null) {
                        ownerByAddress.put(peers[q].address(), q);
                    }
                }
            }
        }

        /** Called on a PE's thread at the start of each step: whose thread this is. */
        void enter(int pe) {
            current.set(pe);
        }

        /** Between steps (all PEs outside the library): every depth and tag back to 0. */
        void reset() {
            java.util.Arrays.fill(depth, 0);
            for (Map<Long, Long> t : tags) {
                t.clear();
            }
        }

        static long max(long a, long b) {
            return Math.max(a >>> 32, b >>> 32) << 32 | Math.max(a & 0xFFFF_FFFFL, b & 0xFFFF_FFFFL);
        }

        static int net(long d) {
            return (int) (d >>> 32);
        }

        static int steps(long d) {
            return (int) d;
        }

        /** A write from {@code from} lands at {@code off} of {@code pe}, {@code step} after {@code from}'s depth. */
        void wrote(int from, int pe, long off, long step) {
            tags[pe].merge(off, depth[from] + step, Clock::max);
        }

        /** {@code pe} has read the word at {@code off} of {@code owner}, {@code step} after it was written. */
        void read(int pe, int owner, long off, long step) {
            Long t = tags[owner].get(off);
            if (t != null) {
                depth[pe] = max(depth[pe], t + step);
            }
        }

        private int owner(MemorySegment heap) {
            Integer o = ownerByAddress.get(heap.address());
            if (o == null) {
                throw new IllegalStateException("a slot word on a heap the simulator does not know");
            }
            return o;
        }

        @Override
        public void stored(MemorySegment heap, long off) {
            int me = current.get();
            int owner = owner(heap);
            wrote(me, owner, off, owner == me ? 0 : LOCAL); // a flag raised on a node-mate: one hand-over
        }

        @Override
        public void loaded(MemorySegment heap, long off) {
            int me = current.get();
            int owner = owner(heap);
            read(me, owner, off, owner == me ? 0 : LOCAL); // a node-mate's own word (arrival, release): one hand-over
        }
    }

    private final RemoteTransport inner;
    private final int me;
    private final int[] nodes;
    private final Clock clock;
    /** Every PE's {@link #wakeOnRemoteWrites} callback, shared by the job's transports. */
    private final Runnable[] wakes;
    /** What this PE sent to other nodes since the last {@link #reset}: messages, bytes, the PEs. */
    long messages;
    long bytes;
    final BitSet endpoints = new BitSet();
    /** Reads of members' arrival words while waiting (mismatch detection): timed, so not counted. */
    long checks;

    CountingTransport(int me, int[] nodes, Clock clock, Runnable[] wakes, RemoteTransport inner) {
        this.inner = inner;
        this.me = me;
        this.nodes = nodes;
        this.clock = clock;
        this.wakes = wakes;
    }

    @Override
    public void wakeOnRemoteWrites(Runnable wake) {
        synchronized (wakeLock(me)) {
            wakes[me] = wake;
        }
    }

    private static final Object[] WAKE_LOCKS = new Object[64];

    static {
        Arrays.setAll(WAKE_LOCKS, i -> new Object());
    }

    private static Object wakeLock(int pe) {
        return WAKE_LOCKS[pe & (WAKE_LOCKS.length - 1)];
    }

    @Override
    public boolean remoteWritesWake() {
        return true;
    }

    /**
     * After a write into {@code pe}'s memory (complete: the loopback underneath is synchronous): wakes
     * its sleepers. The ringing runs on the writer's thread against the target's heap, which a real
     * network never touches from another process: the target may have seen the write, finished and
     * be closing. Its {@link #close} (before its heap closes) removes its callback under the same
     * lock (one of {@link #WAKE_LOCKS}, not one for all: hundreds of writers ring at once), so a
     * wake either completes first or finds nothing to ring.
     */
    private void wake(int pe) {
        synchronized (wakeLock(pe)) {
            Runnable w = wakes[pe];
            if (w != null) {
                w.run();
            }
        }
    }

    void reset() {
        messages = 0;
        bytes = 0;
        checks = 0;
        endpoints.clear();
    }

    private boolean offNode(int pe) {
        return nodes[pe] != nodes[me];
    }

    /** One message of {@code n} bytes to {@code pe}, if it is on another node. */
    private void send(int pe, long n, int count) {
        if (offNode(pe)) {
            messages += count;
            bytes += n;
            endpoints.set(pe);
        }
    }

    /** A write landing at {@code off} of {@code pe}. */
    private void write(int pe, long off, long n, int count) {
        send(pe, n, count);
        clock.wrote(me, pe, off, offNode(pe) ? Clock.NET : Clock.LOCAL);
    }

    /** A blocking read of {@code off} at {@code pe}: a round trip, and after what was written there. */
    private void read(int pe, long off, long n) {
        send(pe, n, 1);
        long step = offNode(pe) ? Clock.NET : Clock.LOCAL;
        clock.depth[me] += 2 * step;
        clock.read(me, pe, off, step);
    }

    @Override
    public void put(int pe, long offset, MemorySegment source) {
        write(pe, offset, source.byteSize(), 1);
        inner.put(pe, offset, source);
        wake(pe);
    }

    @Override
    public void putNbi(int pe, long offset, MemorySegment source) {
        write(pe, offset, source.byteSize(), 1);
        inner.putNbi(pe, offset, source);
        wake(pe);
    }

    @Override
    public void get(int pe, long offset, MemorySegment dest) {
        read(pe, offset, dest.byteSize());
        inner.get(pe, offset, dest);
    }

    @Override
    public void getNbi(int pe, long offset, MemorySegment dest) {
        read(pe, offset, dest.byteSize());
        inner.getNbi(pe, offset, dest);
    }

    @Override
    public void putValue(int pe, long offset, long value, int bytes) {
        write(pe, offset, bytes, 1);
        inner.putValue(pe, offset, value, bytes);
        wake(pe);
    }

    @Override
    public long getValue(int pe, long offset, int bytes) {
        boolean check = clock.checkOffsets.computeIfAbsent(offset, o -> StackWalker.getInstance()
                .walk(s -> s.anyMatch(f -> f.getMethodName().equals("checkArrivals")))); // an arrival word's offset
        if (check) {
            checks++; // a wait's periodic mismatch check: how often depends on the machine's speed
        } else {
            read(pe, offset, bytes);
        }
        return inner.getValue(pe, offset, bytes);
    }

    private static boolean fetching(AmoOp op) {
        return switch (op) {
            case SET, ADD, AND, OR, XOR -> false;
            default -> true;
        };
    }

    /** An atomic lands one way; a fetching one then waits for the reply (its one message is the read's). */
    private void amo(int pe, long offset, AmoOp op, int bytes) {
        write(pe, offset, bytes, fetching(op) ? 0 : 1);
        if (fetching(op)) {
            read(pe, offset, bytes);
        }
    }

    @Override
    public long atomic64(int pe, long offset, AmoOp op, long operand, long compare) {
        amo(pe, offset, op, 8);
        long old = inner.atomic64(pe, offset, op, operand, compare);
        wake(pe);
        return old;
    }

    @Override
    public int atomic32(int pe, long offset, AmoOp op, int operand, int compare) {
        amo(pe, offset, op, 4);
        int old = inner.atomic32(pe, offset, op, operand, compare);
        wake(pe);
        return old;
    }

    @Override
    public void flagAdd(int pe, long offset, long increment) {
        write(pe, offset, 8, 1);
        inner.flagAdd(pe, offset, increment);
        wake(pe);
    }

    /** Data and the counter's add: two network operations (one when there is no data). */
    @Override
    public void putCounted(int pe, long offset, MemorySegment source, long sourceOffset, long n, long counterOffset, long increment) {
        if (n > 0) {
            write(pe, offset, n, 1);
        }
        write(pe, counterOffset, 8, 1);
        inner.putCounted(pe, offset, source, sourceOffset, n, counterOffset, increment);
        wake(pe);
    }

    @Override
    public void fence() {
        inner.fence();
    }

    @Override
    public void quiet() {
        inner.quiet();
    }

    @Override
    public void quiet(int pe) {
        inner.quiet(pe);
    }

    @Override
    public boolean atomicsCoherentWithCpu() {
        return inner.atomicsCoherentWithCpu();
    }

    @Override
    public String name() {
        return "counting " + inner.name();
    }

    @Override
    public void close() {
        synchronized (wakeLock(me)) {
            wakes[me] = null;
        }
        inner.close();
    }
}
