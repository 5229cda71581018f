/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Heap segments that a job killed as a whole during its init left behind. A PE's segment lives
 * only until every PE of its node has mapped it, and the launcher removes its job's at the end; but
 * when the launcher and the PEs are all killed at once (SIGKILL to the process group) in that
 * window, nobody does. The next job on the node removes such files: the user's own
 * {@code jshmem-<job>-<pe>} files older than {@link #MIN_AGE_MILLIS} that no process maps. Costs
 * one directory listing when there are none (the usual case).
 */
final class StaleSegments {
    /** Younger files may belong to a PE between creating its file and mapping it. */
    static final long MIN_AGE_MILLIS = 30_000;

    private StaleSegments() {
    }

    /** Removes the stale segments in {@code dir}; returns them. Never throws. */
    static List<Path> sweep(Path dir, long nowMillis) {
        List<Path> removed = new ArrayList<>();
        try {
            List<Path> candidates = new ArrayList<>();
            int me = OwnDirectory.myUid();
            try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "jshmem-*")) {
                for (Path f : files) {
                    if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS)
                            && (Integer) Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS) == me
                            && nowMillis - Files.getLastModifiedTime(f, LinkOption.NOFOLLOW_LINKS).toMillis() > MIN_AGE_MILLIS) {
                        candidates.add(f);
                    }
                }
            }
            if (candidates.isEmpty()) {
                return removed;
            }
            Set<String> mapped = mappedFiles(dir);
            for (Path f : candidates) {
                if (!mapped.contains(f.toString()) && Files.deleteIfExists(f)) {
                    removed.add(f);
                }
            }
        } catch (IOException | RuntimeException e) {
            // No such directory, or nothing we may read: the files stay, as before.
        }
        return removed;
    }

    /** The files of {@code dir} that some process this user can see maps. */
    private static Set<String> mappedFiles(Path dir) throws IOException {
        Set<String> mapped = new HashSet<>();
        String prefix = dir + "/jshmem-";
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                if (!p.getFileName().toString().chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try (Stream<String> lines = Files.lines(p.resolve("maps"))) {
                    lines.forEach(l -> {
                        int at = l.indexOf(prefix);
                        if (at >= 0) {
                            mapped.add(l.substring(at).replace(" (deleted)", ""));
                        }
                    });
                } catch (IOException | RuntimeException gone) {
                    // ended meanwhile, or another user's
                }
            }
        }
        return mapped;
    }
}
