/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.launcher.LaunchOptions.UsageException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The hosts of a job ({@code --host h1:2,h2:2} or {@code --hostfile FILE}) and the placement of the
 * PEs on them. A host is a node: its index in the list (duplicates merged into their first
 * occurrence) is the node id the PEs there get as {@code JSHMEM_NODE}, whatever the machine's
 * hostname is. PEs fill the hosts in list order, each up to its slots.
 */
final class HostList {
    /** Host names, IP literals, container names; nothing a shell or the agent could misread. */
    private static final Pattern HOST_NAME =
            Pattern.compile("\\[[0-9A-Za-z:.%]+\\]|[0-9A-Fa-f]*:[0-9A-Za-z:.%]*|[A-Za-z0-9_][A-Za-z0-9_.:%@-]*");
    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /** One host: where to start PEs, and how many it takes. */
    record Host(String name, int slots) {
    }

    /** One node of the job as placed: its hosts's name, its node id, how many PEs it runs. */
    record Node(int id, String host, int npes, boolean local) {
    }

    /** Where PE {@code pe} runs: its node, and its index among that node's PEs. */
    record Placement(int pe, Node node, int localPe) {
    }

    private HostList() {
    }

    /** Parses {@code h1:2,h2,h3:4}: a host without a count has one slot. */
    static List<Host> parseHostOption(String spec) throws UsageException {
        List<Host> hosts = new ArrayList<>();
        for (String entry : spec.split(",", -1)) {
            String e = entry.strip();
            if (e.isEmpty()) {
                throw new UsageException("--host needs host[:slots],... got \"" + spec + "\"");
            }
            String name = e;
            int slots = 1;
            int colon = e.lastIndexOf(':');
            // An IPv6 literal has colons of its own: a count is only taken after "]" or from a name without other colons.
            if (colon > 0 && (e.indexOf(':') == colon || e.charAt(colon - 1) == ']')) {
                name = e.substring(0, colon);
                slots = slotCount("--host", e.substring(colon + 1), "\"" + e + "\"");
            }
            hosts.add(new Host(checkName("--host", name), slots));
        }
        return merge(hosts);
    }

    /**
     * Reads a host file: one host a line, {@code host [slots=N]}; {@code #} starts a comment; blank
     * lines are ignored. A host without slots= has one slot.
     */
    static List<Host> readHostfile(String file) throws UsageException {
        List<String> lines;
        try {
            lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            throw new UsageException("cannot read host file " + file + ": " + e.getMessage());
        }
        List<Host> hosts = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String[] words = (hash < 0 ? line : line.substring(0, hash)).strip().split("\\s+");
            if (words.length == 1 && words[0].isEmpty()) {
                continue;
            }
            String where = file + " line " + (i + 1);
            int slots = 1;
            for (int w = 1; w < words.length; w++) {
                String word = words[w];
                if (word.startsWith("slots=")) {
                    slots = slotCount("--hostfile", word.substring("slots=".length()), where);
                } else {
                    throw new UsageException("--hostfile: " + where + ": expected \"host [slots=N]\", got \"" + word
                            + "\"");
                }
            }
            hosts.add(new Host(checkName("--hostfile: " + where + ":", words[0]), slots));
        }
        if (hosts.isEmpty()) {
            throw new UsageException("--hostfile: " + file + " names no host");
        }
        return merge(hosts);
    }

    private static int slotCount(String option, String text, String where) throws UsageException {
        try {
            int n = Integer.parseInt(text);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " needs a positive number of slots, got \"" + text + "\" in " + where);
    }

    /** Checks a host name; an IPv6 literal loses its brackets (ssh and the resolver want it bare). */
    private static String checkName(String option, String name) throws UsageException {
        if (!HOST_NAME.matcher(name).matches()) {
            throw new UsageException(option + " got a malformed host name \"" + name + "\"");
        }
        return name.startsWith("[") ? name.substring(1, name.length() - 1) : name;
    }

    /** The same name twice is the same node: its slots add up, at the place of its first occurrence. */
    private static List<Host> merge(List<Host> hosts) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (Host h : hosts) {
            slots.merge(h.name(), h.slots(), Integer::sum);
        }
        return slots.entrySet().stream().map(e -> new Host(e.getKey(), e.getValue())).toList();
    }

    static int totalSlots(List<Host> hosts) {
        return hosts.stream().mapToInt(Host::slots).sum();
    }

    /**
     * Places {@code npes} PEs: host after host, each filled up to its slots. With {@code oversubscribe},
     * PEs beyond the total slots go round again in the same way.
     *
     * @throws UsageException if there are more PEs than slots and oversubscription is not allowed
     */
    static List<Placement> place(List<Host> hosts, int npes, boolean oversubscribe) throws UsageException {
        return place(hosts, npes, oversubscribe, false);
    }

    /**
     * As {@link #place(List, int, boolean)}, or with {@code byNode} (--map-by node) round-robin: PE k
     * on the next host that has a slot left, so consecutive PEs are on different hosts.
     */
    static List<Placement> place(List<Host> hosts, int npes, boolean oversubscribe, boolean byNode) throws UsageException {
        int total = totalSlots(hosts);
        if (npes > total && !oversubscribe) {
            throw new UsageException("-np " + npes + " is more than the " + total + " slots of the hosts"
                    + " (give more slots, or --oversubscribe)");
        }
        int[] perHost = new int[hosts.size()];
        int[] hostOf = new int[npes];
        if (byNode) {
            // Round after round over the hosts; a full host is skipped until every host is full (oversubscribed).
            for (int pe = 0, h = 0; pe < npes; pe++) {
                for (int tries = 0; tries < hosts.size() && pe < total && perHost[h] >= hosts.get(h).slots(); tries++) {
                    h = (h + 1) % hosts.size();
                }
                hostOf[pe] = h;
                perHost[h]++;
                h = (h + 1) % hosts.size();
            }
        } else {
            for (int pe = 0, h = 0, used = 0; pe < npes; pe++) {
                while (used == hosts.get(h).slots()) {
                    h = (h + 1) % hosts.size();
                    used = 0;
                }
                hostOf[pe] = h;
                perHost[h]++;
                used++;
            }
        }
        Node[] nodes = new Node[hosts.size()];
        for (int h = 0; h < hosts.size(); h++) {
            String name = hosts.get(h).name();
            nodes[h] = new Node(h, name, perHost[h], isLocal(name));
        }
        int[] localCount = new int[hosts.size()];
        List<Placement> placements = new ArrayList<>(npes);
        for (int pe = 0; pe < npes; pe++) {
            placements.add(new Placement(pe, nodes[hostOf[pe]], localCount[hostOf[pe]]++));
        }
        return placements;
    }

    /** The placement of a job without a host list: every PE on this machine, node 0. */
    /**
     * The job's nodes, each once, in the order of their first PE. By node id: {@code distinct()}
     * on the records would call their generated hashCode, whose bootstrap spins classes on every
     * launch.
     */
    static List<Node> nodes(List<Placement> placements) {
        List<Node> nodes = new ArrayList<>();
        BitSet seen = new java.util.BitSet();
        for (Placement p : placements) {
            if (!seen.get(p.node().id())) {
                seen.set(p.node().id());
                nodes.add(p.node());
            }
        }
        return nodes;
    }

    static List<Placement> localOnly(int npes) {
        Node node = new Node(0, "localhost", npes, true);
        List<Placement> placements = new ArrayList<>(npes);
        for (int pe = 0; pe < npes; pe++) {
            placements.add(new Placement(pe, node, pe));
        }
        return placements;
    }

    /**
     * Whether {@code host} is this machine, whose PEs are started directly rather than through the
     * launch agent: {@code localhost}, a loopback or local interface address literal, or this
     * machine's host name. Never asks DNS.
     */
    static boolean isLocal(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        if (h.equals("localhost") || h.equals("localhost.localdomain") || h.equals("ip6-localhost")) {
            return true;
        }
        if (IPV4_LITERAL.matcher(h).matches() || h.contains(":")) {
            try {
                InetAddress address = InetAddress.getByName(h.startsWith("[") ? h.substring(1, h.length() - 1) : h);
                return address.isLoopbackAddress() || address.isAnyLocalAddress()
                        || NetworkInterface.getByInetAddress(address) != null;
            } catch (UnknownHostException | SocketException | RuntimeException e) {
                return false;
            }
        }
        String me = localHostName();
        if (me == null) {
            return false;
        }
        int dot = me.indexOf('.');
        return h.equals(me) || (dot > 0 && h.equals(me.substring(0, dot)));
    }

    /** This machine's host name as the kernel has it (no DNS), lower case; null if unknown. */
    private static String localHostName() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname"), StandardCharsets.US_ASCII).strip();
            if (!name.isEmpty()) {
                return name.toLowerCase(Locale.ROOT);
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: ask Java below
        }
        try {
            return InetAddress.getLocalHost().getHostName().toLowerCase(Locale.ROOT);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
