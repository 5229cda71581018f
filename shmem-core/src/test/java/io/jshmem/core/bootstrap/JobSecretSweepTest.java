/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** oshrun's sweep of a job's secret directories: this job's go, another job's and link targets stay. */
class JobSecretSweepTest {
    @TempDir
    Path base;

    private Path secretDir(String name, String file) throws IOException {
        Path dir = Files.createDirectory(base.resolve(JobSecret.DIRECTORY_PREFIX + name));
        Files.writeString(dir.resolve(file), "00");
        return dir;
    }

    @Test
    void removesThisJobsDirectoriesOnly() throws IOException {
        String job = "sweep" + UUID.randomUUID().toString().substring(0, 8);
        Path remotePe = secretDir(job + "-1-0123abcd", "secret");   // a killed start script's
        Path handover = secretDir(job + "-987654321", "pe0");       // the hand-over directory
        Path otherJob = secretDir(job + "x-1-0123abcd", "secret");  // another job whose id starts alike
        Path outside = Files.createDirectory(base.resolve("outside"));
        Path precious = Files.writeString(outside.resolve("secret"), "keep");
        Path link = Files.createSymbolicLink(base.resolve(JobSecret.DIRECTORY_PREFIX + job + "-2-link"), outside);

        JobSecret.sweep(job, Map.of("XDG_RUNTIME_DIR", base.toString()));

        assertFalse(Files.exists(remotePe), "a remote PE's leftover directory was kept");
        assertFalse(Files.exists(handover), "the hand-over directory was kept");
        assertTrue(Files.exists(otherJob.resolve("secret")), "another job's secret was removed");
        assertTrue(Files.exists(precious), "the sweep followed a link out of the base directory");
        assertTrue(Files.isSymbolicLink(link), "a link (not ours to judge) was removed");
    }
}
