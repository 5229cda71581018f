/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.ProcFs;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link OwnerMarker}: a real claim in this JVM (visible in /proc/self/maps, no file left), and the parsing. */
class OwnerMarkerTest {
    @TempDir
    Path dir;

    @Test
    void claimLeavesAMappingAndNoFile() throws Exception {
        PeIdentity id = new PeIdentity(PeIdentity.Scheme.JSHMEM, "unittest" + ProcessHandle.current().pid(), 5);
        FakeProc fake = new FakeProc(dir.resolve("proc")).uptime("123.45 678.90\n");
        Path shm = Files.createDirectories(dir.resolve("shm"));
        OwnerMarker.claim(id, shm, fake.fs);
        OwnerMarker.claim(id, shm, fake.fs); // once per process
        try (Stream<Path> left = Files.list(shm)) {
            assertEquals(List.of(), left.toList(), "the marker file is unlinked at once");
        }
        List<String> maps = ProcFs.SYSTEM.mappedPaths(ProcessHandle.current().pid()).orElseThrow();
        String expected = shm.resolve("jshmem-" + id.job() + "-5-owner-12345").toString() + " (deleted)";
        assertEquals(1, maps.stream().filter(expected::equals).count(), "maps: " + maps.stream().filter(p -> p.contains("owner")).toList());
        assertEquals(OptionalLong.of(12345), OwnerMarker.claimTicks(id, maps));
        assertFalse(OwnerMarker.segmentMapped(id, maps));
    }

    @Test
    void parsing() {
        PeIdentity pe1 = new PeIdentity(PeIdentity.Scheme.JSHMEM, "abc", 1);
        assertEquals("jshmem-abc-1", pe1.segmentName());
        assertEquals("jshmem-abc-1", OwnerMarker.fileName("/dev/shm/jshmem-abc-1 (deleted)"));
        assertEquals("jshmem-abc-1", OwnerMarker.fileName("/tmp/x/jshmem-abc-1"));
        assertTrue(OwnerMarker.segmentMapped(pe1, List.of("/usr/lib/libc.so.6", "/dev/shm/jshmem-abc-1 (deleted)")));
        assertTrue(OwnerMarker.segmentMapped(pe1, List.of("/other/dir/jshmem-abc-1")));
        assertFalse(OwnerMarker.segmentMapped(pe1, List.of("/dev/shm/jshmem-abc-10 (deleted)", "/dev/shm/jshmem-abc-1-owner-3 (deleted)")));
        // A re-initialization's segment (1.6: init again after finalize) counts too, another PE's does not.
        assertTrue(OwnerMarker.segmentMapped(pe1, List.of("/dev/shm/jshmem-abc-1-g2 (deleted)")));
        assertFalse(OwnerMarker.segmentMapped(pe1, List.of("/dev/shm/jshmem-abc-10-g2 (deleted)", "/dev/shm/jshmem-abc-1-g (deleted)")));
        assertEquals(OptionalLong.of(77), OwnerMarker.claimTicks(pe1, List.of("/dev/shm/jshmem-abc-10-owner-5 (deleted)",
                "/dev/shm/jshmem-abc-1-owner-77 (deleted)")));
        assertEquals(OptionalLong.empty(), OwnerMarker.claimTicks(pe1, List.of("/dev/shm/jshmem-abc-1-owner- (deleted)")));
        assertEquals(OptionalLong.empty(), OwnerMarker.claimTicks(pe1, List.of()));
    }
}
