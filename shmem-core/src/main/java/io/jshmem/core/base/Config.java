/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import io.jshmem.ShmemException;
import java.util.Locale;
import java.util.Map;

/**
 * A PE's settings, parsed once at init from the {@link Setting} table (names, defaults, the values
 * allowed and the help are the table's; this record only holds the typed values). A bad value is a
 * ShmemException naming the variable and the values allowed.
 *
 * @param symmetricSize    {@link Setting#SHMEM_SYMMETRIC_SIZE}: usable bytes of symmetric heap per PE
 * @param debug            {@link Setting#SHMEM_DEBUG}
 * @param info             {@link Setting#SHMEM_INFO}
 * @param version          {@link Setting#SHMEM_VERSION}
 * @param shmDir           {@link Setting#JSHMEM_SHM_DIR}
 * @param transport        {@link Setting#SHMEM_TRANSPORT}
 * @param waitSpinNanos    {@link Setting#JSHMEM_WAIT_SPIN_US}; -1: automatic (20 us; where PEs outnumber
 *                         cores, spinning only while the awake PEs fit on them)
 * @param waitYieldNanos   {@link Setting#JSHMEM_WAIT_YIELD_US}
 * @param barrierAlgorithm {@link Setting#JSHMEM_BARRIER_ALGORITHM}: auto picks linear for up to
 *                         {@value io.jshmem.core.team.TeamImpl#LINEAR_SYNC_MAX} members on this node,
 *                         hierarchical for teams across nodes with several members on some node, central
 *                         for 3 to {@value io.jshmem.core.team.TeamImpl#CENTRAL_SYNC_MAX} members across
 *                         nodes, one per node, else dissemination
 * @param collAlgorithm    {@link Setting#JSHMEM_COLL_ALGORITHM} (see docs/settings.md)
 * @param alltoallAlgorithm {@link Setting#JSHMEM_ALLTOALL_ALGORITHM}
 * @param fcollectAlgorithm {@link Setting#JSHMEM_FCOLLECT_ALGORITHM}
 * @param atomics          {@link Setting#SHMEM_ATOMICS}
 * @param network          the settings of the network transport and of the PMI bootstraps
 * @param shmPreallocate   {@link Setting#JSHMEM_SHM_PREALLOCATE}
 * @param reduceAlgorithm  {@link Setting#JSHMEM_REDUCE_ALGORITHM}
 * @param broadcastAlgorithm {@link Setting#JSHMEM_BROADCAST_ALGORITHM}
 */
public record Config(long symmetricSize, boolean debug, boolean info, boolean version, String shmDir, Transport transport,
                     long waitSpinNanos, long waitYieldNanos, BarrierAlgorithm barrierAlgorithm, CollAlgorithm collAlgorithm,
                     AlltoallAlgorithm alltoallAlgorithm, FcollectAlgorithm fcollectAlgorithm,
                     Atomics atomics, Network network, boolean shmPreallocate, ReduceAlgorithm reduceAlgorithm,
                     BroadcastAlgorithm broadcastAlgorithm) {

    /** {@link Setting#SHMEM_TRANSPORT}. */
    public enum Transport { AUTO, SHM, UCX }

    /** {@link Setting#SHMEM_ATOMICS}. */
    public enum Atomics { AUTO, CPU, TRANSPORT }

    /** {@link Setting#JSHMEM_BARRIER_ALGORITHM}. */
    public enum BarrierAlgorithm { AUTO, LINEAR, DISSEMINATION, HIERARCHICAL, CENTRAL }

    /** {@link Setting#JSHMEM_COLL_ALGORITHM}. */
    public enum CollAlgorithm { AUTO, PUSH, TREE, PULL }

    /** {@link Setting#JSHMEM_REDUCE_ALGORITHM}: auto, or a row of the reduce table (io.jshmem.core.coll.Selector). */
    public enum ReduceAlgorithm {
        AUTO, PUSH, PUSH_EXCHANGE, PUSH_GATHER_AT_0, PUSH_RECURSIVE_DOUBLING, PUSH_HIERARCHICAL_RECURSIVE_DOUBLING,
        PUSH_EXCHANGE_RUN, PUSH_RABENSEIFNER, PUSH_HIERARCHICAL_RABENSEIFNER, PUSH_REDUCE_SCATTER_ALLGATHER, PULL_WHOLE,
        PULL_REDUCE_SCATTER_INTO_DEST, PULL_REDUCE_SCATTER_ALLGATHER
    }
    /** {@link Setting#JSHMEM_ALLTOALL_ALGORITHM}: auto, or a row of the alltoall table (core.coll.Selector), '_' written '-'. */
    public enum AlltoallAlgorithm { AUTO, PUSH_HIERARCHICAL, PUSH_BRUCK, PUSH_PAIRWISE, PUSH_EXCHANGE, PUSH_INTO_DEST, PULL }

    /** {@link Setting#JSHMEM_FCOLLECT_ALGORITHM}: auto, or a row of the fcollect table, '_' written '-'. */
    public enum FcollectAlgorithm { AUTO, PUSH_HIERARCHICAL, PUSH_BRUCK, PUSH_RING, PUSH_EXCHANGE, PUSH_GATHER_AT_0, PUSH_INTO_DEST, PULL }

    /** {@link Setting#JSHMEM_BROADCAST_ALGORITHM}: auto, or a row of the broadcast table, '_' written '-'. */
    public enum BroadcastAlgorithm { AUTO, PUSH_PIPELINED }

    /** {@link Setting#JSHMEM_UCX_ERR_MODE}. */
    public enum UcxErrMode { PEER, NONE }

    /** {@link Setting#JSHMEM_UCX_WIREUP}. */
    public enum UcxWireUp { AUTO, LAZY, EAGER }

    /** {@link Setting#JSHMEM_UCX_PUT_SIGNAL}. */
    public enum UcxPutSignal { AM, RMA }

    /** {@link Setting#JSHMEM_PMI}. */
    public enum Pmi { AUTO, PMIX, PMI2, NONE }

    /**
     * Settings of the UCX transport and of the PMI bootstraps: every variable they read is parsed here.
     *
     * @param ucxTimeoutNanos       {@link Setting#JSHMEM_UCX_TIMEOUT}
     * @param ucxProgressSpinNanos  {@link Setting#JSHMEM_UCX_PROGRESS_SPIN_US}; -1: automatic (50 us with a
     *                              core per PE, else 0)
     * @param ucxPeerErrors         {@link Setting#JSHMEM_UCX_ERR_MODE} is peer
     * @param ucxListen             {@link Setting#JSHMEM_UCX_LISTEN}: job, all, or interface names
     * @param ucxWireUp             {@link Setting#JSHMEM_UCX_WIREUP}
     * @param ucxPutSignal          {@link Setting#JSHMEM_UCX_PUT_SIGNAL}
     * @param pmi                   {@link Setting#JSHMEM_PMI}
     * @param pmi2Library           {@link Setting#JSHMEM_PMI2_LIBRARY}, or null to search
     * @param pmixLibrary           {@link Setting#JSHMEM_PMIX_LIBRARY}, or null to search
     * @param pmiReinitTimeoutNanos {@link Setting#JSHMEM_PMI_REINIT_TIMEOUT}: under srun or mpirun, how long
     *                              a re-initialization waits for every PE to initialize again before it ends
     *                              the job (a PE that exited after its last finalize never does, and PMI-2
     *                              never tells the others, PMIx not reliably)
     */
    public record Network(long ucxTimeoutNanos, long ucxProgressSpinNanos, boolean ucxPeerErrors, String ucxListen,
                          UcxWireUp ucxWireUp, UcxPutSignal ucxPutSignal, Pmi pmi, String pmi2Library, String pmixLibrary, long pmiReinitTimeoutNanos) {
        /** Every setting at its default. */
        public static final Network DEFAULTS = fromEnvironment(Map.of());

        /** Parses the variables; a bad value is a ShmemException naming the variable and the values allowed. */
        public static Network fromEnvironment(Map<String, String> env) {
            return from(Settings.of(env));
        }

        public static Network from(Settings s) {
            return new Network(
                    nanos(s, Setting.JSHMEM_UCX_TIMEOUT),
                    nanos(s, Setting.JSHMEM_UCX_PROGRESS_SPIN_US),
                    choice(s, Setting.JSHMEM_UCX_ERR_MODE, UcxErrMode.class) == UcxErrMode.PEER,
                    listen(s),
                    choice(s, Setting.JSHMEM_UCX_WIREUP, UcxWireUp.class),
                    choice(s, Setting.JSHMEM_UCX_PUT_SIGNAL, UcxPutSignal.class),
                    choice(s, Setting.JSHMEM_PMI, Pmi.class),
                    s.text(Setting.JSHMEM_PMI2_LIBRARY),
                    s.text(Setting.JSHMEM_PMIX_LIBRARY),
                    nanos(s, Setting.JSHMEM_PMI_REINIT_TIMEOUT));
        }

        static String listen(Settings s) {
            String v = s.raw(Setting.JSHMEM_UCX_LISTEN);
            String t = s.text(Setting.JSHMEM_UCX_LISTEN);
            if (!t.matches("[A-Za-z0-9_.:@,-]+")) {
                throw new ShmemException(Setting.JSHMEM_UCX_LISTEN + "=" + v + " is not valid: use job, all or interface names (eth0,ib0)");
            }
            return t.equalsIgnoreCase("job") || t.equalsIgnoreCase("all") ? t.toLowerCase(Locale.ROOT) : t;
        }
    }

    /** Default symmetric heap size per PE (the table's default, parsed). */
    public static final long DEFAULT_SYMMETRIC_SIZE = parseSize(Setting.SHMEM_SYMMETRIC_SIZE.key(), Setting.SHMEM_SYMMETRIC_SIZE.defaultValue());

    public static Config fromEnvironment(Map<String, String> env) {
        return from(Settings.of(env));
    }

    /** Parses every setting a PE reads; a bad value is a ShmemException naming the variable and the values allowed. */
    public static Config from(Settings s) {
        return new Config(
                size(s, Setting.SHMEM_SYMMETRIC_SIZE),
                s.on(Setting.SHMEM_DEBUG),
                s.on(Setting.SHMEM_INFO),
                s.on(Setting.SHMEM_VERSION),
                s.text(Setting.JSHMEM_SHM_DIR),
                choice(s, Setting.SHMEM_TRANSPORT, Transport.class),
                nanos(s, Setting.JSHMEM_WAIT_SPIN_US),
                nanos(s, Setting.JSHMEM_WAIT_YIELD_US),
                choice(s, Setting.JSHMEM_BARRIER_ALGORITHM, BarrierAlgorithm.class),
                choice(s, Setting.JSHMEM_COLL_ALGORITHM, CollAlgorithm.class),
                choice(s, Setting.JSHMEM_ALLTOALL_ALGORITHM, AlltoallAlgorithm.class),
                choice(s, Setting.JSHMEM_FCOLLECT_ALGORITHM, FcollectAlgorithm.class),
                choice(s, Setting.SHMEM_ATOMICS, Atomics.class),
                Network.from(s),
                s.on(Setting.JSHMEM_SHM_PREALLOCATE),
                choice(s, Setting.JSHMEM_REDUCE_ALGORITHM, ReduceAlgorithm.class),
                choice(s, Setting.JSHMEM_BROADCAST_ALGORITHM, BroadcastAlgorithm.class));
    }

    /** Whether on-node peers are reached through shared memory (false: through the network transport). */
    public boolean directOnNode() {
        return transport != Transport.UCX;
    }

    /**
     * A choice setting as {@code type}'s constant (the table's allowed values, in any case); unset or
     * blank: the table's default.
     */
    public static <E extends Enum<E>> E choice(Settings s, Setting setting, Class<E> type) {
        return Enum.valueOf(type, choice(s, setting).toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /** A choice setting's value in lower case, one of the table's; unset or blank: the default. */
    public static String choice(Settings s, Setting setting) {
        String v = s.raw(setting);
        String t = v == null || v.isBlank() ? setting.defaultValue() : v.strip().toLowerCase(Locale.ROOT);
        if (!setting.allowed().contains(t)) {
            throw new ShmemException(setting.key() + "=" + v + " is not valid: use " + setting.allowedText());
        }
        return t;
    }

    /**
     * The value in effect as the reports write it: bytes, true or false, a number in the setting's
     * unit (or its default, e.g. auto), a choice in lower case, or the text; "none" when unset with
     * no default. A bad value throws as at init.
     */
    public static String value(Settings s, Setting setting) {
        return switch (setting.kind()) {
            case SIZE -> Long.toString(size(s, setting));
            case FLAG -> s.source(setting) == Settings.Source.DEFAULT && !"off".equals(setting.defaultValue())
                    ? setting.defaultValue() : Boolean.toString(s.on(setting));
            case MICROS, SECONDS, MILLIS -> {
                long ns = nanos(s, setting);
                long unit = setting.kind() == Setting.Kind.MICROS ? 1_000 : setting.kind() == Setting.Kind.SECONDS ? 1_000_000_000 : 1_000_000;
                yield ns >= 0 ? Long.toString(ns / unit) : setting.defaultValue() != null ? setting.defaultValue() : "none";
            }
            case CHOICE -> choice(s, setting);
            case INTERFACES -> Network.listen(s);
            default -> {
                String t = s.text(setting);
                yield t == null ? "none" : t;
            }
        };
    }

    /** A {@link Setting.Kind#SIZE} setting, in bytes. */
    public static long size(Settings s, Setting setting) {
        return parseSize(setting.key(), s.text(setting));
    }

    /**
     * A {@link Setting.Kind#MICROS}, {@link Setting.Kind#SECONDS} or {@link Setting.Kind#MILLIS}
     * setting, in nanoseconds; -1 for a default of "auto" (or none) when unset.
     */
    public static long nanos(Settings s, Setting setting) {
        String v = s.raw(setting);
        boolean unset = v == null || v.isBlank();
        String t = unset ? setting.defaultValue() : v.strip();
        if (unset && (t == null || t.equals("auto"))) {
            return -1;
        }
        long min = setting.kind() == Setting.Kind.SECONDS ? 1 : 0;
        long max = switch (setting.kind()) {
            case MICROS -> 60_000_000;
            case SECONDS -> 1_000_000;
            default -> Long.MAX_VALUE / 1_000_000;
        };
        long unit = switch (setting.kind()) {
            case MICROS -> 1_000;
            case SECONDS -> 1_000_000_000;
            default -> 1_000_000;
        };
        try {
            long n = Long.parseLong(t);
            if (n < min || n > max) {
                throw new NumberFormatException();
            }
            return n * unit;
        } catch (NumberFormatException e) {
            throw new ShmemException(setting.key() + "=" + v + " is not valid: use a number of " + setting.kind().label()
                    + " from " + min + " to " + max);
        }
    }

    /** A variable is on when set to anything but empty, 0, false, no or off. */
    public static boolean flag(String v) {
        return Settings.flag(v);
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
