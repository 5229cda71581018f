/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/**
 * oshrun's --bind-to: which CPU each PE started on this machine is bound to (with {@code taskset},
 * so the whole JVM, its compiler and GC threads included, stays there). Like mpirun, the default
 * binds only when this machine's PEs fit its CPUs: a PE that keeps its core keeps its caches and
 * never waits behind a peer, while binding more PEs than cores would only forbid the OS to balance.
 */
final class CoreBinding {
    private static final String[] TASKSET = {"/usr/bin/taskset", "/bin/taskset"};

    private CoreBinding() {
    }

    /**
     * @param bindTo {@code auto}, {@code core} or {@code none}
     * @param remote which PEs run on other hosts (never bound from here)
     * @return the CPU of each PE, -1 for unbound; all -1 when nothing is bound
     */
    static int[] plan(String bindTo, boolean[] remote) {
        return plan(bindTo, remote, allowedCpus(), taskset() != null);
    }

    /** As {@link #plan(String, boolean[])}, with the CPUs in the order --map-by gives them. */
    static int[] plan(String bindTo, String mapBy, boolean[] remote) {
        List<Integer> cpus = allowedCpus();
        return plan(bindTo, remote, mapBy.equals("socket") ? bySocket(cpus, CoreBinding::socketOf) : cpus, taskset() != null);
    }

    /**
     * --map-by socket: the CPUs taken from each socket in turn (socket 0's first, socket 1's first,
     * ..., then the second of each), so that consecutive PEs are on different sockets.
     */
    static List<Integer> bySocket(List<Integer> cpus, IntUnaryOperator socketOf) {
        TreeMap<Integer, List<Integer>> sockets = new TreeMap<>();
        for (int cpu : cpus) {
            sockets.computeIfAbsent(socketOf.applyAsInt(cpu), k -> new ArrayList<>()).add(cpu);
        }
        List<Integer> ordered = new ArrayList<>(cpus.size());
        for (int i = 0; ordered.size() < cpus.size(); i++) {
            for (List<Integer> socket : sockets.values()) {
                if (i < socket.size()) {
                    ordered.add(socket.get(i));
                }
            }
        }
        return ordered;
    }

    /** The socket (physical package) of {@code cpu}, 0 when the kernel does not say. */
    static int socketOf(int cpu) {
        return topology(cpu, "physical_package_id");
    }

    private static int topology(int cpu, String what) {
        try {
            return Integer.parseInt(Files.readString(Path.of("/sys/devices/system/cpu/cpu" + cpu + "/topology/" + what)).strip());
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * --report-bindings: one line a PE, which host it runs on and the CPU it is bound to, or why it
     * is not bound (the binding of a PE on another host is made there: none).
     */
    static List<String> report(int[] cpuOf, List<HostList.Placement> placements, String bindTo) {
        List<String> lines = new ArrayList<>(cpuOf.length);
        for (int pe = 0; pe < cpuOf.length; pe++) {
            HostList.Node node = placements.get(pe).node();
            String where = "oshrun: PE " + pe + " on " + (node.local() ? "this machine" : "host " + node.host())
                    + " (node " + node.id() + "): ";
            if (cpuOf[pe] >= 0) {
                lines.add(where + "bound to CPU " + cpuOf[pe] + " (core " + topology(cpuOf[pe], "core_id") + ", socket "
                        + socketOf(cpuOf[pe]) + ")" + (shared(cpuOf, pe) ? ", shared with other PEs" : ""));
            } else {
                lines.add(where + "not bound (" + (!node.local() ? "on another host"
                        : bindTo.equals("none") ? "--bind-to none" : "more PEs than CPUs here; --bind-to core binds them anyway")
                        + ")");
            }
        }
        return lines;
    }

    /**
     * What to say about {@code localPes} PEs on this machine's {@code cpus} CPUs: nothing (null) when
     * they fit, one line when they share the CPUs.
     *
     * @throws LaunchOptions.UsageException over {@value LaunchOptions#MAX_PES_PER_CPU} a CPU without
     *         {@code oversubscribe}: a local -np 1000 on 2 CPUs is more likely a typo than a plan
     */
    static String sharing(int localPes, int cpus, boolean oversubscribe) throws LaunchOptions.UsageException {
        if (cpus <= 0 || localPes <= cpus) {
            return null;
        }
        if (localPes > LaunchOptions.MAX_PES_PER_CPU * cpus && !oversubscribe) {
            throw new LaunchOptions.UsageException(localPes + " PEs on this machine's " + cpus + " CPUs is over "
                    + LaunchOptions.MAX_PES_PER_CPU + " a CPU: add --oversubscribe to start them anyway");
        }
        return "oshrun: " + localPes + " PEs share this machine's " + cpus + " CPUs (a waiting PE yields its CPU"
                + " instead of spinning; -q leaves this line out)";
    }

    static int[] plan(String bindTo, boolean[] remote, List<Integer> cpus, boolean haveTaskset) {
        int[] cpuOf = new int[remote.length];
        Arrays.fill(cpuOf, -1);
        int local = 0;
        for (boolean r : remote) {
            local += r ? 0 : 1;
        }
        boolean bind = switch (bindTo) {
            case "core" -> true;
            case "none" -> false;
            default -> local <= cpus.size();
        };
        if (!bind || cpus.isEmpty()) {
            return cpuOf;
        }
        if (!haveTaskset) {
            if (bindTo.equals("core")) {
                System.err.println("oshrun: --bind-to core needs taskset (util-linux); running the PEs unbound");
            }
            return cpuOf;
        }
        int next = 0;
        for (int pe = 0; pe < remote.length; pe++) {
            if (!remote[pe]) {
                cpuOf[pe] = cpus.get(next++ % cpus.size());
            }
        }
        return cpuOf;
    }

    /** {@code taskset -c CPU} followed by {@code command}. */
    static List<String> bound(int cpu, List<String> command) {
        List<String> c = new ArrayList<>(command.size() + 3);
        c.add(taskset());
        c.add("-c");
        c.add(Integer.toString(cpu));
        c.addAll(command);
        return c;
    }

    static String taskset() {
        for (String t : TASKSET) {
            if (Files.isExecutable(Path.of(t))) {
                return t;
            }
        }
        return null;
    }

    /** Whether PE {@code pe} is bound to a CPU that another PE of the plan is bound to as well. */
    static boolean shared(int[] cpuOf, int pe) {
        for (int other = 0; other < cpuOf.length; other++) {
            if (other != pe && cpuOf[other] == cpuOf[pe]) {
                return true;
            }
        }
        return false;
    }

    /** The CPUs this process may run on (Cpus_allowed_list), so binding respects an enclosing cpuset. */
    static List<Integer> allowedCpus() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return parseList(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or an unexpected format: fall through
        }
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
            all.add(i);
        }
        return all;
    }

    /** Parses a kernel CPU list such as {@code 0-3,8,10-11}. */
    static List<Integer> parseList(String list) {
        List<Integer> cpus = new ArrayList<>();
        for (String part : list.split(",")) {
            if (part.isBlank()) {
                continue;
            }
            int dash = part.indexOf('-');
            int lo = Integer.parseInt(part.substring(0, dash < 0 ? part.length() : dash).strip());
            int hi = dash < 0 ? lo : Integer.parseInt(part.substring(dash + 1).strip());
            for (int c = lo; c <= hi; c++) {
                cpus.add(c);
            }
        }
        return cpus;
    }
}
