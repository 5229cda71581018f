/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.Log;
import io.jshmem.core.base.ProcFs;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/** A job of one PE: what a program started with plain {@code java} (no launcher) gets. */
public final class SingletonBootstrap implements Bootstrap {
    private final Map<String, byte[]> kv = new HashMap<>();
    private final int generation;
    private final String jobId = "s" + ProcFs.selfPid() + "x"
            + Long.toString(ThreadLocalRandom.current().nextLong() >>> 1, 36);

    /** For initialization {@code generation} of this process (its job id is new each time anyway). */
    public SingletonBootstrap(int generation) {
        this.generation = generation;
    }

    @Override
    public int generation() {
        return generation;
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public int size() {
        return 1;
    }

    @Override
    public String nodeId() {
        return "0";
    }

    @Override
    public int[] nodeIndexes() {
        return new int[] {0};
    }

    @Override
    public String jobId() {
        return jobId;
    }

    @Override
    public synchronized void put(String key, byte[] value) {
        kv.put(key, value.clone());
    }

    @Override
    public void fence() {
    }

    @Override
    public synchronized byte[] get(String key) {
        byte[] v = kv.get(key);
        return v == null ? null : v.clone();
    }

    @Override
    public void abort(int status, String message) {
        Log.BOOTSTRAP.error("jshmem: " + message);
        System.exit(status);
    }

    @Override
    public void finalized() {
    }

    @Override
    public void onAbort(Consumer<String> handler) {
    }

    @Override
    public String describe() {
        return "singleton (no launcher)";
    }

    @Override
    public void close() {
    }
}
