package io.jshmem.core.bootstrap;

import java.util.function.Consumer;

/**
 * The process-management interface a PE uses during wire-up: who am I, who else is there, a
 * key-value exchange with fences, and abort. Implemented by the jshmem launcher ({@link TcpBootstrap})
 * and later by PMI2/PMIx. Nothing here is on a hot path.
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

    /** A value put by any PE before the last fence, or {@code null} if none. */
    byte[] get(String key);

    /**
     * Ends the whole job: every PE is terminated and the launcher exits with {@code status},
     * printing {@code message}. Does not return under a launcher that honours it.
     */
    void abort(int status, String message);

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
