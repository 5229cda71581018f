/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import io.jshmem.ShmemException;
import java.util.Locale;
import java.util.Map;

/**
 * Settings read from the environment at init (the OpenSHMEM SHMEM_* variables plus jshmem's own).
 *
 * @param symmetricSize usable bytes of symmetric heap per PE (SHMEM_SYMMETRIC_SIZE)
 * @param debug         extra checking of collective arguments across PEs (SHMEM_DEBUG)
 * @param info          print the settings at init (SHMEM_INFO)
 * @param version       print the library version at init (SHMEM_VERSION)
 * @param shmDir        directory of the shared-memory segments (JSHMEM_SHM_DIR, default /dev/shm)
 * @param transport     SHMEM_TRANSPORT: {@code auto} (shared memory on-node, network off-node),
 *                      {@code shm} (shared memory only) or {@code ucx} (UCX for every peer but self)
 * @param waitSpinNanos  the longest a wait spins before yielding (JSHMEM_WAIT_SPIN_US); -1: automatic
 *                       (20 us; where PEs outnumber cores, spinning only while the awake PEs fit on them)
 * @param waitYieldNanos how long a wait yields before sleeping (JSHMEM_WAIT_YIELD_US, default 1000 us)
 * @param barrierAlgorithm JSHMEM_BARRIER_ALGORITHM: {@code auto} ({@code linear} for up to
 *                       {@value io.jshmem.core.team.TeamImpl#LINEAR_SYNC_MAX} members on this node, {@code hierarchical}
 *                       for teams across nodes with several members on some node, {@code central}
 *                       for 3 to {@value io.jshmem.core.team.TeamImpl#CENTRAL_SYNC_MAX} members across nodes, one per
 *                       node, else {@code dissemination}), {@code linear}, {@code dissemination}
 *                       (never hierarchical), {@code hierarchical} or {@code central}
 * @param collAlgorithm  JSHMEM_COLL_ALGORITHM: {@code auto} (push through per-team buffers for small
 *                       messages; larger reductions on one node (over 2 PEs) write their slices into the
 *                       members' dest, larger broadcasts there read the root's source in place (the root
 *                       waits until all have), larger alltoalls there put each block into its receiver's
 *                       dest once it has entered, where PEs share cores; pull otherwise; across nodes, broadcasts to more than
 *                       {@value io.jshmem.core.coll.Collectives#TREE_BROADCAST_ABOVE} PEs go down a binomial tree),
 *                       {@code push} (never a tree), {@code tree} (always a tree) or {@code pull}
 *                       (every collective larger than the buffers pulls)
 * @param atomics        SHMEM_ATOMICS: how atomics on PEs of this node are performed: {@code auto} (CPU
 *                       atomics, unless the network transport's atomics are not atomic with them, e.g.
 *                       network-card atomics on InfiniBand/RoCE), {@code cpu} or {@code transport}
 *                       (every atomic through the network transport, this PE's own included)
 * @param network        the settings of the network transport and of the PMI bootstraps (JSHMEM_UCX_*, JSHMEM_PMI*)
 * @param shmPreallocate JSHMEM_SHM_PREALLOCATE: allocate every page of this PE's segment at init
 *                       (posix_fallocate), so that nothing else can take the space from the heap later;
 *                       off by default, since it costs the whole heap's memory and time up front
 */
public record Config(long symmetricSize, boolean debug, boolean info, boolean version, String shmDir, String transport,
                     long waitSpinNanos, long waitYieldNanos, String barrierAlgorithm, String collAlgorithm,
                     String atomics, Network network, boolean shmPreallocate) {

    /** The settings of {@code SHMEM_*} plus defaults for jshmem's own (tests, embedded use). */
    public Config(long symmetricSize, boolean debug, boolean info, boolean version, String shmDir, String transport) {
        this(symmetricSize, debug, info, version, shmDir, transport, -1, DEFAULT_YIELD_NANOS, "auto", "auto", "auto", Network.DEFAULTS,
                false);
    }

    /** Every setting but the network's and JSHMEM_SHM_PREALLOCATE, which keep their defaults (tests). */
    public Config(long symmetricSize, boolean debug, boolean info, boolean version, String shmDir, String transport,
                  long waitSpinNanos, long waitYieldNanos, String barrierAlgorithm, String collAlgorithm, String atomics) {
        this(symmetricSize, debug, info, version, shmDir, transport, waitSpinNanos, waitYieldNanos, barrierAlgorithm,
                collAlgorithm, atomics, Network.DEFAULTS, false);
    }

    /**
     * Settings of the UCX transport and of the PMI bootstraps: every variable they read is parsed here.
     *
     * @param ucxTimeoutNanos    JSHMEM_UCX_TIMEOUT (seconds, default 60): longest wait for a UCX completion
     * @param ucxProgressSpinNanos JSHMEM_UCX_PROGRESS_SPIN_US: how long the progress thread polls after an
     *                           event before sleeping; -1: automatic (50 us with a core per PE, else 0)
     * @param ucxPeerErrors      JSHMEM_UCX_ERR_MODE: {@code peer} (true, default) or {@code none}
     * @param ucxListen          JSHMEM_UCX_LISTEN: {@code job} (default: UCX's TCP listeners only on the
     *                           interface that reaches the launcher), {@code all} (UCX's choice), or a
     *                           comma-separated list of interfaces (UCX_NET_DEVICES, when set, wins)
     * @param ucxWireUp          JSHMEM_UCX_WIREUP: {@code auto} (default: {@code lazy} with UCX 1.14 or
     *                           later, {@code eager} with older UCX, which can abort the process when a peer
     *                           fails while an endpoint to it is being wired up), {@code lazy} (an endpoint
     *                           to a peer is made at the first operation to it) or {@code eager} (to every
     *                           off-node peer at init, each checked with a get)
     * @param pmi                JSHMEM_PMI: {@code auto}, {@code pmix}, {@code pmi2} or {@code none}
     * @param pmi2Library        JSHMEM_PMI2_LIBRARY: path of libpmi2, or null to search
     * @param pmixLibrary        JSHMEM_PMIX_LIBRARY: path of libpmix, or null to search
     * @param pmiReinitTimeoutNanos JSHMEM_PMI_REINIT_TIMEOUT (seconds, default 120): under srun or mpirun,
     *                           how long a re-initialization waits for every PE to initialize again
     *                           before it ends the job (a PE that exited after its last finalize never
     *                           does, and PMI-2 never tells the others, PMIx not reliably)
     */
    public record Network(long ucxTimeoutNanos, long ucxProgressSpinNanos, boolean ucxPeerErrors, String ucxListen,
                          String ucxWireUp, String pmi, String pmi2Library, String pmixLibrary, long pmiReinitTimeoutNanos) {
        /** Default longest wait for a UCX completion. */
        public static final long DEFAULT_UCX_TIMEOUT_SECONDS = 60;
        /** Default longest wait of a re-initialization under PMI for the other PEs. */
        public static final long DEFAULT_PMI_REINIT_TIMEOUT_SECONDS = 120;
        /** Every setting at its default. */
        public static final Network DEFAULTS = fromEnvironment(Map.of());

        /** Parses the variables; a bad value is a ShmemException naming the variable and the values allowed. */
        public static Network fromEnvironment(Map<String, String> env) {
            return new Network(
                    seconds(env, "JSHMEM_UCX_TIMEOUT", DEFAULT_UCX_TIMEOUT_SECONDS),
                    micros(env, "JSHMEM_UCX_PROGRESS_SPIN_US", -1),
                    choice(env, "JSHMEM_UCX_ERR_MODE", "peer", "none").equals("peer"),
                    listen(env.get("JSHMEM_UCX_LISTEN")),
                    choice(env, "JSHMEM_UCX_WIREUP", "auto", "lazy", "eager"),
                    pmi(env),
                    path(env.get("JSHMEM_PMI2_LIBRARY")),
                    path(env.get("JSHMEM_PMIX_LIBRARY")),
                    seconds(env, "JSHMEM_PMI_REINIT_TIMEOUT", DEFAULT_PMI_REINIT_TIMEOUT_SECONDS));
        }

        /** JSHMEM_PMI, which process-management interface a PE started by srun/mpirun uses. */
        public static String pmi(Map<String, String> env) {
            String v = env.get("JSHMEM_PMI");
            String t = v == null || v.isBlank() ? "auto" : v.strip().toLowerCase(Locale.ROOT);
            return switch (t) {
                case "auto", "pmix", "pmi2", "none" -> t;
                default -> throw new ShmemException("JSHMEM_PMI=" + v + " is not valid: use auto, pmix, pmi2 or none");
            };
        }

        private static long seconds(Map<String, String> env, String variable, long defaultSeconds) {
            String v = env.get(variable);
            if (v == null || v.isBlank()) {
                return defaultSeconds * 1_000_000_000L;
            }
            try {
                long s = Long.parseLong(v.trim());
                if (s <= 0 || s > 1_000_000) {
                    throw new NumberFormatException();
                }
                return s * 1_000_000_000L;
            } catch (NumberFormatException e) {
                throw new ShmemException(variable + "=" + v + " is not valid: use a number of seconds from 1 to 1000000");
            }
        }

        private static String listen(String v) {
            String t = v == null || v.isBlank() ? "job" : v.trim();
            if (!t.matches("[A-Za-z0-9_.:@,-]+")) {
                throw new ShmemException("JSHMEM_UCX_LISTEN=" + v + " is not valid: use job, all or interface names (eth0,ib0)");
            }
            return t.equalsIgnoreCase("job") || t.equalsIgnoreCase("all") ? t.toLowerCase(Locale.ROOT) : t;
        }

        private static String path(String v) {
            return v == null || v.isBlank() ? null : v.strip();
        }
    }

    /** Default time a wait yields the core before it sleeps: 1 ms. */
    public static final long DEFAULT_YIELD_NANOS = 1_000_000;

    /** Default symmetric heap size per PE: 128 MiB (tmpfs pages are only used once touched). */
    public static final long DEFAULT_SYMMETRIC_SIZE = 128L << 20;

    public static Config fromEnvironment(Map<String, String> env) {
        String size = env.get("SHMEM_SYMMETRIC_SIZE");
        return new Config(
                size == null || size.isBlank() ? DEFAULT_SYMMETRIC_SIZE : parseSize("SHMEM_SYMMETRIC_SIZE", size),
                flag(env.get("SHMEM_DEBUG")),
                flag(env.get("SHMEM_INFO")),
                flag(env.get("SHMEM_VERSION")),
                env.getOrDefault("JSHMEM_SHM_DIR", "/dev/shm"),
                transport(env.get("SHMEM_TRANSPORT")),
                micros(env, "JSHMEM_WAIT_SPIN_US", -1),
                micros(env, "JSHMEM_WAIT_YIELD_US", DEFAULT_YIELD_NANOS),
                choice(env, "JSHMEM_BARRIER_ALGORITHM", "auto", "linear", "dissemination", "hierarchical", "central"),
                choice(env, "JSHMEM_COLL_ALGORITHM", "auto", "push", "tree", "pull"),
                choice(env, "SHMEM_ATOMICS", "auto", "cpu", "transport"),
                Network.fromEnvironment(env),
                flag(env.get("JSHMEM_SHM_PREALLOCATE")));
    }

    private static long micros(Map<String, String> env, String variable, long defaultNanos) {
        String v = env.get(variable);
        if (v == null || v.isBlank()) {
            return defaultNanos;
        }
        try {
            long us = Long.parseLong(v.trim());
            if (us < 0 || us > 60_000_000) {
                throw new NumberFormatException();
            }
            return us * 1000;
        } catch (NumberFormatException e) {
            throw new ShmemException(variable + "=" + v + " is not valid: use a number of microseconds from 0 to 60000000");
        }
    }

    private static String choice(Map<String, String> env, String variable, String... allowed) {
        String v = env.get(variable);
        String t = v == null || v.isBlank() ? allowed[0] : v.trim().toLowerCase(Locale.ROOT);
        for (String a : allowed) {
            if (a.equals(t)) {
                return t;
            }
        }
        throw new ShmemException(variable + "=" + v + " is not valid: use " + String.join(", ", allowed));
    }

    static String transport(String v) {
        String t = v == null || v.isBlank() ? "auto" : v.trim().toLowerCase(Locale.ROOT);
        return switch (t) {
            case "auto", "shm", "ucx" -> t;
            default -> throw new ShmemException("SHMEM_TRANSPORT=" + v + " is not valid: use auto, shm or ucx");
        };
    }

    /** Whether on-node peers are reached through shared memory (false: through the network transport). */
    public boolean directOnNode() {
        return !transport.equals("ucx");
    }

    /** A variable is on when set to anything but empty, 0, false, no or off. */
    public static boolean flag(String v) {
        if (v == null) {
            return false;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "", "0", "false", "no", "off" -> false;
            default -> true;
        };
    }

    /** Parses "1048576", "64k", "512m", "2g" (also K/M/G, kb/mb/gb, and a "t" suffix). */
    public static long parseSize(String variable, String text) {
        String s = text.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("b") && s.length() > 1 && !Character.isDigit(s.charAt(s.length() - 2))) {
            s = s.substring(0, s.length() - 1);
        }
        int shift = 0;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                case 't' -> shift = 40;
                default -> shift = 0;
            }
        }
        String digits = shift == 0 ? s : s.substring(0, s.length() - 1).trim();
        try {
            long n = Long.parseLong(digits);
            if (n <= 0 || n > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new ShmemException(variable + "=" + text + " is not a valid size: use a positive number of bytes with an optional k, m or g suffix (e.g. 512m)");
        }
    }

    /** Human-readable size: "128 MiB". */
    public static String formatSize(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + " GiB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + " MiB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + " KiB";
        }
        return bytes + " B";
    }
}
