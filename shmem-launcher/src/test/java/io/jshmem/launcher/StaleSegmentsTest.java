/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job killed whole during init leaves heap segments no one unlinks: the next job removes the
 * user's old {@code jshmem-*} files that no process maps, and nothing else.
 */
class StaleSegmentsTest {
    @TempDir
    Path dir;

    @Test
    void removesOldUnmappedSegmentsOnly() throws Exception {
        long now = System.currentTimeMillis();
        Path stale = old(Files.writeString(dir.resolve("jshmem-deadjob00000-0"), "x"), now);
        Path young = Files.writeString(dir.resolve("jshmem-livejob00000-1"), "x");
        Path mapped = old(Files.writeString(dir.resolve("jshmem-livejob00000-0"), "x"), now);
        Path other = old(Files.writeString(dir.resolve("other-file"), "x"), now);
        Path secretDir = Files.createDirectory(dir.resolve("jshmem-secret-abc"));
        old(secretDir, now);
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(mapped, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ch.map(FileChannel.MapMode.READ_WRITE, 0, 1, arena); // as a PE of a running job maps its node's segments
            assertEquals(List.of(stale), StaleSegments.sweep(dir, now));
        }
        for (Path kept : List.of(young, mapped, other, secretDir)) {
            assertTrue(Files.exists(kept), kept + " was removed");
        }
        assertEquals(List.of(mapped), StaleSegments.sweep(dir, now), "no longer mapped");
        assertEquals(List.of(), StaleSegments.sweep(dir.resolve("missing"), now));
    }

    private static Path old(Path p, long now) throws Exception {
        Files.setLastModifiedTime(p, FileTime.fromMillis(now - 2 * StaleSegments.MIN_AGE_MILLIS));
        return p;
    }
}
