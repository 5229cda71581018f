/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The process-management interface a PE uses during wire-up: who am I, who else is there, a
 * key-value exchange with fences, and abort. Implemented by the jshmem launcher ({@link TcpBootstrap}),
 * PMI-2 and PMIx. Nothing here is on a hot path.
 *
 * <p><b>Scale.</b> Values are fetched on demand: a PE publishes its own values once, and a
 * {@link #get} of another PE's key fetches that one value when first asked (then caches it), so a PE
 * receives data only for the peers it uses; a fence carries no values. Callers must therefore never
 * read every PE's key (that is O(N) lookups per PE, O(N^2) in the job): which PEs share a node comes
 * from {@link #nodeIndexes()}, and a job-wide verdict from {@link #fenceFlagged}.
 */
public interface Bootstrap extends AutoCloseable {

    /** This process's rank (PE number in the world team). */
    int rank();

    /** Number of PEs in the job. */
    int size();

    /**
     * Identity of the node this PE runs on, as the launcher assigned it (not the hostname: hosts
     * may share one). PEs with equal node ids can map each other's shared memory.
     */
    String nodeId();

    /** Job identifier, unique per job, usable in file names ([A-Za-z0-9_-]). */
    String jobId();

    /**
     * Which initialization of jshmem in this process this bootstrap serves: 0 for the first, n after
     * n finalizes (OpenSHMEM 1.6 re-initialization). Every PE of the job is in the same one.
     */
    int generation();

    /** Publishes a value under a key; visible to every PE after the next {@link #fence()}. */
    void put(String key, byte[] value);

    /** Collective over all PEs: returns when every PE has called it; puts made before are visible. */
    void fence();

    /**
     * A value put by any PE before the last fence, or {@code null} if none. May ask the launcher (one
     * round trip for that key), so call it for the peers used, not for every PE. Safe to call from
     * several threads at once (endpoints made on first use); the array returned must not be changed.
     *
     * @throws IllegalStateException if the job is ending or the launcher is gone: a lookup never hangs
     *         on a dead job
     */
    byte[] get(String key);

    /**
     * {@link #get} of every key, the values in the keys' order ({@code null} where none): for a PE
     * that needs many peers' data at once (eager UCX wire-up). This default asks one key after the
     * other; the jshmem launcher's bootstrap sends every request before it waits for the first
     * answer, so that N keys cost one round trip rather than N.
     *
     * @throws IllegalStateException as {@link #get}
     */
    default List<byte[]> getAll(List<String> keys) {
        List<byte[]> values = new ArrayList<>(keys.size());
        for (String key : keys) {
            values.add(get(key));
        }
        return values;
    }

    /**
     * A {@link #fence()} that also tells whether any PE had a problem: each PE passes its own
     * {@code flag}, and every PE gets the lowest PE that passed {@code true}, or -1. For verdicts
     * every PE must act on together (the shared-memory capacity check) without reading N keys.
     *
     * <p>This default costs ceil(log2 N) fences and one lookup each (a dissemination over the
     * key-value store); the jshmem launcher does it in one fence (its server counts the flags).
     */
    default int fenceFlagged(boolean flag) {
        return FlagDissemination.run(this, flag);
    }

    /**
     * The node index of every PE (equal for PEs that can map each other's shared memory), from the
     * launcher's mapping, or {@code null} if the launcher gives none: the heap then learns its node's
     * PEs from every PE's published record (O(N) lookups). One int per PE, no lookups.
     */
    default int[] nodeIndexes() {
        return null;
    }

    /** What this PE has received from the launcher so far, for SHMEM_DEBUG ("" if not counted). */
    default String traffic() {
        return "";
    }

    /**
     * Ends the whole job: every PE is terminated and the launcher exits with {@code status},
     * printing {@code message}. Does not return under a launcher that honours it.
     */
    void abort(int status, String message);

    /**
     * This PE is exiting with {@code status} before finalize (System.exit in a shutdown hook, which
     * must neither block nor halt): tells a launcher that takes reasons ({@code message}) first, so
     * that the peers' failures that follow (their operations to this PE) are not reported as the
     * cause. Returns at once. By default nothing: a PMI launcher sees the exit status itself.
     */
    default void exiting(int status, String message) {
    }

    /** Tells the launcher this PE finalized cleanly; its exit is then not a failure. */
    void finalized();

    /**
     * Registers a callback run (on a bootstrap thread) when the job is being aborted by another PE
     * or by the launcher, with the reason. Waiting loops use it to end promptly instead of hanging.
     */
    void onAbort(Consumer<String> handler);

    /** Short description for SHMEM_INFO, e.g. "jshmem launcher 127.0.0.1:40123". */
    String describe();

    @Override
    void close();
}
