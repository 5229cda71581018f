/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.LaunchEnv;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reading the {@link LaunchEnv} variables oshrun gives a PE, for {@link TcpBootstrap#fromEnvironment}:
 * each one checked, a missing or garbled one reported by name.
 */
final class LaunchVars {
    static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z0-9_-]+");

    private LaunchVars() {
    }

    /** Every PE's node index from {@link LaunchEnv#PROCESS_MAPPING}, checked against {@link LaunchEnv#LOCAL_NPES}. */
    static int[] nodeIndexes(Map<String, String> env, int size, int rank, int localSize) {
        String mapping = env.get(LaunchEnv.PROCESS_MAPPING);
        if (mapping == null) {
            throw missing(LaunchEnv.PROCESS_MAPPING);
        }
        int[] nodeOf;
        try {
            nodeOf = ProcessMapping.nodeOfRanks(mapping, size);
        } catch (IllegalArgumentException e) {
            throw garbled(LaunchEnv.PROCESS_MAPPING, mapping, "is malformed");
        }
        int onMyNode = 0;
        for (int node : nodeOf) {
            onMyNode += node == nodeOf[rank] ? 1 : 0;
        }
        if (onMyNode != localSize) {
            throw garbled(LaunchEnv.PROCESS_MAPPING, mapping, "puts " + onMyNode + " PEs on PE " + rank + "'s node, "
                    + LaunchEnv.LOCAL_NPES + " says " + localSize);
        }
        return nodeOf;
    }

    static long launcherPid(Map<String, String> env) {
        try {
            return Long.parseLong(env.getOrDefault(LaunchEnv.LAUNCHER_PID, "-1").strip());
        } catch (NumberFormatException e) {
            return -1; // IdentityGuard reports a garbled one
        }
    }

    static InetSocketAddress parseAddress(String address) {
        int colon = address.lastIndexOf(':');
        if (colon > 0) {
            String host = address.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            try {
                int port = Integer.parseInt(address.substring(colon + 1));
                if (port > 0 && port < 65536) {
                    return new InetSocketAddress(host, port);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw garbled(LaunchEnv.BOOTSTRAP, address, "is not host:port");
    }

    static int intVar(Map<String, String> env, String name, int min, int max) {
        String text = env.get(name);
        if (text == null) {
            throw missing(name);
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw garbled(name, text, "is not an integer in " + min + ".." + max);
    }

    static String textVar(Map<String, String> env, String name, Pattern format) {
        String text = env.get(name);
        if (text == null) {
            throw missing(name);
        }
        if (!format.matcher(text).matches()) {
            throw garbled(name, text, "is malformed");
        }
        return text;
    }

    static IllegalStateException missing(String name) {
        return new IllegalStateException("jshmem launcher environment is incomplete: " + LaunchEnv.BOOTSTRAP
                + " is set but " + name + " is not (start PEs with oshrun)");
    }

    static IllegalStateException garbled(String name, String value, String problem) {
        return new IllegalStateException("jshmem launcher environment is garbled: " + name + "=\"" + value + "\" "
                + problem + " (start PEs with oshrun)");
    }
}
