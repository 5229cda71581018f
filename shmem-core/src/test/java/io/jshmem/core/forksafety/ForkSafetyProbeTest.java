/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ForkSafetyReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ForkSafety#probe}, {@link ForkSafety#forecast}, the simulation property's parser, {@link KernelVersion}. */
class ForkSafetyProbeTest {
    @TempDir
    Path dir;

    private final AtomicInteger ibverbsCalls = new AtomicInteger();

    private ForkSafety.Sources sources(String kernel, Path infiniband) {
        return new ForkSafety.Sources(kernel, infiniband, () -> {
            ibverbsCalls.incrementAndGet();
            return new Ibverbs.Result(Ibverbs.State.FORK_DISABLED, "fake");
        }, "POSIX_SPAWN", null, Set.of());
    }

    @Test
    void fakeSysClassInfiniband() throws Exception {
        Path ib = dir.resolve("infiniband");
        Files.createDirectories(ib.resolve("mlx5_1"));
        Files.createDirectories(ib.resolve("mlx5_0"));
        ForkSafety.Inputs in = ForkSafety.probe(sources("5.4.0", ib), Map.of("UCX_IB_FORK_INIT", "no"),
                new ForkSafety.Transport("ucx", "test"), true);
        assertEquals(List.of("mlx5_0", "mlx5_1"), in.rdmaDevices());
        ForkSafetyReport r = ForkSafety.evaluate(in);
        assertFalse(r.safe(), r.lines().toString());
        assertEquals("mlx5_0 mlx5_1", r.finding("rdma devices").orElseThrow().value());
        assertEquals(1, ibverbsCalls.get());
    }

    @Test
    void absentOrEmptyDirectoryMeansNoDevice() throws Exception {
        assertEquals(List.of(), ForkSafety.listDevices(dir.resolve("missing")));
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertEquals(List.of(), ForkSafety.listDevices(empty));
        assertEquals(List.of(), ForkSafety.listDevices(null));
        ForkSafetyReport r = ForkSafety.evaluate(ForkSafety.probe(sources("5.4.0", empty), Map.of(),
                new ForkSafety.Transport("ucx", "test"), true));
        assertTrue(r.safe());
        assertTrue(r.finding("rdma devices").orElseThrow().explanation().contains(empty.toString()));
    }

    @Test
    void quickProbeSkipsLibibverbsWhenTheVerdictCannotDependOnIt() throws Exception {
        Path ib = Files.createDirectories(dir.resolve("ib").resolve("mlx4_0"));
        // Shared memory only: not asked.
        ForkSafety.Inputs shm = ForkSafety.probe(sources("5.4.0", ib.getParent()), Map.of(), ForkSafety.Transport.shmOnly("t"), false);
        assertEquals(Ibverbs.State.NOT_QUERIED, shm.ibverbs().state());
        // No device: not asked.
        ForkSafety.probe(sources("5.4.0", dir.resolve("none")), Map.of(), new ForkSafety.Transport("ucx", "t"), false);
        assertEquals(0, ibverbsCalls.get());
        // Network and a device: asked.
        ForkSafety.probe(sources("5.4.0", ib.getParent()), Map.of(), new ForkSafety.Transport("ucx", "t"), false);
        assertEquals(1, ibverbsCalls.get());
    }

    @Test
    void simulation() throws Exception {
        Path ib = Files.createDirectories(dir.resolve("fake-ib").resolve("mlx5_0")).getParent();
        ForkSafety.Sources s = sources("6.18.0", dir.resolve("none"))
                .simulate("kernel=5.4.0, infiniband=" + ib + ",ibverbs=disabled,transport=ucx");
        assertEquals("5.4.0", s.kernelRelease());
        assertEquals(ib, s.rdmaDir());
        assertEquals("ucx", s.transportOverride());
        assertEquals(Set.of("kernel", "infiniband", "ibverbs", "transport"), s.simulated());
        ForkSafetyReport r = ForkSafety.evaluate(ForkSafety.probe(s, Map.of("UCX_IB_FORK_INIT", "no"),
                ForkSafety.Transport.shmOnly("real"), true));
        assertFalse(r.safe(), r.lines().toString());
        assertEquals("ucx (simulated)", r.finding("transport").orElseThrow().value());
        assertEquals("IBV_FORK_DISABLED (simulated)", r.finding("libibverbs").orElseThrow().value());
        assertEquals(0, ibverbsCalls.get(), "the simulated libibverbs replaces the real one");

        for (String v : new String[] {"absent", "not-queried", "enabled", "unneeded"}) {
            assertTrue(s.simulate("ibverbs=" + v).ibverbs().get().detail().equals("simulated"));
        }
        assertEquals(Ibverbs.State.ABSENT, s.simulate("ibverbs=absent").ibverbs().get().state());
        assertNull(sources("1.0", dir).transportOverride());
        assertEquals("shm", s.simulate("transport=shm").transportOverride());
        assertThrows(IllegalArgumentException.class, () -> s.simulate("kernel"));
        assertThrows(IllegalArgumentException.class, () -> s.simulate("colour=blue"));
        assertThrows(IllegalArgumentException.class, () -> s.simulate("ibverbs=maybe"));
        assertThrows(IllegalArgumentException.class, () -> s.simulate("transport=tcp"));
    }

    @Test
    void forecastOfTheTransport() {
        assertNull(ForkSafety.forecast(Map.of()).network(), "no launcher: one PE, shared memory");
        assertNull(ForkSafety.forecast(Map.of("JSHMEM_NPES", "4", "JSHMEM_LOCAL_NPES", "4")).network());
        ForkSafety.Transport multi = ForkSafety.forecast(Map.of("JSHMEM_NPES", "4", "JSHMEM_LOCAL_NPES", "2"));
        assertEquals("ucx", multi.network());
        assertTrue(multi.detail().contains("2 of 4"), multi.detail());
        assertNull(ForkSafety.forecast(Map.of("SHMEM_TRANSPORT", "shm", "JSHMEM_NPES", "4", "JSHMEM_LOCAL_NPES", "2")).network());
        assertEquals("ucx", ForkSafety.forecast(Map.of("SHMEM_TRANSPORT", "ucx")).network());
        ForkSafety.Transport bad = ForkSafety.forecast(Map.of("SHMEM_TRANSPORT", "carrier-pigeon"));
        assertEquals("unknown", bad.network());
        assertTrue(bad.detail().contains("not valid"), bad.detail());
    }

    @Test
    void mechanism() {
        assertTrue(ForkSafety.forks("FORK"));
        assertTrue(ForkSafety.forks("VFORK"));
        assertFalse(ForkSafety.forks("POSIX_SPAWN"));
        // The test JVM runs with the default mechanism.
        assertEquals("POSIX_SPAWN", ForkSafety.launchMechanism());
    }

    @Test
    void kernelVersions() {
        assertEquals(Optional.of(new KernelVersion(6, 18)), KernelVersion.parse("6.18.44-fc-v595"));
        assertEquals(Optional.of(new KernelVersion(5, 13)), KernelVersion.parse("5.13"));
        assertEquals(Optional.of(new KernelVersion(4, 19)), KernelVersion.parse(" 4.19.0-25-amd64"));
        assertEquals(Optional.empty(), KernelVersion.parse("Linux"));
        assertEquals(Optional.empty(), KernelVersion.parse("6"));
        assertEquals(Optional.empty(), KernelVersion.parse(null));
        assertTrue(new KernelVersion(5, 13).copiesPinnedPagesAtFork());
        assertTrue(new KernelVersion(6, 0).copiesPinnedPagesAtFork());
        assertFalse(new KernelVersion(5, 12).copiesPinnedPagesAtFork());
        assertFalse(new KernelVersion(4, 99).copiesPinnedPagesAtFork());
    }

    @Test
    void realProbeIsConsistentWithThisMachine() throws Exception {
        // The real sources: whatever this machine is, the report must agree with what is on disk.
        ForkSafety.Sources real = ForkSafety.Sources.system();
        assertEquals(Files.readString(Path.of("/proc/sys/kernel/osrelease")).trim(), real.kernelRelease());
        ForkSafety.Inputs in = ForkSafety.probe(real, Map.of(), ForkSafety.Transport.shmOnly("t"), true);
        assertEquals(ForkSafety.listDevices(Path.of("/sys/class/infiniband")), in.rdmaDevices());
        // Without native access libibverbs is looked for, not loaded; with it (an earlier test in this
        // JVM made a restricted call, which enables it for the class path under the JDK's default
        // "warn"), it is asked, and answers one of its states.
        Ibverbs.State st = in.ibverbs().state();
        if (Ibverbs.locate().isEmpty()) {
            assertEquals(Ibverbs.State.ABSENT, st, in.ibverbs().detail());
        } else if (Ibverbs.class.getModule().isNativeAccessEnabled()) {
            assertTrue(st != Ibverbs.State.ABSENT && st != Ibverbs.State.NOT_QUERIED, st + ": " + in.ibverbs().detail());
        } else {
            assertEquals(Ibverbs.State.NOT_QUERIED, st, in.ibverbs().detail());
        }
    }
}
