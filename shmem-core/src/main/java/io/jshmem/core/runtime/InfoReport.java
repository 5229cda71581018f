/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.ForkSafetyReport;
import io.jshmem.ShmemVersion;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Futex;
import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import io.jshmem.core.coll.Collectives;
import io.jshmem.core.coll.TeamSlots;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.heap.SymmetricHeap;
import io.jshmem.core.team.TeamImpl;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The settings report printed by SHMEM_INFO at init and by bin/shmem-info. */
public final class InfoReport {
    private InfoReport() {
    }

    /** Lines describing the library and the settings, independent of any job. */
    public static List<String> settings(Config c, Settings s) {
        List<String> lines = new ArrayList<>();
        lines.add("jshmem " + ShmemVersion.JSHMEM_VERSION + ", OpenSHMEM " + ShmemVersion.SPEC_MAJOR + "." + ShmemVersion.SPEC_MINOR
                + " (" + ShmemVersion.VENDOR_STRING + ")");
        lines.add("  java:                 " + Runtime.version() + " (" + s.property("java.vm.name") + ")");
        String prefix = s.text(Setting.INSTALL_PREFIX);
        if (prefix != null) {
            lines.add("  installed in:         " + ParsableInfo.prefix(prefix));
        }
        lines.add("  transports:           shm (on-node, direct load/store through " + c.shmDir() + ")");
        lines.add("                        " + Transports.provider()
                .map(p -> p.name() + " (off-node, and every peer with SHMEM_TRANSPORT=ucx)")
                .orElse("no network transport on the class path (shmem-ucx)"));
        Transports.provider().ifPresent(p -> {
            try {
                p.describe().forEach(l -> lines.add("                          " + l));
            } catch (RuntimeException e) {
                lines.add("                          unavailable: " + e.getMessage());
            }
        });
        lines.add("  thread levels:        SINGLE, FUNNELED, SERIALIZED, MULTIPLE (all provided)");
        // Every setting of the table, in its order (by category), but those oshrun sets for its PEs, and
        // the properties unless set; indented as before the table, for the scripts that grep "  NAME:".
        for (Setting setting : Setting.values()) {
            if (setting.category() == Setting.Category.JOB || setting == Setting.INSTALL_PREFIX
                    || setting.fromProperty() && s.source(setting) == Settings.Source.DEFAULT) {
                continue;
            }
            String name = setting.fromProperty() ? "-D" + setting.key() : setting.key();
            lines.add(String.format(Locale.ROOT, "  %-28s %s%s", name + ":", describe(setting, c, s),
                    s.source(setting) == Settings.Source.DEFAULT ? " (default)" : ""));
        }
        // No class name in the line: the report is plain lines, and a logger or class name on stderr
        // is how LoggingTest tells a JUL default format from jshmem's.
        lines.add("  algorithm tables:     the first matching row is used (algorithm (settings; team shape)): "
                + io.jshmem.core.coll.Selector.describe().replace("\n", " | "));
        return lines;
    }

    /** A setting's value in effect, with what it means where that is not obvious from the value. */
    private static String describe(Setting setting, Config c, Settings s) {
        Config.Network n = c.network();
        return switch (setting) {
            case SHMEM_SYMMETRIC_SIZE -> Config.formatSize(c.symmetricSize()) + " per PE + "
                    + Config.formatSize(SymmetricHeap.INTERNAL_SIZE) + " internal";
            case JSHMEM_SHM_DIR -> c.shmDir() + shmSpace(c.shmDir());
            case JSHMEM_SHM_PREALLOCATE -> c.shmPreallocate() ? "on (heap pages allocated at init)" : "off (sparse segments)";
            case SHMEM_DEBUG -> c.debug() ? "on (collective arguments are cross-checked)" : "off";
            case JSHMEM_WAIT_SPIN_US -> c.waitSpinNanos() < 0
                    ? "auto: 20 us, adaptive below (where PEs share a core, only while the awake PEs fit on the cores: see cores)"
                    : c.waitSpinNanos() / 1000 + " us, adaptive below";
            case JSHMEM_WAIT_YIELD_US -> c.waitYieldNanos() / 1000 + " us, then sleep on a "
                    + (Futex.available() ? "futex" : "timer (no futex here)");
            case JSHMEM_BARRIER_ALGORITHM -> label(c.barrierAlgorithm()) + " (auto: linear on arrival words up to "
                    + TeamImpl.LINEAR_SYNC_MAX + " PEs of one node; hierarchical for teams across nodes with several PEs"
                    + " on a node: node leaders gather, disseminate among themselves, release; central for 3-" + TeamImpl.CENTRAL_SYNC_MAX
                    + " PEs across nodes, one per node: gathered at team PE 0, released from there; else dissemination)";
            case JSHMEM_COLL_ALGORITHM -> label(c.collAlgorithm()) + " (auto, push, tree: through per-team buffers up to "
                    + TeamSlots.BUF_BYTES + " B, read in place between PEs of one node, put into the receivers' across"
                    + " nodes (fcollects through the node leaders when nodes hold several PEs, each node's consecutive;"
                    + " small reductions and fcollects there: gathered at team PE 0, then down as a broadcast; exchanged between 2 PEs;"
                    + " reductions over more than " + io.jshmem.core.coll.Selector.FLAT_REDUCE_MAX + " PEs by recursive doubling,"
                    + " among the node leaders when some node has several PEs (larger ones too up to "
                    + io.jshmem.core.coll.Selector.FLAT_REDUCE_MAX + " PEs)),"
                    + " broadcasts across nodes down a binomial tree above " + Collectives.TREE_BROADCAST_ABOVE
                    + " PEs, or above the buffers from 3 PEs (auto), never (push) or always (tree); larger reductions on one node (over 2 PEs) reduce-scatter"
                    + " into every PE's dest, larger broadcasts there are read from the root's source in place, larger alltoalls there"
                    + " put into each receiver's dest once it has entered where PEs share cores; larger collectives across nodes push into the receivers' dest once they have"
                    + " entered (reductions: slices into a " + TeamSlots.LANDING_BYTES / 1024 + " KiB landing area per round,"
                    + " results into every dest; over " + io.jshmem.core.coll.Selector.FLAT_REDUCE_MAX + " PEs Rabenseifner's reduce-scatter"
                    + " and allgather, log2 N rounds each; 2 PEs exchange inputs up to " + Collectives.EXCHANGE_BYTES / 1024 + " KiB), no sync; else pull)";
            case SHMEM_ATOMICS -> label(c.atomics()) + " (auto: CPU atomics on this node's PEs unless the network"
                    + " transport's atomics are not atomic with them, as with InfiniBand/RoCE device atomics; transport:"
                    + " every atomic through the network transport)";
            case JSHMEM_UCX_TIMEOUT -> n.ucxTimeoutNanos() / 1_000_000_000L + " s (longest wait for a UCX completion)";
            case JSHMEM_UCX_PROGRESS_SPIN_US -> (n.ucxProgressSpinNanos() < 0 ? "auto (50 us with a core per PE, else 0)"
                    : n.ucxProgressSpinNanos() / 1000 + " us") + " (UCX progress thread polling before it sleeps)";
            case JSHMEM_UCX_ERR_MODE -> n.ucxPeerErrors() ? "peer (operations to a failed peer fail)" : "none";
            case JSHMEM_UCX_LISTEN -> switch (n.ucxListen()) {
                case "job" -> "job (UCX's TCP listeners only on the interface that reaches the launcher)";
                case "all" -> "all (UCX's TCP listeners on every interface UCX uses)";
                default -> n.ucxListen() + " (UCX's TCP listeners on these interfaces)";
            } + (s.env("UCX_NET_DEVICES") != null ? "; UCX_NET_DEVICES=" + s.env("UCX_NET_DEVICES") + " wins" : "");
            case JSHMEM_UCX_WIREUP -> switch (n.ucxWireUp()) {
                case EAGER -> "eager (an endpoint to every off-node PE at init, each checked with a get)";
                case LAZY -> "lazy (an endpoint to a PE at the first operation to it; its address fetched then)";
                case AUTO -> "auto (lazy with UCX 1.14 or later, eager with older UCX; the ucx: lines of shmem-info say which)";
            };
            case JSHMEM_UCX_PUT_SIGNAL -> switch (n.ucxPutSignal()) {
                case AM -> "am (a small put-with-signal, or blocking put up to 4 KiB, is one active message where the UCX endpoint is one TCP lane)";
                case RMA -> "rma (puts are UCX puts; a put-with-signal is a put, a fence and an atomic on the signal)";
            };
            case JSHMEM_PMI2_LIBRARY -> n.pmi2Library() == null ? "libpmi2 searched" : n.pmi2Library();
            case JSHMEM_PMIX_LIBRARY -> n.pmixLibrary() == null ? "libpmix searched" : n.pmixLibrary();
            case JSHMEM_PMI_REINIT_TIMEOUT -> n.pmiReinitTimeoutNanos() / 1_000_000_000L
                    + " s (under srun/mpirun, longest wait of a re-initialization for the other PEs)";
            case JSHMEM_AOT -> s.text(setting) + " (read by oshrun: the PEs and oshrun start from ahead-of-time caches when"
                    + " jshmem runs from jars)";
            case JSHMEM_CACHE_DIR -> s.text(setting, "$XDG_CACHE_HOME/jshmem or ~/.cache/jshmem");
            case JSHMEM_JFR -> (Config.flag(s.text(setting)) ? s.text(setting) : "off")
                    + " (set by oshrun --jfr: a flight recording per PE)";
            default -> setting.kind() == Setting.Kind.FLAG && "off".equals(setting.defaultValue())
                    ? s.on(setting) ? "on" : "off" : Config.value(s, setting);
        };
    }

    private static String label(Enum<?> choice) {
        return choice.name().toLowerCase(Locale.ROOT);
    }

    private static String shmSpace(String dir) {
        try {
            long bytes = java.nio.file.Files.getFileStore(java.nio.file.Path.of(dir)).getUsableSpace();
            return String.format(java.util.Locale.ROOT, " (%.1f MiB available)", bytes / 1048576.0);
        } catch (java.io.IOException | RuntimeException e) {
            return " (not usable: " + e.getMessage() + ")";
        }
    }

    /** The fork-safety report, indented like the settings (bin/shmem-info, SHMEM_INFO). */
    public static List<String> forkSafety(ForkSafetyReport report) {
        List<String> lines = new ArrayList<>();
        for (String line : report.lines()) {
            lines.add("  " + line);
        }
        return lines;
    }

    /** {@link #settings} plus the job's shape, for SHMEM_INFO at init. */
    static List<String> forJob(Config c, PeState st, String bootstrap, String transport) {
        Settings s = Settings.system();
        List<String> lines = settings(c, s);
        lines.add("  job:                  " + st.npes + " PEs, " + st.nodePes + " on this node (" + st.localPes
                + " through shared memory); bootstrap: " + bootstrap);
        int cpus = Runtime.getRuntime().availableProcessors();
        lines.add("  cores:                " + (st.coreShared ? "shared with other PEs of this node" : "one per PE of this node")
                + " (" + st.nodePes + " PEs, " + cpus + (cpus == 1 ? " CPU" : " CPUs") + " for this PE; binding below)");
        lines.add("  transport in use:     " + transport);
        String bind = s.text(Setting.JSHMEM_BIND);
        lines.add("  binding:              " + switch (bind == null ? "" : bind) {
            case "core" -> "a core per PE (oshrun --bind-to core)";
            case "shared" -> "to cores shared by several PEs (oshrun --bind-to core, more PEs than cores)";
            default -> "none";
        });
        String aot = java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("-XX:AOTCache=")).map(a -> a.substring("-XX:AOTCache=".length())).findFirst()
                .orElse("none (JSHMEM_AOT; jshmem classes in directories cannot be cached)");
        lines.add("  start-up cache:       " + aot);
        return lines;
    }
}
