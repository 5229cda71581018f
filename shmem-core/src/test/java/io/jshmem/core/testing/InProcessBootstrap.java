/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.testing;

import io.jshmem.ShmemException;
import io.jshmem.core.bootstrap.Bootstrap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The bootstrap of one PE of an in-process job (PEs as threads of one JVM), shared by the tests of
 * shmem-core and shmem-ucx: a shared map as key-value store, a {@link CyclicBarrier} as fence, and
 * abort notices delivered to the handlers of every PE of the job (recorded in {@link #aborts} of
 * PE 0).
 */
public final class InProcessBootstrap implements Bootstrap {
    private final int rank;
    private final int size;
    private final String node;
    private final String jobId;
    private final Map<String, byte[]> kv;
    private final CyclicBarrier barrier;
    private final InProcessBootstrap[] all;
    /** True once another PE failed: fences fail at once instead of waiting for it. */
    private final BooleanSupplier peerFailed;
    private final List<Consumer<String>> abortHandlers = new ArrayList<>();
    /** The reasons the job was aborted with, in order (filled on PE 0's instance). */
    public final List<String> aborts = new CopyOnWriteArrayList<>();

    /**
     * @param all        every PE of the job, this one included (filled by the caller); abort notifies them all
     * @param peerFailed whether another PE failed, checked before each fence
     */
    public InProcessBootstrap(int rank, int size, String node, String jobId, Map<String, byte[]> kv, CyclicBarrier barrier,
                              InProcessBootstrap[] all, BooleanSupplier peerFailed) {
        this.rank = rank;
        this.size = size;
        this.node = node;
        this.jobId = jobId;
        this.kv = kv;
        this.barrier = barrier;
        this.all = all;
        this.peerFailed = peerFailed;
    }

    /** The bootstraps of a job whose PE {@code i} is on node {@code "node" + nodes[i]}. */
    public static InProcessBootstrap[] job(String jobId, int[] nodes, BooleanSupplier peerFailed) {
        int n = nodes.length;
        Map<String, byte[]> kv = new ConcurrentHashMap<>();
        CyclicBarrier barrier = new CyclicBarrier(n);
        InProcessBootstrap[] pes = new InProcessBootstrap[n];
        for (int i = 0; i < n; i++) {
            pes[i] = new InProcessBootstrap(i, n, "node" + nodes[i], jobId, kv, barrier, pes, peerFailed);
        }
        return pes;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public String nodeId() {
        return node;
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public int generation() {
        return 0;
    }

    @Override
    public void put(String key, byte[] value) {
        kv.put(key, value.clone());
    }

    @Override
    public void fence() {
        if (peerFailed.getAsBoolean()) {
            throw new ShmemException("PE " + rank + ": in-process fence failed: a PE failed");
        }
        if (!all[0].aborts.isEmpty()) {
            throw new ShmemException("PE " + rank + ": in-process fence failed: the job was aborted: " + all[0].aborts.get(0));
        }
        try {
            // thousands of simulated PEs on few cores take longer: the step deadline's setting raises it too
            barrier.await(Long.getLong("jshmem.test.stepSeconds", 60), TimeUnit.SECONDS);
        } catch (InterruptedException | BrokenBarrierException | TimeoutException e) {
            throw new ShmemException("PE " + rank + ": in-process fence failed: " + e);
        }
    }

    @Override
    public byte[] get(String key) {
        byte[] v = kv.get(key);
        return v == null ? null : v.clone();
    }

    @Override
    public void abort(int status, String message) {
        all[0].aborts.add(message);
        barrier.reset(); // as a launcher's abort does, PEs waiting in a fence fail now, not at its timeout
        for (InProcessBootstrap p : all) {
            p.abortNotice(message);
        }
    }

    /** What the launcher's abort notice does on this PE only: runs its handlers. */
    public void abortNotice(String reason) {
        List<Consumer<String>> hs;
        synchronized (abortHandlers) {
            hs = List.copyOf(abortHandlers);
        }
        hs.forEach(h -> h.accept(reason));
    }

    @Override
    public void finalized() {
    }

    @Override
    public void onAbort(Consumer<String> handler) {
        synchronized (abortHandlers) {
            abortHandlers.add(handler);
        }
    }

    @Override
    public String describe() {
        return "in-process test bootstrap";
    }

    @Override
    public void close() {
    }
}
