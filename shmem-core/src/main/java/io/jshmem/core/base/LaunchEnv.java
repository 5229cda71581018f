/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import java.util.List;

/**
 * Names of the environment variables through which {@code oshrun} describes the job to each PE.
 * The launcher sets all of them; {@link io.jshmem.core.bootstrap.TcpBootstrap#fromEnvironment} reads them.
 */
public final class LaunchEnv {
    /** Job identifier: [a-z0-9], unique per job; also names the job's shared-memory files. */
    public static final String JOBID = "JSHMEM_JOBID";
    /** This PE's number, 0..NPES-1. */
    public static final String PE = "JSHMEM_PE";
    /** Number of PEs in the job. */
    public static final String NPES = "JSHMEM_NPES";
    /** Identity of the node this PE runs on (see {@link io.jshmem.core.bootstrap.Bootstrap#nodeId()}). */
    public static final String NODE = "JSHMEM_NODE";
    /**
     * Which node every PE of the job runs on, in {@code PMI_process_mapping}'s format
     * ({@link io.jshmem.core.bootstrap.ProcessMapping}): one block per run of PEs on a node, so its size grows with the hosts,
     * not the PEs. A PE learns from it which PEs share its node without asking anyone.
     */
    public static final String PROCESS_MAPPING = "JSHMEM_PROCESS_MAPPING";
    /** Index of this PE among the PEs of its node. */
    public static final String LOCAL_PE = "JSHMEM_LOCAL_PE";
    /** Number of PEs on this PE's node. */
    public static final String LOCAL_NPES = "JSHMEM_LOCAL_NPES";
    /**
     * "core" when the launcher bound this PE to a CPU of its own (oshrun --bind-to), "shared" when
     * to a CPU it shares with other PEs (--bind-to core with more PEs than CPUs).
     */
    public static final String BIND = "JSHMEM_BIND";
        /** host:port of the launcher's bootstrap server. */
    public static final String BOOTSTRAP = "JSHMEM_BOOTSTRAP";
    /**
     * Path of a file (mode 0600, in a directory of mode 0700) holding the hex of the job's random
     * secret, which proves to the bootstrap server that a PE belongs to the job; the PE deletes it once
     * read ({@link io.jshmem.core.bootstrap.JobSecret}). The secret itself is never in a PE's environment.
     */
    public static final String SECRET_FILE = "JSHMEM_SECRET_FILE";
    /**
     * The hex of the secret itself: read only when {@link #SECRET_FILE} is not set, for tests and
     * hand-made launches; oshrun never sets it (and removes it from the environment of its PEs).
     */
    public static final String SECRET = "JSHMEM_SECRET";
    /** Seconds of silence after which oshrun drops a PE (--heartbeat-timeout); optional. */
    public static final String HEARTBEAT_TIMEOUT = "JSHMEM_HEARTBEAT_TIMEOUT";
    /** Seconds a PE keeps retrying a launcher that is busy (oshrun --launch-timeout); optional. */
    public static final String LAUNCH_TIMEOUT = "JSHMEM_LAUNCH_TIMEOUT";

    /**
     * The pid of the oshrun launcher, given to the PEs it starts as its own children (those on its
     * host): a PE whose parent it is needs no walk through its ancestors at init to know it is no
     * subprocess of a PE (IdentityGuard).
     */
    public static final String LAUNCHER_PID = "JSHMEM_LAUNCHER_PID";

    /**
     * Every variable above: the launcher owns them, so they cannot be set with {@code -x}, and a
     * subprocess of a PE does not inherit them; all but {@link #LAUNCHER_PID} (only PEs on the
     * launcher's host get it) and {@link #PROCESS_MAPPING} (without it a PE learns its node's PEs
     * from every PE's published heap, O(N)) are required of a PE, {@link #SECRET_FILE} or else {@link #SECRET}.
     */
    public static final List<String> JOB_VARIABLES =
            List.of(JOBID, PE, NPES, NODE, LOCAL_PE, LOCAL_NPES, PROCESS_MAPPING, BOOTSTRAP, SECRET_FILE, SECRET, LAUNCHER_PID);

    /** Extra JVM options for every PE, split on whitespace; read by the launcher itself. */
    public static final String JAVA_OPTS = "JSHMEM_JAVA_OPTS";

    private LaunchEnv() {
    }

    /**
     * Whether this PE shares its core with other PEs of its node ({@code pesOnNode} of them, this
     * one included, whatever transport connects them): then a waiting PE spins only while the PEs
     * not asleep fit on the cores, since a spin would steal time from the PE being waited for. A PE
     * the launcher bound to a CPU of its own has one, whatever its affinity mask (one CPU) says.
     */
    public static boolean coreShared(int pesOnNode) {
        String bind = Settings.system().text(Setting.JSHMEM_BIND);
        if ("core".equals(bind)) {
            return false;
        }
        return "shared".equals(bind) || pesOnNode > Runtime.getRuntime().availableProcessors();
    }
}
