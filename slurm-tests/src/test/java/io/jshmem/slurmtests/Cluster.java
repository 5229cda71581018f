/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.slurmtests;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What this machine offers the tests, found once: Slurm (srun, a reachable slurmctld, its nodes and
 * MPI plugins), the PMI client libraries, Open MPI's mpirun, UCX; and how to start a jshmem PE
 * (the JDK running the tests, the modules' compiled classes). Tests that need something missing
 * skip with the reason, printed.
 */
final class Cluster {
    static final Path ROOT = Path.of(System.getProperty("jshmem.root", "..")).toAbsolutePath().normalize();
    static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    /** The jshmem classes and the conformance cases, as bin/oshrun's source-tree layout. */
    static final String CLASSPATH = String.join(File.pathSeparator,
            classes("shmem-api"), classes("shmem-core"), classes("shmem-ucx"), classes("conformance"));
    static final String CASE_RUNNER = "io.jshmem.conformance.CaseRunner";
    static final String SCENARIOS = "io.jshmem.conformance.JobScenarios";
    /**
     * CaseRunner arguments for a whole-suite job under srun or mpirun: every case but the allocation
     * counts ({@code alloc.*}). Those measure the compiled hot path, which does not depend on how the
     * PEs were launched, and the oshrun conformance jobs run them at 2, 4 and 8 PEs; they are the
     * suite's most CPU-hungry cases (thousands of 64 KiB collectives to warm up), which beside other
     * jobs on a 2-core machine took a whole-suite mpirun job past its time limit.
     */
    static final String[] WITHOUT_ALLOCATION_CASES = {"--exclude", "alloc."};

    private static final String SETUP_HINT = "run slurm-tests/setup-slurm.sh as root (installs slurm-wlm, libpmi2-0,"
            + " libpmix2 and starts munged, slurmctld and two slurmd \"nodes\")";

    private static String slurmProblem;    // null: Slurm usable
    private static int slurmNodes;
    private static String mpiPlugins = "";
    private static boolean probed;

    private Cluster() {
    }

    private static String classes(String module) {
        return ROOT.resolve(module).resolve("target/classes").toString();
    }

    /** The java command line of a PE: JVM options for small JVMs on a busy machine, the classes, the main class. */
    static List<String> java(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>(List.of(JAVA, "-XX:+UseSerialGC",
                "--enable-native-access=ALL-UNNAMED", "-cp", CLASSPATH, mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    static Optional<Path> onPath(String program) {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            Path p = Path.of(dir, program);
            if (Files.isExecutable(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    private static synchronized void probeSlurm() {
        if (probed) {
            return;
        }
        probed = true;
        for (String tool : List.of("srun", "sinfo", "scontrol", "salloc")) {
            if (onPath(tool).isEmpty()) {
                slurmProblem = tool + " is not installed: " + SETUP_HINT;
                return;
            }
        }
        Run ping = Run.of(List.of("scontrol", "ping"), Map.of(), ROOT, 20);
        if (ping.exit() != 0 || !ping.stdout().contains("UP")) {
            slurmProblem = "no slurmctld answers (scontrol ping exited " + ping.exit() + ": "
                    + (ping.stdout() + ping.stderr()).strip().replace('\n', ' ') + "): " + SETUP_HINT;
            return;
        }
        Run nodes = Run.of(List.of("sinfo", "-h", "-N", "-o", "%N %t"), Map.of(), ROOT, 20);
        List<String> usable = nodes.stdout().lines()
                .filter(l -> l.matches("\\S+ (idle|mix|alloc|comp)\\*?")).toList();
        slurmNodes = usable.size();
        if (slurmNodes == 0) {
            slurmProblem = "slurmctld has no usable node (sinfo: " + nodes.stdout().strip() + "): " + SETUP_HINT;
            return;
        }
        Run list = Run.of(List.of("srun", "--mpi=list"), Map.of(), ROOT, 20);
        mpiPlugins = list.stdout() + list.stderr();
    }

    /** Skips the calling test, printing why, unless Slurm runs here with {@code nodes} usable nodes. */
    static void assumeSlurm(int nodes) {
        probeSlurm();
        skipUnless(slurmProblem == null, slurmProblem);
        skipUnless(slurmNodes >= nodes, "needs " + nodes + " Slurm nodes, slurmctld has " + slurmNodes
                + " (the two-node configuration: " + SETUP_HINT + ")");
    }

    /** Skips unless srun offers {@code --mpi=type} and the PE side's client library is installed. */
    static void assumeMpiPlugin(String type) {
        probeSlurm();
        skipUnless(mpiPlugins.contains(type), "srun offers no --mpi=" + type + " (srun --mpi=list: "
                + mpiPlugins.strip().replace('\n', ' ') + ")");
        String lib = type.equals("pmi2") ? "libpmi2.so.0" : "libpmix.so.2";
        String pkg = type.equals("pmi2") ? "libpmi2-0" : "libpmix2";
        skipUnless(libraryInstalled(lib), lib + " is not installed (apt-get install " + pkg + ")");
    }

    /** Skips unless Open MPI's mpirun (4.x, serving PMIx) is installed. */
    static void assumeMpirun() {
        skipUnless(onPath("mpirun").isPresent(), "mpirun is not installed (apt-get install openmpi-bin)");
        Run v = Run.of(List.of("mpirun", "--version"), Map.of(), ROOT, 20);
        skipUnless(v.stdout().contains("Open MPI") || v.stdout().contains("OpenRTE"),
                "mpirun is not Open MPI's: " + v.stdout().lines().findFirst().orElse("?"));
        skipUnless(libraryInstalled("libpmix.so.2"), "libpmix.so.2 is not installed (apt-get install libpmix2)");
    }

    /** Skips unless PEs on different nodes can talk: the UCX transport is built and libucp is installed. */
    static void assumeUcx() {
        skipUnless(Files.exists(ROOT.resolve("shmem-ucx/target/classes/META-INF/services/io.jshmem.core.transport.TransportProvider")),
                "shmem-ucx provides no transport yet (no META-INF/services entry in shmem-ucx/target/classes):"
                        + " PEs on different nodes cannot talk");
        skipUnless(libraryInstalled("libucp.so.0"), "libucp.so.0 is not installed (apt-get install libucx0)");
    }

    static void assumeBuilt() {
        skipUnless(Files.exists(ROOT.resolve("conformance/target/classes/io/jshmem/conformance/CaseRunner.class")),
                "the conformance classes are not built (mvn -DskipTests install)");
    }

    static boolean libraryInstalled(String soname) {
        Run r = Run.of(List.of("/sbin/ldconfig", "-p"), Map.of(), ROOT, 20);
        return r.stdout().contains(soname + " ");
    }

    private static final java.util.Set<String> SAID = java.util.concurrent.ConcurrentHashMap.newKeySet();

    static void skipUnless(boolean condition, String reason) {
        if (!condition && SAID.add(reason)) {
            System.out.println("[slurm-tests] SKIP: " + reason);
        }
        assumeTrue(condition, reason);
    }
}
