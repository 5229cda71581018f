/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.ForkSafetyReport.Effect;
import io.jshmem.ForkSafetyReport.Finding;
import io.jshmem.ForkSafetyReport;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Builds the {@link ForkSafetyReport}: gathers the inputs ({@link #probe}) and judges them
 * ({@link #evaluate}, a pure function of its {@link Inputs}, so every branch is testable).
 *
 * <p>The rule: fork can corrupt communication only through memory registered (pinned) with an RDMA
 * adapter. That needs a network transport, an RDMA device and libibverbs, and is neutralized by a
 * kernel that copies pinned pages at fork (5.13+), by libibverbs' fork support
 * ({@code ibv_is_fork_initialized()} = ENABLED or UNNEEDED, {@code RDMAV_FORK_SAFE},
 * {@code IBV_FORK_SAFE}), or by UCX calling {@code ibv_fork_init()} ({@code UCX_IB_FORK_INIT} not
 * {@code no}). Each of those is a {@link Effect#SAFE} finding; the report is safe when there is one.
 *
 * <p>Diagnostics: the system property {@value #SIMULATE_PROPERTY} replaces inputs with simulated
 * ones, marked "(simulated)" in the report, e.g.
 * {@code -Djshmem.forksafety.simulate=kernel=5.4.0,infiniband=/tmp/fake-ib,ibverbs=disabled,transport=ucx}
 * (keys: {@code kernel}, {@code infiniband} (a directory standing for /sys/class/infiniband),
 * {@code ibverbs} (absent, not-queried, disabled, enabled, unneeded), {@code transport} (shm, ucx)).
 * It exists to exercise the refusing and warning paths of {@link ForkPolicy} in real jobs on
 * machines where fork is safe.
 */
public final class ForkSafety {
    public static final String SIMULATE_PROPERTY = "jshmem.forksafety.simulate"; // Setting.FORKSAFETY_SIMULATE
    public static final String LAUNCH_MECHANISM_PROPERTY = "jdk.lang.Process.launchMechanism";
    public static final Path INFINIBAND = Path.of("/sys/class/infiniband");

    private ForkSafety() {
    }

    /**
     * The network transport the report judges.
     *
     * @param network the transport's name, or null when every peer is reached through shared memory
     * @param detail  how that was determined
     */
    public record Transport(String network, String detail) {
        public static Transport shmOnly(String detail) {
            return new Transport(null, detail);
        }

        boolean isUcx() {
            return network != null && network.toLowerCase(Locale.ROOT).startsWith("ucx");
        }
    }

    /**
     * Everything {@link #evaluate} judges.
     *
     * @param kernelRelease   {@code uname -r}, or null if unknown
     * @param rdmaDir         the directory listing RDMA devices (/sys/class/infiniband)
     * @param rdmaDevices     its entries
     * @param ibverbs         libibverbs' fork state
     * @param env             the environment (RDMAV_FORK_SAFE, IBV_FORK_SAFE, UCX_IB_FORK_INIT, JSHMEM_FORK_POLICY)
     * @param transport       the transport judged
     * @param launchMechanism the JVM's process launch mechanism, upper case
     * @param simulated       names of the inputs that are simulated
     */
    public record Inputs(String kernelRelease, Path rdmaDir, List<String> rdmaDevices, Ibverbs.Result ibverbs,
                         Map<String, String> env, Transport transport, String launchMechanism, Set<String> simulated) {
        public Inputs {
            rdmaDevices = List.copyOf(rdmaDevices);
            env = Map.copyOf(env);
            simulated = Set.copyOf(simulated);
        }
    }

    /**
     * Where the probed inputs come from.
     *
     * @param kernelRelease     the kernel release
     * @param rdmaDir           the directory listing RDMA devices
     * @param ibverbs           asks libibverbs
     * @param launchMechanism   the launch mechanism (upper case)
     * @param transportOverride "shm" or "ucx" to replace the transport judged, or null
     * @param simulated         names of simulated inputs
     */
    public record Sources(String kernelRelease, Path rdmaDir, Supplier<Ibverbs.Result> ibverbs, String launchMechanism,
                          String transportOverride, Set<String> simulated) {

        /** This machine, with any simulation the {@value #SIMULATE_PROPERTY} property asks for. */
        public static Sources system() {
            Sources real = new Sources(ForkSafety.kernelRelease(), INFINIBAND, Ibverbs::probe, ForkSafety.launchMechanism(), null, Set.of());
            String spec = Settings.system().raw(Setting.FORKSAFETY_SIMULATE);
            return spec == null || spec.isBlank() ? real : real.simulate(spec);
        }

        /** These sources with the inputs named in {@code spec} ({@code key=value,...}) replaced. */
        public Sources simulate(String spec) {
            String kernel = kernelRelease;
            Path dir = rdmaDir;
            Supplier<Ibverbs.Result> ib = ibverbs;
            String transport = transportOverride;
            Set<String> sim = new HashSet<>(simulated);
            for (String part : spec.split(",")) {
                int eq = part.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException(SIMULATE_PROPERTY + ": expected key=value, got \"" + part + "\"");
                }
                String key = part.substring(0, eq).trim();
                String value = part.substring(eq + 1).trim();
                switch (key) {
                    case "kernel" -> kernel = value;
                    case "infiniband" -> dir = Path.of(value);
                    case "ibverbs" -> {
                        Ibverbs.State st = switch (value.toLowerCase(Locale.ROOT)) {
                            case "absent" -> Ibverbs.State.ABSENT;
                            case "not-queried" -> Ibverbs.State.NOT_QUERIED;
                            case "disabled" -> Ibverbs.State.FORK_DISABLED;
                            case "enabled" -> Ibverbs.State.FORK_ENABLED;
                            case "unneeded" -> Ibverbs.State.FORK_UNNEEDED;
                            default -> throw new IllegalArgumentException(SIMULATE_PROPERTY + ": ibverbs=" + value
                                    + " (use absent, not-queried, disabled, enabled or unneeded)");
                        };
                        ib = () -> new Ibverbs.Result(st, "simulated");
                    }
                    case "transport" -> {
                        if (!value.equals("shm") && !value.equals("ucx")) {
                            throw new IllegalArgumentException(SIMULATE_PROPERTY + ": transport=" + value + " (use shm or ucx)");
                        }
                        transport = value;
                    }
                    default -> throw new IllegalArgumentException(SIMULATE_PROPERTY + ": unknown key " + key
                            + " (use kernel, infiniband, ibverbs, transport)");
                }
                sim.add(key);
            }
            return new Sources(kernel, dir, ib, launchMechanism, transport, sim);
        }
    }

    /** The JVM's process launch mechanism, upper case: POSIX_SPAWN (the default on Linux), FORK or VFORK. */
    public static String launchMechanism() {
        String m = Settings.system().property(LAUNCH_MECHANISM_PROPERTY);
        return m == null || m.isBlank() ? "POSIX_SPAWN" : m.trim().toUpperCase(Locale.ROOT);
    }

    /** Whether {@code mechanism} makes ProcessBuilder fork (FORK, VFORK). */
    public static boolean forks(String mechanism) {
        return mechanism.equals("FORK") || mechanism.equals("VFORK");
    }

    static String kernelRelease() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
        } catch (IOException | RuntimeException e) {
            return System.getProperty("os.version");
        }
    }

    // ---------------------------------------------------------------- entry points

    /** The report before init: for the transport init would use, judged from the environment. */
    public static ForkSafetyReport beforeInit(Map<String, String> env) {
        return evaluate(probe(Sources.system(), env, forecast(env), true));
    }

    /** The report of an initialized PE: {@code networkTransport} is the transport's name, null for shared memory only. */
    public static ForkSafetyReport inUse(String networkTransport, Map<String, String> env) {
        Transport t = networkTransport == null ? Transport.shmOnly("in use: every peer is on this node")
                : new Transport(networkTransport, "in use");
        return evaluate(probe(Sources.system(), env, t, true));
    }

    /** The transport init would use, from SHMEM_TRANSPORT and the job's shape (all PEs on this node or not). */
    public static Transport forecast(Map<String, String> env) {
        Config.Transport setting;
        try {
            setting = Config.fromEnvironment(env).transport();
        } catch (RuntimeException e) {
            return new Transport("unknown", "SHMEM_TRANSPORT is not valid: " + e.getMessage());
        }
        return switch (setting) {
            case SHM -> Transport.shmOnly("SHMEM_TRANSPORT=shm");
            case UCX -> new Transport("ucx", "SHMEM_TRANSPORT=ucx");
            case AUTO -> {
                String npes = env.get(LaunchEnv.NPES);
                String local = env.get(LaunchEnv.LOCAL_NPES);
                if (npes == null || npes.equals(local)) {
                    yield Transport.shmOnly(npes == null ? "not launched by oshrun: a job of one PE"
                            : "SHMEM_TRANSPORT=auto and all " + npes + " PEs on this node");
                }
                yield new Transport("ucx", "SHMEM_TRANSPORT=auto, " + local + " of " + npes + " PEs on this node: UCX for the others");
            }
        };
    }

    /**
     * Gathers the inputs. With {@code full} false, libibverbs is not asked when the verdict cannot
     * depend on it (shared memory only, or no RDMA device): what init's policy check uses.
     */
    public static Inputs probe(Sources src, Map<String, String> env, Transport transport, boolean full) {
        Set<String> simulated = new HashSet<>(src.simulated());
        Transport t = transport;
        if (src.transportOverride() != null) {
            t = src.transportOverride().equals("shm") ? Transport.shmOnly("simulated") : new Transport("ucx", "simulated");
        }
        List<String> devices = listDevices(src.rdmaDir());
        Ibverbs.Result ib;
        if (!full && (t.network() == null || devices.isEmpty())) {
            ib = new Ibverbs.Result(Ibverbs.State.NOT_QUERIED, "not queried: the verdict does not depend on it");
        } else {
            ib = src.ibverbs().get();
        }
        return new Inputs(src.kernelRelease(), src.rdmaDir(), devices, ib, env, t, src.launchMechanism(), simulated);
    }

    static List<String> listDevices(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    // ---------------------------------------------------------------- the judgement

    /** Judges the inputs; see the class comment for the rule. */
    public static ForkSafetyReport evaluate(Inputs in) {
        List<Finding> f = new ArrayList<>();
        boolean network = in.transport().network() != null;
        boolean devices = !in.rdmaDevices().isEmpty();

        f.add(network
                ? finding(in, "transport", in.transport().network(), Effect.RISK, in.transport().detail()
                        + ": a network transport may register (pin) memory with an RDMA adapter", "transport")
                : finding(in, "transport", "shm only", Effect.SAFE, in.transport().detail()
                        + ": jshmem registers no memory with a network adapter, and the symmetric heap is a MAP_SHARED"
                        + " mapping, which fork never makes copy-on-write", "transport"));

        String dir = in.rdmaDir() == null ? "(none)" : in.rdmaDir().toString();
        f.add(devices
                ? finding(in, "rdma devices", String.join(" ", in.rdmaDevices()), Effect.RISK,
                        "memory registered with these adapters can be left to the child by copy-on-write after fork", "infiniband")
                : finding(in, "rdma devices", "none", Effect.SAFE,
                        "no RDMA device (" + dir + " is empty or absent): no memory can be registered with an RDMA adapter",
                        "infiniband"));

        Optional<KernelVersion> kernel = KernelVersion.parse(in.kernelRelease());
        String release = in.kernelRelease() == null ? "unknown" : in.kernelRelease();
        if (kernel.isEmpty()) {
            f.add(finding(in, "kernel", release, Effect.NEUTRAL, "release not understood: copy-on-fork for pinned pages unknown", "kernel"));
        } else if (kernel.get().copiesPinnedPagesAtFork()) {
            f.add(finding(in, "kernel", release, Effect.SAFE, "Linux " + kernel.get() + " (5.13 or later) copies pinned (DMA)"
                    + " pages into the child at fork, so the parent keeps the pages an adapter uses", "kernel"));
        } else {
            f.add(finding(in, "kernel", release, Effect.RISK, "Linux " + kernel.get() + " (before 5.13) makes pinned pages"
                    + " copy-on-write at fork: a parent writing one first loses the page an adapter uses", "kernel"));
        }

        f.add(ibverbsFinding(in, devices));

        for (String var : List.of("RDMAV_FORK_SAFE", "IBV_FORK_SAFE")) {
            String v = in.env().get(var);
            f.add(v != null
                    ? new Finding(var, "set (" + v + ")", Effect.SAFE, "libibverbs enables fork support at its first use:"
                            + " registered regions are marked MADV_DONTFORK, a child does not get them (it may only exec)")
                    : new Finding(var, "not set", Effect.NEUTRAL, "libibverbs does not enable fork support on its own"));
        }

        f.add(ucxFinding(in));

        String mech = in.launchMechanism();
        f.add(new Finding("launch mechanism", mech, Effect.NEUTRAL, forks(mech)
                ? "ProcessBuilder forks this JVM (" + LAUNCH_MECHANISM_PROPERTY + "=" + mech + "): safe only if this report is;"
                        + " JSHMEM_FORK_POLICY decides what init does otherwise; io.jshmem.spawn.Spawn still uses posix_spawn"
                : "ProcessBuilder starts processes with posix_spawn (through jspawnhelper): no memory is copied"));

        String policy = in.env().get(ForkPolicy.VARIABLE);
        String policyValue;
        try {
            policyValue = ForkPolicy.parse(policy).label() + (policy == null || policy.isBlank() ? " (default)" : "");
        } catch (RuntimeException e) {
            policyValue = "invalid: " + policy;
        }
        f.add(new Finding(ForkPolicy.VARIABLE, policyValue, Effect.NEUTRAL,
                "what init does when the launch mechanism forks and fork is not safe: warn, refuse or allow"));

        boolean safe = f.stream().anyMatch(x -> x.effect() == Effect.SAFE);
        Effect deciding = safe ? Effect.SAFE : Effect.RISK;
        List<String> why = f.stream().filter(x -> x.effect() == deciding).map(x -> x.name() + " " + x.value()).toList();
        String summary = safe ? "safe (" + String.join("; ", why) + ")"
                : "NOT safe (" + String.join("; ", why) + "): fork() can corrupt memory registered with an RDMA adapter;"
                        + " create subprocesses with posix_spawn (io.jshmem.spawn.Spawn)";
        return new ForkSafetyReport(safe, summary, mech, f);
    }

    private static Finding ibverbsFinding(Inputs in, boolean devices) {
        Ibverbs.Result ib = in.ibverbs();
        String netlink = devices ? "" : " (rdma-core asks the kernel over RDMA netlink, which needs an RDMA device)";
        return switch (ib.state()) {
            case ABSENT -> finding(in, "libibverbs", "not installed", Effect.SAFE,
                    "without libibverbs nothing registers memory with an RDMA adapter through verbs", "ibverbs");
            case NOT_QUERIED -> finding(in, "libibverbs", "not queried", Effect.NEUTRAL, ib.detail(), "ibverbs");
            case QUERY_FAILED -> finding(in, "libibverbs", "unknown", Effect.NEUTRAL, ib.detail(), "ibverbs");
            case FORK_DISABLED -> finding(in, "libibverbs", "IBV_FORK_DISABLED", devices ? Effect.RISK : Effect.NEUTRAL,
                    "ibv_is_fork_initialized(): fork support not enabled and kernel copy-on-fork not confirmed" + netlink, "ibverbs");
            case FORK_ENABLED -> finding(in, "libibverbs", "IBV_FORK_ENABLED", Effect.SAFE,
                    "ibv_is_fork_initialized(): registered regions are marked MADV_DONTFORK; a child does not get them (it may only exec)",
                    "ibverbs");
            case FORK_UNNEEDED -> finding(in, "libibverbs", "IBV_FORK_UNNEEDED", Effect.SAFE,
                    "ibv_is_fork_initialized(): the kernel copies pinned pages at fork (confirmed by rdma-core)", "ibverbs");
        };
    }

    private static Finding ucxFinding(Inputs in) {
        String raw = in.env().get("UCX_IB_FORK_INIT");
        String v = raw == null ? "try" : raw.trim().toLowerCase(Locale.ROOT);
        String value = raw == null ? "not set (UCX default: try)" : raw;
        if (!in.transport().isUcx()) {
            return new Finding("UCX_IB_FORK_INIT", value, Effect.NEUTRAL, "UCX is not the transport judged");
        }
        return switch (v) {
            case "n", "no", "off", "0", "false" -> new Finding("UCX_IB_FORK_INIT", value, Effect.RISK,
                    "UCX will not call ibv_fork_init(): its registrations stay in the child's reach");
            default -> new Finding("UCX_IB_FORK_INIT", value, Effect.SAFE,
                    "UCX calls ibv_fork_init() before registering memory (registered regions become MADV_DONTFORK)"
                            + " and warns if it cannot");
        };
    }

    private static Finding finding(Inputs in, String name, String value, Effect effect, String explanation, String simKey) {
        return new Finding(name, in.simulated().contains(simKey) ? value + " (simulated)" : value, effect, explanation);
    }
}
