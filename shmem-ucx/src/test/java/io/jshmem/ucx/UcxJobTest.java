/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Real jobs through {@code bin/oshrun} with SHMEM_TRANSPORT=ucx (every peer through UCX, even on
 * this one node), running {@link UcxCases}: over tcp (UCX_TLS=tcp,self, the stand-in for another
 * node) with 2 and 4 PEs, and with UCX's default transport selection; and a PE killed mid-job.
 */
class UcxJobTest {
    /** Guard against a hanging job; the jobs take 5-40 s on a loaded 2-core machine. */
    private static final int JOB_TIMEOUT_SECONDS = 240;

    static Path root;
    static Path testClasses;

    record Result(int status, String out, String err, double seconds) {
        String all() {
            return "exit " + status + " after " + seconds + " s\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    @BeforeAll
    static void findTree() {
        if (root != null) {
            return;
        }
        String why = Ucp.unavailableReason();
        if (why != null) {
            System.out.println("UcxJobTest skipped: " + why);
        }
        assumeTrue(why == null, why);
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isExecutable(dir.resolve("bin/oshrun"))) {
            dir = dir.getParent();
        }
        assumeTrue(dir != null, "no bin/oshrun above " + Path.of("").toAbsolutePath());
        root = dir;
        testClasses = root.resolve("shmem-ucx/target/test-classes");
        assumeTrue(Files.exists(testClasses.resolve("io/jshmem/ucx/UcxCases.class")), "UcxCases is not compiled");
    }

    static Result oshrun(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(root.resolve("bin/oshrun").toString());
        cmd.add("--timeout");
        cmd.add(Integer.toString(JOB_TIMEOUT_SECONDS));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(root.toFile());
        pb.environment().remove("UCX_TLS");
        long start = System.nanoTime();
        Process p = pb.start();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        if (!p.waitFor(JOB_TIMEOUT_SECONDS + 30, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("oshrun did not end: " + cmd);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        return new Result(p.exitValue(), out.join(), err.join(), seconds);
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(" + e + ")";
        }
    }

    private static void assertAllPassed(Result r, int npes, String transport) {
        System.out.println("job of " + npes + " PEs (" + transport + "): exit " + r.status() + " in "
                + String.format("%.1f", r.seconds()) + " s");
        assertEquals(0, r.status(), r.all());
        for (int pe = 0; pe < npes; pe++) {
            assertTrue(r.out().matches("(?s).*PE " + pe + ": \\d+ checks passed\n.*"), "PE " + pe + " did not pass\n" + r.all());
        }
        assertTrue(r.err().contains("transport in use:     shm on-node, " + transport), r.all());
    }

    @Test
    void twoPesOverTcp() throws Exception {
        Result r = oshrun("-np", "2", "-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self", "-x", "SHMEM_INFO=1",
                "-cp", testClasses.toString(), UcxCases.class.getName(), "all");
        assertAllPassed(r, 2, "ucx (tcp)");
    }

    @Test
    void fourPesOverTcp() throws Exception {
        Result r = oshrun("-np", "4", "-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self", "-x", "SHMEM_INFO=1",
                "-cp", testClasses.toString(), UcxCases.class.getName(), "all");
        assertAllPassed(r, 4, "ucx (tcp)");
    }

    /**
     * Puts with signal both ways (UcxCases.putSignals): as one active message each (the default,
     * over TCP with one interface: each endpoint is one lane) and as put, fence and atomic
     * (JSHMEM_UCX_PUT_SIGNAL=rma); each job first checks which way its transport sends them.
     */
    @Test
    void putSignalAsActiveMessagesAndAsRma() throws Exception {
        for (String way : List.of("am", "rma")) {
            Result r = oshrun("-np", "2", "-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self", "-x", "JSHMEM_UCX_PUT_SIGNAL=" + way,
                    "-cp", testClasses.toString(), UcxCases.class.getName(), "putsignal", way);
            System.out.println("putsignal " + way + ": exit " + r.status() + " in " + String.format("%.1f", r.seconds()) + " s");
            assertEquals(0, r.status(), r.all());
            for (int pe = 0; pe < 2; pe++) {
                assertTrue(r.out().matches("(?s).*PE " + pe + ": \\d+ checks passed\n.*"), "PE " + pe + " did not pass\n" + r.all());
            }
        }
    }

    /**
     * oshrun --map-by node puts consecutive PEs on different nodes (two nodes of this machine, so the
     * PEs of different nodes talk over UCX), as --report-bindings says. Here rather than with the
     * launcher's tests in shmem-core: a job spanning nodes needs shmem-ucx, built after shmem-core.
     */
    @Test
    void mapByNodeAlternatesTheNodes() throws Exception {
        Result r = oshrun("--host", "localhost:2,127.0.0.1:2", "--map-by", "node", "--report-bindings", "-x",
                "UCX_TLS=tcp,self", "-x", "SHMEM_INFO=1", "-cp", testClasses.toString(), UcxCases.class.getName(), "all");
        assertAllPassed(r, 4, "ucx (tcp)");
        for (int pe = 0; pe < 4; pe++) {
            assertTrue(r.err().contains("oshrun: PE " + pe + " on this machine (node " + pe % 2 + "): "), r.all());
        }
    }

    @Test
    void twoPesWithDefaultTransports() throws Exception {
        Result r = oshrun("-np", "2", "-x", "SHMEM_TRANSPORT=ucx", "-x", "SHMEM_INFO=1",
                "-cp", testClasses.toString(), UcxCases.class.getName(), "all");
        assertAllPassed(r, 2, "ucx (");
    }

    @Test
    void fourPesWithDefaultTransportsWithoutPeerErrorMode() throws Exception {
        // Without UCP_ERR_HANDLING_MODE_PEER, UCX may pick its shared-memory transports on one node.
        Result r = oshrun("-np", "4", "-x", "SHMEM_TRANSPORT=ucx", "-x", "JSHMEM_UCX_ERR_MODE=none", "-x", "SHMEM_INFO=1",
                "-cp", testClasses.toString(), UcxCases.class.getName(), "all");
        assertAllPassed(r, 4, "ucx (");
    }

    @Test
    void aPeKilledMidJobEndsTheJobPromptly() throws Exception {
        Result r = oshrun("-np", "3", "-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self",
                "-cp", testClasses.toString(), UcxCases.class.getName(), "kill");
        System.out.println("killed PE: exit " + r.status() + " in " + String.format("%.1f", r.seconds()) + " s\n" + r.err());
        assertNotEquals(0, r.status(), r.all());
        assertTrue(r.out().contains("PE 1: killing itself"), r.all());
        assertTrue(r.seconds() < 25, "the job took " + r.seconds() + " s to end\n" + r.all());
        // The killed PE is the cause, whatever the others' UCX operations to it said first (issue 31).
        assertEquals(137, r.status(), r.all());
        assertTrue(r.err().matches("(?s)(.*\n)?oshrun: PE 1 \\(pid \\d+\\) was killed by signal 9 \\(SIGKILL\\) before"
                + " finalize; ending the job\n.*"), r.all());
        assertFalse(r.err().contains("oshrun: PE 0 aborted") || r.err().contains("oshrun: PE 2 aborted"), r.all());
    }

    @Test
    void aPeFailingMidJobAndAFailedWireUpEndCleanly(@org.junit.jupiter.api.io.TempDir Path shm) throws Exception {
        // PE 1 throws with puts outstanding: its exit releases UCX without waiting (heap unregistered
        // before it is unmapped, progress thread stopped); a crash there would show as a signal.
        Result r = oshrun("-np", "3", "-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self", "-x", "JSHMEM_SHM_DIR=" + shm,
                "-cp", testClasses.toString(), UcxCases.class.getName(), "throw");
        System.out.println("failing PE: exit " + r.status() + " in " + String.format("%.1f", r.seconds()) + " s");
        assertNotEquals(0, r.status(), r.all());
        assertTrue(r.err().contains("PE 1 fails on purpose"), r.all());
        assertFalse(r.err().contains("SIGSEGV") || r.err().contains("hs_err") || r.err().contains("implicit finalize at exit failed"),
                r.all());
        try (var left = Files.list(shm)) {
            assertEquals(List.of(), left.toList(), "segments left");
        }
        // Every PE's UCX unusable (no such interface): wire-up fails at the endpoints, naming the peer.
        r = oshrun("-np", "2", "-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self", "-x", "JSHMEM_UCX_LISTEN=nosuch0",
                "-x", "JSHMEM_SHM_DIR=" + shm, "-cp", testClasses.toString(), UcxCases.class.getName(), "barriers");
        assertNotEquals(0, r.status(), r.all());
        assertTrue(r.err().matches("(?s).*PE \\d: cannot create a UCX endpoint to PE \\d.*"), r.all());
        assertFalse(r.err().contains("SIGSEGV") || r.err().contains("hs_err"), r.all());
        try (var left = Files.list(shm)) {
            assertEquals(List.of(), left.toList(), "segments left");
        }
    }
}
