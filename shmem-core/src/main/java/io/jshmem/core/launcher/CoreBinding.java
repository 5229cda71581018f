package io.jshmem.core.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
