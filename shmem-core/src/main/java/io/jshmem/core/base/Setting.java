/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Every setting of jshmem, in one table (as Sandia OpenSHMEM's {@code shmem_env_defs.h}): its name,
 * type, default, category, a one-line help and, for a choice, the values allowed. {@link Settings}
 * reads them (the only reader of the environment and system properties), {@link Config} holds the
 * PE's parsed values, and the SHMEM_INFO reports, {@code bin/shmem-info}, oshrun's {@code --help}
 * and docs/settings.md's table are made from this table. To add a setting, add a row here.
 *
 * <p>The constant's name is the environment variable's, but for settings read from a system property
 * ({@link #key()} is then the property). This enum holds data only: parsing (which throws
 * ShmemException, of the API module) is {@link Config}'s, so that {@link Log} can use the table
 * where the API is missing.
 */
public enum Setting {
    // heap
    SHMEM_SYMMETRIC_SIZE(Category.HEAP, Kind.SIZE, "128m", "symmetric heap per PE; k, m, g suffixes (e.g. 512m)"),
    JSHMEM_SHM_DIR(Category.HEAP, Kind.PATH, "/dev/shm", "directory of the shared-memory segments; init checks it has room for the node's PEs"),
    JSHMEM_SHM_PREALLOCATE(Category.HEAP, Kind.FLAG, "off", "allocate every page of each PE's segment at init (posix_fallocate)"),
    // reporting
    SHMEM_DEBUG(Category.REPORTING, Kind.FLAG, "off", "extra checks: collective calls whose arguments differ across PEs throw, naming them"),
    SHMEM_INFO(Category.REPORTING, Kind.FLAG, "off", "PE 0 prints the version and settings at init"),
    SHMEM_VERSION(Category.REPORTING, Kind.FLAG, "off", "PE 0 prints the library version at init"),
    JSHMEM_JFR(Category.REPORTING, Kind.TEXT, "off", "a flight recording per PE with these settings (default, profile or a .jfc file); set by oshrun --jfr"),
    JSHMEM_JFR_DIR(Category.REPORTING, Kind.PATH, ".", "where the flight recordings go (JOB-peN.jfr); set by oshrun --jfr-dir"),
    INSTALL_PREFIX("jshmem.prefix", Category.REPORTING, Kind.PATH, null, "the installation's directory (set by bin/shmem-info)"),
    // transport
    SHMEM_TRANSPORT(Category.TRANSPORT, Config.Transport.class, "auto: shared memory on-node, UCX off-node; shm: shared memory only; ucx: UCX for every peer but self"),
    SHMEM_ATOMICS(Category.TRANSPORT, Config.Atomics.class, "atomics on this node's PEs: auto (CPU unless the transport's are not atomic with them), cpu, transport"),
    // waiting
    JSHMEM_WAIT_SPIN_US(Category.WAITING, Kind.MICROS, "auto", "the longest a wait spins before yielding (auto: 20, or 0 once the node's awake PEs outnumber its cores)"),
    JSHMEM_WAIT_YIELD_US(Category.WAITING, Kind.MICROS, "1000", "how long a wait then yields the core before it sleeps on a futex"),
    // collectives
    JSHMEM_BARRIER_ALGORITHM(Category.COLLECTIVES, Config.BarrierAlgorithm.class, "team syncs and barriers (auto picks by team size and shape)"),
    JSHMEM_COLL_ALGORITHM(Category.COLLECTIVES, Config.CollAlgorithm.class, "collectives: pushed through per-team buffers or into dest (auto, push, tree) or pulled (pull)"),
    JSHMEM_REDUCE_ALGORITHM(Category.COLLECTIVES, Config.ReduceAlgorithm.class, "reductions: auto (by team shape and size), or a row of SHMEM_INFO's reduce table, used wherever it can run"),
    JSHMEM_BROADCAST_ALGORITHM(Category.COLLECTIVES, Config.BroadcastAlgorithm.class,
            "broadcasts: auto (by size and team shape), or push-pipelined for every broadcast of a team across nodes"),
    JSHMEM_ALLTOALL_ALGORITHM(Category.COLLECTIVES, Config.AlltoallAlgorithm.class,
            "alltoall(s): auto (by size and team shape), or that row of the alltoall table first, for the teams and calls it can take (push- rows: across nodes)"),
    JSHMEM_FCOLLECT_ALGORITHM(Category.COLLECTIVES, Config.FcollectAlgorithm.class,
            "fcollect: auto (by size and team shape), or that row of the fcollect table first, for the teams and calls it can take (push- rows: across nodes)"),
    // UCX
    JSHMEM_UCX_TIMEOUT(Category.UCX, Kind.SECONDS, "60", "seconds a UCX operation may wait for completion before it fails, naming the peer"),
    JSHMEM_UCX_PROGRESS_SPIN_US(Category.UCX, Kind.MICROS, "auto", "how long the UCX progress thread polls before it sleeps (auto: 50 with a core per PE, else 0)"),
    JSHMEM_UCX_ERR_MODE(Category.UCX, Config.UcxErrMode.class, "peer: operations to a failed PE fail instead of hanging; none: UCX's default"),
    JSHMEM_UCX_LISTEN(Category.UCX, Kind.INTERFACES, "job", "where UCX's TCP transport listens: job (the interface that reaches oshrun), all, or names (eth0,ib0)"),
    JSHMEM_UCX_WIREUP(Category.UCX, Config.UcxWireUp.class, "when endpoints are made: lazy (first operation to a PE), eager (all at init), auto (lazy with UCX 1.14+)"),
    JSHMEM_UCX_PUT_SIGNAL(Category.UCX, Config.UcxPutSignal.class,
            "small puts and put-with-signal over TCP: am (one active message each, data and signal together) or rma (RMA puts; a put, then an atomic on the signal)"),
    // PMI
    JSHMEM_PMI(Category.PMI, Config.Pmi.class, "the process-management interface of a PE started by srun or mpirun"),
    JSHMEM_PMI2_LIBRARY(Category.PMI, Kind.PATH, null, "path of the PMI-2 client library (libpmi2.so.0) instead of the search"),
    JSHMEM_PMIX_LIBRARY(Category.PMI, Kind.PATH, null, "path of the PMIx client library (libpmix.so.2) instead of the search"),
    JSHMEM_PMI_REINIT_TIMEOUT(Category.PMI, Kind.SECONDS, "120", "under srun or mpirun, seconds a re-initialization waits for every PE before it ends the job"),
    // subprocesses
    JSHMEM_FORK_POLICY(Category.SUBPROCESSES, Kind.CHOICE, "warn", "what init does when the JVM forks and fork is not safe here (subprocess clause 3)",
            "warn", "refuse", "allow"),
    JSHMEM_SPAWNED_BY(Category.SUBPROCESSES, Kind.TEXT, null, "set by Spawn in a child of a PE, which makes Shmem.init refuse there; not to be set by hand"),
    FORKSAFETY_SIMULATE("jshmem.forksafety.simulate", Category.SUBPROCESSES, Kind.TEXT, null,
            "tests: replace inputs of the fork-safety report (key=value,...: kernel, ibverbs, transport, mechanism)"),
    // launcher (read by oshrun, not by the PEs)
    JSHMEM_JAVA_OPTS(Category.LAUNCHER, Kind.TEXT, null, "extra JVM options for every PE, split on whitespace; they follow oshrun's own, so they win"),
    JSHMEM_AOT(Category.LAUNCHER, Kind.FLAG, "auto", "auto: start from ahead-of-time caches made after the first job when jshmem runs from jars; off: never"),
    JSHMEM_CACHE_DIR(Category.LAUNCHER, Kind.PATH, null, "where the start-up caches live (default $XDG_CACHE_HOME/jshmem, else ~/.cache/jshmem)"),
    JSHMEM_LAUNCHER(Category.LAUNCHER, Kind.CHOICE, "auto", "auto: srun inside a Slurm allocation, else oshrun's own launcher; oshrun; srun (read by bin/oshrun)",
            "auto", "oshrun", "srun"),
    JSHMEM_SRUN_MPI(Category.LAUNCHER, Kind.TEXT, null, "srun's --mpi plugin when oshrun runs srun (default $SLURM_MPI_TYPE, else pmi2)"),
    JSHMEM_SRUN_OPTS(Category.LAUNCHER, Kind.TEXT, null, "extra srun options when oshrun runs srun (e.g. -N 2)"),
    JSHMEM_JVM_DIR(Category.LAUNCHER, Kind.PATH, "/usr/lib/jvm", "where bin/oshrun and the other scripts look for a JDK 25 when JAVA_HOME has none"),
    LAUNCHER_JAVA("jshmem.java", Category.LAUNCHER, Kind.PATH, null, "the java command of the PEs (set by bin/oshrun; default: this JVM's)"),
    LAUNCHER_CLASSPATH("jshmem.classpath", Category.LAUNCHER, Kind.TEXT, null, "jshmem's class path for the PEs (set by bin/oshrun)"),
    AOT_RECORD("jshmem.aot.record", Category.LAUNCHER, Kind.PATH, null, "set for the training job that makes the start-up cache: where the PEs record"),
    ORPHAN_GRACE_MILLIS("jshmem.bootstrap.orphanGraceMillis", Category.LAUNCHER, Kind.MILLIS, "10000",
            "tests: how long a PE whose launcher is gone waits before it exits"),
    LAUNCHER_SILENCE_MILLIS("jshmem.bootstrap.launcherSilenceMillis", Category.LAUNCHER, Kind.MILLIS, null,
            "tests: how long a PE bears a silent launcher (default twice the heartbeat timeout)"),
    // set by oshrun for each PE (LaunchEnv): the launcher owns them
    JSHMEM_JOBID(Category.JOB, Kind.TEXT, null, "the job's identifier; also names its shared-memory files"),
    JSHMEM_PE(Category.JOB, Kind.INT, null, "this PE's number"),
    JSHMEM_NPES(Category.JOB, Kind.INT, null, "the number of PEs"),
    JSHMEM_NODE(Category.JOB, Kind.TEXT, null, "the identity of this PE's node"),
    JSHMEM_LOCAL_PE(Category.JOB, Kind.INT, null, "this PE's index among the PEs of its node"),
    JSHMEM_LOCAL_NPES(Category.JOB, Kind.INT, null, "the number of PEs on this node"),
    JSHMEM_PROCESS_MAPPING(Category.JOB, Kind.TEXT, null, "every PE's node, in PMI_process_mapping's format"),
    JSHMEM_BIND(Category.JOB, Kind.TEXT, null, "core: this PE is bound to a core of its own; shared: to a core other PEs share"),
    JSHMEM_BOOTSTRAP(Category.JOB, Kind.TEXT, null, "host:port of oshrun's bootstrap server"),
    JSHMEM_SECRET_FILE(Category.JOB, Kind.PATH, null, "the file of the job's secret (deleted once read)"),
    JSHMEM_SECRET(Category.JOB, Kind.TEXT, null, "the secret in hex, read only without JSHMEM_SECRET_FILE (hand-made launches); oshrun never sets it"),
    JSHMEM_LAUNCH_TIMEOUT(Category.JOB, Kind.SECONDS, null, "seconds a PE retries a busy launcher (oshrun --launch-timeout)"),
    JSHMEM_HEARTBEAT_TIMEOUT(Category.JOB, Kind.SECONDS, null, "seconds of silence after which oshrun drops a PE (--heartbeat-timeout)"),
    JSHMEM_LAUNCHER_PID(Category.JOB, Kind.INT, null, "oshrun's pid, for the PEs it starts as its children");

    /** What a setting is about: the sections of the reports and of docs/settings.md, in this order. */
    public enum Category {
        HEAP("heap"), REPORTING("reporting"), TRANSPORT("transport"), WAITING("waiting"), COLLECTIVES("collectives"),
        UCX("UCX"), PMI("PMI"), SUBPROCESSES("subprocesses"), LAUNCHER("launcher (read by oshrun)"),
        JOB("set by oshrun for each PE (do not set)");

        private final String title;

        Category(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    /** How a value is written and parsed. */
    public enum Kind {
        /** bytes, with an optional k, m, g or t suffix */
        SIZE("size"),
        /** off when unset, empty, 0, false, no or off; else on */
        FLAG("flag"),
        /** microseconds, 0 to 60000000 ("auto" only as a default: chosen at init) */
        MICROS("microseconds"),
        /** seconds, 1 to 1000000 */
        SECONDS("seconds"),
        /** milliseconds */
        MILLIS("milliseconds"),
        /** one of {@link Setting#allowed()}, in any case */
        CHOICE("choice"),
        /** job, all, or a comma-separated list of network interfaces */
        INTERFACES("interfaces"),
        /** a file or directory */
        PATH("path"),
        /** a whole number */
        INT("integer"),
        /** free text */
        TEXT("text");

        private final String label;

        Kind(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final String key;
    private final Category category;
    private final Kind kind;
    private final String defaultValue;
    private final String help;
    private final List<String> allowed;
    private final Class<? extends Enum<?>> choices;

    Setting(Category category, Kind kind, String defaultValue, String help, String... allowed) {
        this(null, category, kind, defaultValue, help, allowed);
    }

    Setting(String property, Category category, Kind kind, String defaultValue, String help, String... allowed) {
        this.key = property;
        this.category = category;
        this.kind = kind;
        this.defaultValue = defaultValue;
        this.help = help;
        this.allowed = List.of(allowed);
        this.choices = null;
    }

    /** A choice among an enum's constants (lower case); the first is the default. */
    Setting(Category category, Class<? extends Enum<?>> choices, String help) {
        this.key = null;
        this.category = category;
        this.kind = Kind.CHOICE;
        this.allowed = Arrays.stream(choices.getEnumConstants()).map(Setting::choiceName).toList();
        this.defaultValue = allowed.getFirst();
        this.help = help;
        this.choices = choices;
    }

    /** A choice's value as users write it: the enum constant in lower case, '_' written '-' (push-into-dest). */
    public static String choiceName(Enum<?> choice) {
        return choice.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The environment variable (the constant's name), or the system property for {@link #fromProperty()}. */
    public String key() {
        return key != null ? key : name();
    }

    /** Whether this setting is a system property ({@code -Dkey=value}) rather than an environment variable. */
    public boolean fromProperty() {
        return key != null;
    }

    public Category category() {
        return category;
    }

    public Kind kind() {
        return kind;
    }

    /** The default as a user would write it, or null: none (unset, or computed where it is read, as the help says). */
    public String defaultValue() {
        return defaultValue;
    }

    /** One line for reports, {@code --help} and the settings reference. */
    public String help() {
        return help;
    }

    /** For a choice: the values allowed, the default first when it comes from an enum; else empty. */
    public List<String> allowed() {
        return allowed;
    }

    /** For a choice made from an enum of {@link Config}: that enum; else null. */
    public Class<? extends Enum<?>> choices() {
        return choices;
    }

    /** The values allowed, as an error message says them: "a, b or c". */
    public String allowedText() {
        return allowed.size() < 2 ? String.join("", allowed)
                : String.join(", ", allowed.subList(0, allowed.size() - 1)) + " or " + allowed.getLast();
    }

    /** The setting whose variable or property is {@code key}, or null. */
    public static Setting byKey(String key) {
        for (Setting s : values()) {
            if (s.key().equals(key)) {
                return s;
            }
        }
        return null;
    }
}
