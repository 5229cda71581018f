/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.launcher.HostList.Node;
import io.jshmem.launcher.LaunchOptions.BootstrapAddress;
import io.jshmem.launcher.LaunchOptions.UsageException;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where the bootstrap server listens, and the address each host's PEs are told to connect to.
 *
 * <ul>
 * <li>Every PE on this machine (no host list, or only local hosts): 127.0.0.1, or the
 *     --bootstrap-address.
 * <li>--bootstrap-address ADDR: listen on ADDR and tell every host ADDR. ADDR 0.0.0.0 (or ::)
 *     listens on every interface and tells each host the address this machine would use to reach it.
 * <li>Otherwise: for each remote host, the source address of this machine's route to it (asking the
 *     kernel's routing table; no packet is sent); for a host name that does not resolve here (a
 *     container name used with docker exec, a network namespace), the address of the default route,
 *     else of the first interface that is up. If all remote hosts get the same address the server
 *     listens on it alone; else on every interface, each host being told its own.
 * </ul>
 * Listening beyond loopback is safe because every connection must present the job's 256-bit random
 * secret (compared in constant time, sent to remote PEs through the agent's standard input, never on
 * a command line) within 2 s, and the server closes when the job ends. A specific address is still
 * preferred to the wildcard: it keeps the port off the interfaces no host needs.
 *
 * @param bind       the server's socket address (port 0: any free port)
 * @param advertised per node id: the address (without port) its PEs connect to
 */
record BootstrapEndpoint(InetSocketAddress bind, Map<Integer, String> advertised) {

    BootstrapEndpoint {
        advertised = Map.copyOf(advertised);
    }

    /** JSHMEM_BOOTSTRAP for the PEs of node {@code node}, once the server listens on {@code port}. */
    String hostPort(int node, int port) {
        String host = advertised.get(node);
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /**
     * Chooses for the job's nodes.
     *
     * @throws UsageException if the --bootstrap-address cannot be resolved, or no address of this
     *                        machine can be found for the remote hosts
     */
    static BootstrapEndpoint choose(String bootstrapAddress, List<Node> nodes) throws UsageException {
        InetAddress loopback = InetAddress.getLoopbackAddress();
        boolean anyRemote = nodes.stream().anyMatch(n -> !n.local());
        Map<Integer, String> advertised = new HashMap<>();
        if (bootstrapAddress != null) {
            BootstrapAddress parsed = BootstrapAddress.parse(bootstrapAddress);
            InetAddress address;
            try {
                address = InetAddress.getByName(parsed.host());
            } catch (UnknownHostException e) {
                throw new UsageException("--bootstrap-address: cannot resolve \"" + parsed.host() + "\"");
            }
            for (Node n : nodes) {
                String forNode;
                if (!address.isAnyLocalAddress()) {
                    forNode = address.getHostAddress();
                } else if (n.local()) {
                    forNode = loopback.getHostAddress();
                } else {
                    forNode = sourceAddressFor(n.host()).getHostAddress();
                }
                advertised.put(n.id(), forNode);
            }
            return new BootstrapEndpoint(new InetSocketAddress(address, parsed.port()), advertised);
        }
        if (!anyRemote) {
            nodes.forEach(n -> advertised.put(n.id(), loopback.getHostAddress()));
            return new BootstrapEndpoint(new InetSocketAddress(loopback, 0), advertised);
        }
        Set<InetAddress> used = new HashSet<>();
        Map<Integer, InetAddress> chosen = new HashMap<>();
        for (Node n : nodes) {
            if (!n.local()) {
                InetAddress a = sourceAddressFor(n.host());
                chosen.put(n.id(), a);
                used.add(a);
            }
        }
        InetAddress bind = used.size() == 1 ? used.iterator().next() : anyLocal(used);
        for (Node n : nodes) {
            InetAddress a = chosen.get(n.id());
            advertised.put(n.id(), (a != null ? a : used.size() == 1 ? bind : loopback).getHostAddress());
        }
        return new BootstrapEndpoint(new InetSocketAddress(bind, 0), advertised);
    }

    /** The wildcard address of the family of {@code addresses} (IPv6's covers IPv4 too on Linux). */
    private static InetAddress anyLocal(Set<InetAddress> addresses) {
        try {
            boolean v6 = addresses.stream().anyMatch(a -> a instanceof Inet6Address);
            return InetAddress.getByName(v6 ? "::" : "0.0.0.0");
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // a literal
        }
    }

    /** The address of this machine that {@code host} can reach it at (see the class comment). */
    static InetAddress sourceAddressFor(String host) throws UsageException {
        InetAddress target = null;
        try {
            String h = host.contains("@") ? host.substring(host.lastIndexOf('@') + 1) : host; // ssh's user@host
            target = InetAddress.getByName(h.startsWith("[") ? h.substring(1, h.length() - 1) : h);
        } catch (UnknownHostException e) {
            // not a name this machine resolves (a container name with docker exec, say): fall back
        }
        InetAddress source = target == null ? null : routeSource(target);
        if (source == null || source.isLoopbackAddress()) {
            source = routeSource(defaultRouteProbe(target));
        }
        if (source == null || source.isLoopbackAddress()) {
            source = firstInterfaceAddress();
        }
        if (source == null) {
            throw new UsageException("cannot find an address of this machine that host " + host + " could reach;"
                    + " give --bootstrap-address");
        }
        return source;
    }

    /** Some address off this machine, of {@code like}'s family: only its route is looked up. */
    private static InetAddress defaultRouteProbe(InetAddress like) {
        try {
            return InetAddress.getByName(like instanceof Inet6Address ? "2001:4860:4860::8888" : "8.8.8.8");
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e); // a literal
        }
    }

    /** The kernel's choice of source address towards {@code target}, or null if there is no route. */
    private static InetAddress routeSource(InetAddress target) {
        try (DatagramSocket probe = new DatagramSocket()) {
            probe.connect(new InetSocketAddress(target, 9)); // UDP connect only consults the routing table
            InetAddress source = probe.getLocalAddress();
            return source == null || source.isAnyLocalAddress() ? null : source;
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    private static InetAddress firstInterfaceAddress() {
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                if (ni.isUp() && !ni.isLoopback()) {
                    for (InetAddress a : Collections.list(ni.getInetAddresses())) {
                        if (a instanceof Inet4Address) {
                            return a;
                        }
                    }
                }
            }
        } catch (SocketException e) {
            // none
        }
        return null;
    }
}
