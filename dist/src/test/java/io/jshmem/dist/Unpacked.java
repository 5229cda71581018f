/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The binary distribution unpacked into a temporary directory, for the integration tests. */
final class Unpacked {
    static final String VERSION = System.getProperty("jshmem.version");

    private Unpacked() {
    }

    /** Unpacks the archive the build made ({@code jshmem.dist.archive}) into {@code dir}; returns {@code jshmem-<version>/}. */
    static Path unpack(Path dir) throws IOException, InterruptedException {
        Path archive = Path.of(System.getProperty("jshmem.dist.archive"));
        assertTrue(Files.isRegularFile(archive), archive + " was not built");
        Process tar = new ProcessBuilder("tar", "xzf", archive.toString(), "-C", dir.toString())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                .redirectErrorStream(true).start();
        String out = new String(tar.getInputStream().readAllBytes());
        assertTrue(tar.waitFor(60, TimeUnit.SECONDS), "tar did not finish within 60 s");
        assertEquals(0, tar.exitValue(), "tar xzf " + archive + ": " + out);
        Path dist = dir.resolve("jshmem-" + VERSION);
        assertTrue(Files.isDirectory(dist), "the archive unpacks to jshmem-" + VERSION + "/");
        return dist;
    }

    /** Removes {@code dir} and everything under it (null: nothing). */
    static void delete(Path dir) throws IOException {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
