/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ForkSafetyReport;
import io.jshmem.ForkSafetyReport.Effect;
import io.jshmem.ForkSafetyReport.Finding;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link ForkSafety#evaluate}: every finding's branches, with controlled inputs. */
class ForkSafetyTest {
    private static final ForkSafety.Transport SHM = ForkSafety.Transport.shmOnly("test");
    private static final ForkSafety.Transport UCX = new ForkSafety.Transport("ucx", "test");
    private static final Ibverbs.Result DISABLED = new Ibverbs.Result(Ibverbs.State.FORK_DISABLED, "test");

    /** The worst case: network transport, an RDMA device, an old kernel, no fork support anywhere. */
    private static ForkSafety.Inputs unsafe(Map<String, String> extraEnv) {
        Map<String, String> env = new HashMap<>(Map.of("UCX_IB_FORK_INIT", "no"));
        env.putAll(extraEnv);
        return new ForkSafety.Inputs("5.4.0-150-generic", Path.of("/sys/class/infiniband"), List.of("mlx5_0"), DISABLED,
                env, UCX, "POSIX_SPAWN", Set.of());
    }

    private static ForkSafety.Inputs with(ForkSafety.Inputs in, String kernel, List<String> devices, Ibverbs.Result ib,
                                          ForkSafety.Transport t, String mechanism) {
        return new ForkSafety.Inputs(kernel, in.rdmaDir(), devices, ib, in.env(), t, mechanism, in.simulated());
    }

    private static Finding finding(ForkSafetyReport r, String name) {
        return r.finding(name).orElseThrow(() -> new AssertionError("no finding " + name + " in " + r.lines()));
    }

    @Test
    void thisMachineShape() {
        // No RDMA device, kernel 6.18, shared memory only: safe, for those three reasons.
        ForkSafety.Inputs in = new ForkSafety.Inputs("6.18.44-fc-v595", Path.of("/sys/class/infiniband"), List.of(), DISABLED,
                Map.of(), SHM, "POSIX_SPAWN", Set.of());
        ForkSafetyReport r = ForkSafety.evaluate(in);
        assertTrue(r.safe(), r.lines().toString());
        assertTrue(r.summary().startsWith("safe ("), r.summary());
        assertEquals(Effect.SAFE, finding(r, "transport").effect());
        assertEquals(Effect.SAFE, finding(r, "rdma devices").effect());
        assertEquals("none", finding(r, "rdma devices").value());
        assertEquals(Effect.SAFE, finding(r, "kernel").effect());
        // Without a device, rdma-core's "disabled" is no risk: it cannot ask the kernel.
        assertEquals(Effect.NEUTRAL, finding(r, "libibverbs").effect());
        assertTrue(finding(r, "libibverbs").explanation().contains("needs an RDMA device"));
        assertEquals(List.of("transport", "rdma devices", "kernel"),
                r.reasons().stream().map(s -> s.substring(0, s.indexOf(':'))).toList());
        assertFalse(r.launchMechanismForks());
    }

    @Test
    void worstCaseIsUnsafeAndListsEveryRisk() {
        ForkSafetyReport r = ForkSafety.evaluate(unsafe(Map.of()));
        assertFalse(r.safe(), r.lines().toString());
        assertTrue(r.summary().startsWith("NOT safe ("), r.summary());
        assertTrue(r.summary().contains("posix_spawn"), r.summary());
        assertEquals(List.of("transport", "rdma devices", "kernel", "libibverbs", "UCX_IB_FORK_INIT"),
                r.reasons().stream().map(s -> s.substring(0, s.indexOf(':'))).toList());
        assertTrue(r.findings().stream().noneMatch(f -> f.effect() == Effect.SAFE));
    }

    @Test
    void sharedMemoryOnlyIsSafeByItself() {
        ForkSafety.Inputs in = unsafe(Map.of());
        ForkSafetyReport r = ForkSafety.evaluate(with(in, in.kernelRelease(), in.rdmaDevices(), in.ibverbs(), SHM, "POSIX_SPAWN"));
        assertTrue(r.safe());
        assertEquals(1, r.reasons().size(), r.reasons().toString());
        assertTrue(r.reasons().get(0).startsWith("transport: "));
        // UCX's setting does not matter when UCX is not the transport.
        assertEquals(Effect.NEUTRAL, finding(r, "UCX_IB_FORK_INIT").effect());
    }

    @Test
    void noRdmaDeviceIsSafeByItself() {
        ForkSafety.Inputs in = unsafe(Map.of());
        ForkSafetyReport r = ForkSafety.evaluate(with(in, in.kernelRelease(), List.of(), in.ibverbs(), UCX, "POSIX_SPAWN"));
        assertTrue(r.safe());
        assertEquals(List.of("rdma devices"), r.reasons().stream().map(s -> s.substring(0, s.indexOf(':'))).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"5.13.0", "5.13", "5.15.0-91-generic", "6.1.0-18-amd64", "10.0"})
    void kernelWithCopyOnForkIsSafe(String release) {
        ForkSafety.Inputs in = unsafe(Map.of());
        ForkSafetyReport r = ForkSafety.evaluate(with(in, release, in.rdmaDevices(), in.ibverbs(), UCX, "POSIX_SPAWN"));
        assertTrue(r.safe(), release);
        assertEquals(Effect.SAFE, finding(r, "kernel").effect());
        assertEquals(release, finding(r, "kernel").value());
    }

    @ParameterizedTest
    @ValueSource(strings = {"5.12.19", "5.4.0-150-generic", "4.19.0-25-amd64", "3.10.0-1160.el7.x86_64"})
    void olderKernelIsARisk(String release) {
        ForkSafety.Inputs in = unsafe(Map.of());
        ForkSafetyReport r = ForkSafety.evaluate(with(in, release, in.rdmaDevices(), in.ibverbs(), UCX, "POSIX_SPAWN"));
        assertFalse(r.safe(), release);
        assertEquals(Effect.RISK, finding(r, "kernel").effect());
        assertTrue(finding(r, "kernel").explanation().contains("before 5.13"));
    }

    @Test
    void unparseableKernelIsNeutral() {
        ForkSafety.Inputs in = unsafe(Map.of());
        for (String release : new String[] {"weird", null}) {
            ForkSafetyReport r = ForkSafety.evaluate(with(in, release, in.rdmaDevices(), in.ibverbs(), UCX, "POSIX_SPAWN"));
            assertEquals(Effect.NEUTRAL, finding(r, "kernel").effect(), String.valueOf(release));
            assertFalse(r.safe());
        }
    }

    @Test
    void ibverbsStates() {
        ForkSafety.Inputs in = unsafe(Map.of());
        Map<Ibverbs.State, Effect> expected = Map.of(
                Ibverbs.State.ABSENT, Effect.SAFE,
                Ibverbs.State.FORK_ENABLED, Effect.SAFE,
                Ibverbs.State.FORK_UNNEEDED, Effect.SAFE,
                Ibverbs.State.FORK_DISABLED, Effect.RISK,
                Ibverbs.State.NOT_QUERIED, Effect.NEUTRAL,
                Ibverbs.State.QUERY_FAILED, Effect.NEUTRAL);
        for (Map.Entry<Ibverbs.State, Effect> e : expected.entrySet()) {
            ForkSafetyReport r = ForkSafety.evaluate(with(in, in.kernelRelease(), in.rdmaDevices(),
                    new Ibverbs.Result(e.getKey(), "detail " + e.getKey()), UCX, "POSIX_SPAWN"));
            assertEquals(e.getValue(), finding(r, "libibverbs").effect(), e.getKey().toString());
            assertEquals(e.getValue() == Effect.SAFE, r.safe(), e.getKey().toString());
        }
        assertEquals(Ibverbs.State.FORK_DISABLED, Ibverbs.State.ofForkInitialized(0));
        assertEquals(Ibverbs.State.FORK_ENABLED, Ibverbs.State.ofForkInitialized(1));
        assertEquals(Ibverbs.State.FORK_UNNEEDED, Ibverbs.State.ofForkInitialized(2));
        assertEquals(Ibverbs.State.QUERY_FAILED, Ibverbs.State.ofForkInitialized(7));
    }

    @ParameterizedTest
    @ValueSource(strings = {"RDMAV_FORK_SAFE", "IBV_FORK_SAFE"})
    void forkSafeVariablesMakeItSafeWhateverTheirValue(String variable) {
        for (String value : new String[] {"1", "", "0"}) { // libibverbs only checks that it is set
            ForkSafetyReport r = ForkSafety.evaluate(unsafe(Map.of(variable, value)));
            assertTrue(r.safe(), variable + "=" + value);
            assertEquals(Effect.SAFE, finding(r, variable).effect());
        }
        assertEquals(Effect.NEUTRAL, finding(ForkSafety.evaluate(unsafe(Map.of())), variable).effect());
    }

    @Test
    void ucxForkInit() {
        for (String v : new String[] {"try", "yes", "y", "TRY"}) {
            ForkSafetyReport r = ForkSafety.evaluate(unsafe(Map.of("UCX_IB_FORK_INIT", v)));
            assertTrue(r.safe(), v);
            assertEquals(Effect.SAFE, finding(r, "UCX_IB_FORK_INIT").effect(), v);
        }
        for (String v : new String[] {"no", "n", "0", "off", "NO"}) {
            ForkSafetyReport r = ForkSafety.evaluate(unsafe(Map.of("UCX_IB_FORK_INIT", v)));
            assertFalse(r.safe(), v);
            assertEquals(Effect.RISK, finding(r, "UCX_IB_FORK_INIT").effect(), v);
        }
        // Unset: UCX's default (try) calls ibv_fork_init.
        ForkSafety.Inputs in = unsafe(Map.of());
        Map<String, String> env = new HashMap<>(in.env());
        env.remove("UCX_IB_FORK_INIT");
        ForkSafetyReport r = ForkSafety.evaluate(new ForkSafety.Inputs(in.kernelRelease(), in.rdmaDir(), in.rdmaDevices(),
                in.ibverbs(), env, UCX, "POSIX_SPAWN", Set.of()));
        assertTrue(r.safe());
        assertTrue(finding(r, "UCX_IB_FORK_INIT").value().contains("default: try"));
        // Another network transport: UCX's setting is no help.
        ForkSafetyReport other = ForkSafety.evaluate(new ForkSafety.Inputs(in.kernelRelease(), in.rdmaDir(), in.rdmaDevices(),
                in.ibverbs(), env, new ForkSafety.Transport("ofi", "test"), "POSIX_SPAWN", Set.of()));
        assertFalse(other.safe());
        assertEquals(Effect.NEUTRAL, finding(other, "UCX_IB_FORK_INIT").effect());
    }

    @Test
    void launchMechanismIsReportedNotJudged() {
        ForkSafety.Inputs in = unsafe(Map.of());
        for (String m : new String[] {"FORK", "VFORK"}) {
            ForkSafetyReport r = ForkSafety.evaluate(with(in, in.kernelRelease(), in.rdmaDevices(), in.ibverbs(), UCX, m));
            assertTrue(r.launchMechanismForks(), m);
            assertEquals(m, r.launchMechanism());
            assertEquals(Effect.NEUTRAL, finding(r, "launch mechanism").effect());
            assertTrue(finding(r, "launch mechanism").explanation().contains("forks this JVM"));
            assertFalse(r.safe());
        }
        ForkSafetyReport r = ForkSafety.evaluate(in);
        assertFalse(r.launchMechanismForks());
        assertTrue(finding(r, "launch mechanism").explanation().contains("posix_spawn"));
    }

    @Test
    void policyIsShown() {
        assertEquals("warn (default)", finding(ForkSafety.evaluate(unsafe(Map.of())), ForkPolicy.VARIABLE).value());
        assertEquals("refuse", finding(ForkSafety.evaluate(unsafe(Map.of(ForkPolicy.VARIABLE, "REFUSE"))), ForkPolicy.VARIABLE).value());
        assertEquals("invalid: bogus", finding(ForkSafety.evaluate(unsafe(Map.of(ForkPolicy.VARIABLE, "bogus"))), ForkPolicy.VARIABLE).value());
    }

    @Test
    void simulatedInputsAreMarked() {
        ForkSafety.Inputs in = unsafe(Map.of());
        ForkSafetyReport r = ForkSafety.evaluate(new ForkSafety.Inputs(in.kernelRelease(), in.rdmaDir(), in.rdmaDevices(),
                in.ibverbs(), in.env(), in.transport(), "POSIX_SPAWN", Set.of("kernel", "infiniband")));
        assertEquals("5.4.0-150-generic (simulated)", finding(r, "kernel").value());
        assertEquals("mlx5_0 (simulated)", finding(r, "rdma devices").value());
        assertEquals("IBV_FORK_DISABLED", finding(r, "libibverbs").value(), "not simulated, not marked");
    }

    @Test
    void linesShowEveryFinding() {
        ForkSafetyReport r = ForkSafety.evaluate(unsafe(Map.of()));
        List<String> lines = r.lines();
        assertEquals(r.findings().size() + 1, lines.size());
        assertTrue(lines.get(0).startsWith("fork safety: NOT safe"), lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.contains("kernel:") && l.contains("[risk]")), lines.toString());
    }

    @Test
    void unknownReportIsNotSafe() {
        ForkSafetyReport r = ForkSafetyReport.unknown("no runtime");
        assertFalse(r.safe());
        assertEquals(List.of("runtime: no runtime"), r.reasons());
    }
}
