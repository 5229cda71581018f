/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.core.heap.SymmetricHeap;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

    /**
     * Every PE reports the capacity: by default oshrun prints the message once naming the PEs
     * ("jshmem: PEs 0-3: ..."); with --no-aggregate each PE's own line comes through.
     */
    @Test
    void aHeapLargerThanTheDirectoryFailsInitOnEveryPe() throws Exception {
        long needed = 4 * ((8L << 20) + SymmetricHeap.INTERNAL_SIZE);
        String text = ": not enough shared memory in " + dir + " for the symmetric heaps: the 4 PEs on this node need " + needed + " bytes";
        Oshrun.Result r = job("hello", "-x", "SHMEM_SYMMETRIC_SIZE=8m");
        assertNotEquals(0, r.exitCode(), r.tail());
        assertFalse(r.stdout().contains("PAST"), r.tail());
        Set<Integer> named = new TreeSet<>();
        for (String l : r.stderr().lines().toList()) {
            Matcher m = Pattern.compile("jshmem: PEs? ([0-9,-]+)" + Pattern.quote(text) + ".*").matcher(l);
            if (m.matches() && isCapacityReport(l)) {
                named.addAll(pes(m.group(1)));
            }
        }
        assertEquals(Set.of(0, 1, 2, 3), named, "every PE reports the capacity" + r.tail());
        assertFalse(r.stderr().contains("InternalError"), r.tail());
        assertEmpty();

        r = job("hello", "--no-aggregate", "-x", "SHMEM_SYMMETRIC_SIZE=8m");
        assertNotEquals(0, r.exitCode(), r.tail());
        for (int pe = 0; pe < 4; pe++) {
            String prefix = "jshmem: PE " + pe + text;
            assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith(prefix) && isCapacityReport(l)),
                    "PE " + pe + " does not report the capacity" + r.tail());
        }
        assertEmpty();
    }

    /**
     * Issue 33's check: 20 PEs whose heaps do not fit print the cause once, with the PEs' list, and
     * the whole output is under 10 lines (it was 2 lines per PE and a stack trace from each).
     */
    @Test
    void twentyPesWithATooLargeHeapPrintTheCauseOnceInUnderTenLines() throws Exception {
        Oshrun.Result r = Oshrun.run(20, List.of("--oversubscribe", "-x", "JSHMEM_SHM_DIR=" + dir, "-x", "SHMEM_SYMMETRIC_SIZE=8m"),
                Oshrun.conformanceClasses(), SCENARIOS, "hello", dir.toString(), Long.toString(2L << 20));
        assertNotEquals(0, r.exitCode(), r.tail());
        List<String> all = new ArrayList<>(r.stdout().lines().toList());
        all.addAll(r.stderr().lines().toList());
        assertTrue(all.size() < 10, all.size() + " lines" + r.tail());
        List<String> causes = all.stream().filter(l -> l.contains("not enough shared memory")).toList();
        assertTrue(!causes.isEmpty() && causes.get(0).startsWith("jshmem: PEs ") && isCapacityReport(causes.get(0)), r.tail());
        Set<Integer> named = new TreeSet<>();
        for (String l : causes) {
            Matcher m = Pattern.compile("jshmem: PEs? ([0-9,-]+): .*").matcher(l);
            if (m.matches()) {
                assertTrue(named.addAll(pes(m.group(1))) , "a PE named twice: " + l + r.tail());
            }
        }
        assertEquals(20, named.size(), "every PE named once: " + named + r.tail());
        assertFalse(all.stream().anyMatch(l -> l.startsWith("\tat ")), "no stack trace: the message says why" + r.tail());
        assertEmpty();
    }

    private static boolean isCapacityReport(String l) {
        return l.matches(".* \\d+ bytes .* are available.*") && l.contains("SHMEM_SYMMETRIC_SIZE") && l.contains("JSHMEM_SHM_DIR")
                && l.contains("--shm-size=");
    }

    /** "0-3,5" as {0, 1, 2, 3, 5}. */
    private static List<Integer> pes(String list) {
        List<Integer> pes = new ArrayList<>();
        for (String part : list.split(",")) {
            String[] ends = part.split("-");
            for (int pe = Integer.parseInt(ends[0]); pe <= Integer.parseInt(ends[ends.length - 1]); pe++) {
                pes.add(pe);
            }
        }
        return pes;
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
