/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance.spawn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The fork-safety report on this machine, in a real job, at init with SHMEM_INFO and from
 * bin/shmem-info, checked against what the machine actually has (RDMA devices, kernel release,
 * libibverbs), read independently here.
 */
class ForkSafetyReportJobTest {

    private static List<String> rdmaDevices() throws IOException {
        Path ib = Path.of("/sys/class/infiniband");
        if (!Files.isDirectory(ib)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(ib)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static String kernel() throws IOException {
        return Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim();
    }

    private static boolean copyOnFork(String release) {
        Matcher m = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(release);
        assertTrue(m.find(), release);
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        return major > 5 || major == 5 && minor >= 13;
    }

    /** The report lines (with the given prefix) agree with the machine, for a job whose PEs are all on this node. */
    private static void assertMatchesThisMachine(String out, String prefix) throws IOException {
        List<String> devices = rdmaDevices();
        String release = kernel();
        assertTrue(out.contains(prefix + "fork safety: safe ("), out);
        assertTrue(Pattern.compile("(?m)^" + Pattern.quote(prefix) + "  transport: +shm only \\[safe\\]").matcher(out).find(), out);
        if (devices.isEmpty()) {
            assertTrue(Pattern.compile("(?m)^" + Pattern.quote(prefix) + "  rdma devices: +none \\[safe\\] no RDMA device").matcher(out).find(), out);
        } else {
            assertTrue(out.contains(prefix + "  rdma devices:") && out.contains(String.join(" ", devices) + " [risk]"), out);
        }
        String effect = copyOnFork(release) ? "[safe]" : "[risk]";
        assertTrue(Pattern.compile("(?m)^" + Pattern.quote(prefix) + "  kernel: +" + Pattern.quote(release + " " + effect)).matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^" + Pattern.quote(prefix) + "  libibverbs: +(not installed|IBV_FORK_DISABLED|IBV_FORK_ENABLED|IBV_FORK_UNNEEDED|unknown) ")
                .matcher(out).find(), out);
        assertTrue(Pattern.compile("(?m)^" + Pattern.quote(prefix) + "  launch mechanism: +POSIX_SPAWN \\[neutral\\]").matcher(out).find(), out);
    }

    @Test
    void reportOnThisMachine() throws Exception {
        Jobs.Result r = Jobs.oshrun(2, List.of(), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "report");
        r.assertChecks(java.util.Set.of("report-consistent PE 0", "report-consistent PE 1"));
        assertMatchesThisMachine(r.out(), "BEFORE ");
        assertMatchesThisMachine(r.out(), "AFTER ");
        assertTrue(r.out().contains("AFTER safe=true isForkSafe=true static=true"), r.context());
        // The reasons: shared memory only, plus what this machine offers.
        assertTrue(r.out().contains("REASON transport: in use: every peer is on this node"), r.context());
        if (rdmaDevices().isEmpty()) {
            assertTrue(r.out().contains("REASON rdma devices: no RDMA device"), r.context());
        }
        if (copyOnFork(kernel())) {
            assertTrue(r.out().contains("REASON kernel: Linux "), r.context());
        }
        assertEquals(2, Jobs.count(r.out(), "BEFORE safe=true"), r.context());
    }

    /** With the UCX transport in use (when available) the transport is a risk, ruled out by what the machine offers. */
    @Test
    void reportOnUcx() throws Exception {
        Jobs.assumeUcx("ForkSafetyReportJobTest.reportOnUcx");
        Jobs.Result r = Jobs.oshrun(2, List.of("-x", "SHMEM_TRANSPORT=ucx"), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "report");
        r.assertChecks(java.util.Set.of("report-consistent PE 0", "report-consistent PE 1"));
        assertTrue(Pattern.compile("(?m)^AFTER   transport: +ucx.* \\[risk\\] in use: a network transport").matcher(r.out()).find(), r.context());
        assertTrue(Pattern.compile("(?m)^AFTER   UCX_IB_FORK_INIT: +not set \\(UCX default: try\\) \\[safe\\]").matcher(r.out()).find(), r.context());
        // Whatever the machine: UCX calls ibv_fork_init by default, so the report is safe.
        assertTrue(r.out().contains("AFTER safe=true isForkSafe=true"), r.context());
    }

    @Test
    void shmemInfoAtInit() throws Exception {
        Jobs.Result r = Jobs.oshrun(2, List.of("-x", "SHMEM_INFO=1"), Jobs.spawnJobClasses(), Jobs.SPAWN_JOBS, "hello");
        assertEquals(0, r.status(), r.context());
        assertEquals(1, Jobs.count(r.err(), "fork safety: "), "PE 0 prints it once" + r.context());
        assertMatchesThisMachine(r.err(), "  ");
    }

    @Test
    void binShmemInfo() throws Exception {
        Jobs.Result r = Jobs.run(List.of(Jobs.root().resolve("bin/shmem-info").toString()), Map.of());
        assertEquals(0, r.status(), r.context());
        assertTrue(r.out().contains("transport: ") && r.out().contains("not launched by oshrun: a job of one PE"), r.context());
        assertMatchesThisMachine(r.out(), "  ");
        Jobs.Result ucx = Jobs.run(List.of(Jobs.root().resolve("bin/shmem-info").toString()),
                Map.of("SHMEM_TRANSPORT", "ucx", "UCX_IB_FORK_INIT", "no", "JSHMEM_FORK_POLICY", "refuse"));
        assertTrue(ucx.out().contains("    transport:           ucx [risk] SHMEM_TRANSPORT=ucx"), ucx.context());
        assertTrue(ucx.out().contains("    UCX_IB_FORK_INIT:    no [risk]"), ucx.context());
        assertTrue(ucx.out().contains("    JSHMEM_FORK_POLICY:  refuse [neutral]"), ucx.context());
    }
}
