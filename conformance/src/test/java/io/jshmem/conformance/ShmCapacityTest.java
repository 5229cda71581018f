package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.core.heap.SymmetricHeap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The shared-memory directory is checked at init: on a small tmpfs mounted for the test as
 * JSHMEM_SHM_DIR (Docker's /dev/shm is 64 MB), heaps that do not fit fail init on every PE with a
 * message naming the directory, the bytes needed and available, and the fixes; heaps that fit run;
 * with JSHMEM_SHM_PREALLOCATE their pages are taken at init, so a directory filled afterwards
 * cannot fault them, and without it the faulting access throws a ShmemException naming the PE and the
 * cure, not a bare InternalError.
 * Skips, saying why, where a tmpfs cannot be mounted (not root).
 */
class ShmCapacityTest {
    private static final String SCENARIOS = "io.jshmem.conformance.ShmCapacityScenarios";
    /** Room for 4 PEs' segments with a 2 MiB heap, not with an 8 MiB one. */
    private static final long TMPFS_BYTES = 4 * (SymmetricHeap.INTERNAL_SIZE + (2L << 20)) + (8L << 20);
    private static Path dir;

    @BeforeAll
    static void mountSmallTmpfs() throws Exception {
        dir = Files.createTempDirectory("jshmem-small-shm-");
        String problem = run("mount", "-t", "tmpfs", "-o", "size=" + TMPFS_BYTES + ",mode=1777", "tmpfs", dir.toString());
        if (problem != null) {
            Files.deleteIfExists(dir);
            dir = null;
        }
        Assumptions.assumeTrue(problem == null, "cannot mount a small tmpfs here (needs root): " + problem);
    }

    @AfterAll
    static void unmount() throws Exception {
        if (dir != null) {
            run("umount", dir.toString());
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void aHeapLargerThanTheDirectoryFailsInitOnEveryPe() throws Exception {
        Oshrun.Result r = job("hello", "-x", "SHMEM_SYMMETRIC_SIZE=8m");
        assertNotEquals(0, r.exitCode(), r.tail());
        assertFalse(r.stdout().contains("PAST"), r.tail());
        long needed = 4 * ((8L << 20) + SymmetricHeap.INTERNAL_SIZE);
        for (int pe = 0; pe < 4; pe++) {
            String prefix = "jshmem: PE " + pe + ": not enough shared memory in " + dir + " for the symmetric heaps: the 4 PEs on"
                    + " this node need " + needed + " bytes";
            assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith(prefix) && l.matches(".* \\d+ bytes .* are available.*")
                    && l.contains("SHMEM_SYMMETRIC_SIZE") && l.contains("JSHMEM_SHM_DIR") && l.contains("--shm-size=")),
                    "PE " + pe + " does not report the capacity" + r.tail());
        }
        assertFalse(r.stderr().contains("InternalError"), r.tail());
        assertEmpty();
    }

    @Test
    void aHeapThatFitsRuns() throws Exception {
        Oshrun.Result r = job("hello", "-x", "SHMEM_SYMMETRIC_SIZE=2m");
        assertEquals(0, r.exitCode(), r.tail());
        assertEquals(4, r.stdout().lines().filter(l -> l.startsWith("PAST")).count(), r.tail());
        r = job("hello", "-x", "SHMEM_SYMMETRIC_SIZE=2m", "-x", "JSHMEM_SHM_PREALLOCATE=1");
        assertEquals(0, r.exitCode(), r.tail());
        assertEquals(4, r.stdout().lines().filter(l -> l.startsWith("PAST")).count(), r.tail());
        assertEmpty();
    }

    @Test
    void preallocatedPagesSurviveAFullDirectory() throws Exception {
        Oshrun.Result r = job("fill-after-init", "-x", "SHMEM_SYMMETRIC_SIZE=2m", "-x", "JSHMEM_SHM_PREALLOCATE=1");
        assertEquals(0, r.exitCode(), r.tail());
        assertTrue(r.stdout().contains("FILLED 0"), r.tail());
        assertEmpty();
        // Without preallocation the same writes fault: a ShmemException at the access (a put, a local
        // set) naming the PE, the routine, the directory and the cure; the job ends naming the PE.
        r = job("fill-after-init", "-x", "SHMEM_SYMMETRIC_SIZE=2m");
        assertNotEquals(0, r.exitCode(), r.tail());
        assertFalse(r.stdout().contains("FILLED"), r.tail());
        for (String routine : List.of("put", "set")) {
            String prefix = "FAULT " + routine + " io.jshmem.ShmemException: PE 0: " + (routine.equals("put") ? "put: " : "set on SymByteArray[");
            assertTrue(r.stdout().lines().anyMatch(l -> l.startsWith(prefix) && l.contains("a memory fault on the symmetric heap")
                    && l.contains("the shared-memory directory " + dir + " ran out of space") && l.contains("JSHMEM_SHM_PREALLOCATE=1")),
                    "no ShmemException from the faulting " + routine + " (" + prefix + "...)" + r.tail());
        }
        assertFalse(r.stderr().lines().anyMatch(l -> l.startsWith("Exception in thread") && l.contains("InternalError")), r.tail());
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun: PE 0 aborted the job")
                && l.contains("a memory fault on the symmetric heap") && l.contains("JSHMEM_SHM_PREALLOCATE=1")), r.tail());
        assertEmpty();
    }

    private static Oshrun.Result job(String scenario, String... options) throws Exception {
        List<String> opts = new java.util.ArrayList<>(List.of("-x", "JSHMEM_SHM_DIR=" + dir));
        opts.addAll(List.of(options));
        return Oshrun.run(4, opts, Oshrun.conformanceClasses(), SCENARIOS, scenario, dir.toString(),
                Long.toString(2L << 20));
    }

    private static void assertEmpty() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            assertEquals(List.of(), files.toList(), "files left in the shared-memory directory");
        }
    }

    /** Runs a command; null if it succeeded, else what it said. */
    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).strip();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", command) + ": did not end";
        }
        return p.exitValue() == 0 ? null : String.join(" ", command) + ": " + out;
    }
}
