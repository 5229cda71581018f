/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** This process's TCP sockets, from /proc: for tests that count connections or listeners. */
final class ProcSockets {
    private ProcSockets() {
    }

    /** Established connections. */
    static final String ESTABLISHED = "01";
    /** Listening sockets. */
    static final String LISTEN = "0A";

    /**
     * The rows of /proc/self/net/tcp and tcp6 (split on blanks: [1] local address, [3] state, [9]
     * inode) in {@code state} whose socket this process holds (its inode among /proc/self/fd's).
     */
    static List<String[]> tcp(String state) throws IOException {
        Set<String> inodes = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        inodes.add(link.substring(8, link.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        List<String[]> out = new ArrayList<>();
        for (String table : List.of("/proc/self/net/tcp", "/proc/self/net/tcp6")) {
            Path p = Path.of(table);
            if (!Files.exists(p)) {
                continue;
            }
            List<String> lines = Files.readAllLines(p);
            for (String line : lines.subList(1, lines.size())) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 9 && f[3].equals(state) && inodes.contains(f[9])) {
                    out.add(f);
                }
            }
        }
        return out;
    }
}
