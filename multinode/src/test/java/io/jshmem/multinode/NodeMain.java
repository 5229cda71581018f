/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.multinode;

import io.jshmem.core.bootstrap.TcpBootstrap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A PE program that only uses the launcher's bootstrap (no network transport needed), for the
 * plumbing tests: runs in the containers, started by the real bin/oshrun on the host.
 * <ul>
 * <li>{@code hello}: prints {@code hello pe P of N node ID local L of M host H pid X}, exchanges a value
 *     with every PE through put/fence/get, checks them, finalizes
 * <li>{@code fenceloop}: prints {@code ready pe P pid X host H}, then fences every 50 ms until the job ends
 * </ul>
 */
public final class NodeMain {
    private NodeMain() {
    }

    public static void main(String[] args) throws Exception {
        try (TcpBootstrap b = TcpBootstrap.fromEnvironment(System.getenv())) {
            int me = b.rank();
            String host = hostname();
            long pid = ProcessHandle.current().pid();
            switch (args[0]) {
                case "hello" -> {
                    b.put("host." + me, host.getBytes(StandardCharsets.UTF_8));
                    b.fence();
                    for (int pe = 0; pe < b.size(); pe++) {
                        if (b.get("host." + pe) == null) {
                            System.err.println("NodeMain: no value from PE " + pe);
                            System.exit(10);
                        }
                    }
                    System.out.println("hello pe " + me + " of " + b.size() + " node " + b.nodeId() + " local "
                            + b.localRank() + " of " + b.localSize() + " host " + host + " pid " + pid);
                    b.finalized();
                }
                case "fenceloop" -> {
                    b.fence();
                    System.out.println("ready pe " + me + " pid " + pid + " host " + host);
                    System.out.flush();
                    while (true) {
                        b.fence();
                        Thread.sleep(50);
                    }
                }
                default -> throw new IllegalArgumentException("unknown mode " + args[0]);
            }
        }
    }

    static String hostname() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
    }
}
