/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ForkSafetyReport;
import io.jshmem.ShmemException;
import io.jshmem.SubprocessRefusedException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Clause 3 at init: {@link ForkPolicy#check} with controlled mechanism, report and policy. */
class ForkPolicyTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);

    private static final ForkSafetyReport UNSAFE = ForkSafety.evaluate(new ForkSafety.Inputs("5.4.0", Path.of("/x"),
            List.of("mlx5_0"), new Ibverbs.Result(Ibverbs.State.FORK_DISABLED, "t"), Map.of("UCX_IB_FORK_INIT", "no"),
            new ForkSafety.Transport("ucx", "t"), "FORK", Set.of()));
    private static final ForkSafetyReport SAFE = ForkSafety.evaluate(new ForkSafety.Inputs("6.18.0", Path.of("/x"),
            List.of(), new Ibverbs.Result(Ibverbs.State.ABSENT, "t"), Map.of(), ForkSafety.Transport.shmOnly("t"), "FORK", Set.of()));
    private static final Supplier<ForkSafetyReport> MUST_NOT_ASK = () -> {
        throw new AssertionError("the report must not be computed");
    };

    @BeforeEach
    void reset() {
        ForkPolicy.resetWarning();
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void posixSpawnNeverComputesTheReport() {
        for (String policy : new String[] {"warn", "refuse", "allow"}) {
            assertFalse(ForkPolicy.check(Map.of(ForkPolicy.VARIABLE, policy), "POSIX_SPAWN", MUST_NOT_ASK, errStream::println));
        }
        assertEquals("", err());
    }

    @Test
    void allowNeverComputesTheReport() {
        assertFalse(ForkPolicy.check(Map.of(ForkPolicy.VARIABLE, "allow"), "FORK", MUST_NOT_ASK, errStream::println));
        assertEquals("", err());
    }

    @Test
    void safeForkIsFine() {
        assertFalse(ForkPolicy.check(Map.of(ForkPolicy.VARIABLE, "refuse"), "FORK", () -> SAFE, errStream::println));
        assertFalse(ForkPolicy.check(Map.of(), "VFORK", () -> SAFE, errStream::println));
        assertEquals("", err());
    }

    @Test
    void warnIsTheDefaultAndWarnsOnce() {
        assertTrue(ForkPolicy.check(Map.of("JSHMEM_PE", "3"), "FORK", () -> UNSAFE, errStream::println));
        String first = err();
        assertTrue(first.startsWith("jshmem: PE 3: warning: jdk.lang.Process.launchMechanism=FORK"), first);
        assertTrue(first.contains("clause 3"), first);
        assertTrue(first.contains("kernel: Linux 5.4 (before 5.13)"), first);
        assertTrue(first.contains("io.jshmem.spawn.Spawn"), first);
        assertTrue(first.contains("JSHMEM_FORK_POLICY=refuse makes this an error"), first);
        assertEquals(1, first.lines().count());
        assertTrue(ForkPolicy.check(Map.of(ForkPolicy.VARIABLE, "WARN"), "VFORK", () -> UNSAFE, errStream::println));
        assertEquals(first, err(), "warned once per process");
    }

    @Test
    void refuseThrowsClause3() {
        SubprocessRefusedException e = assertThrows(SubprocessRefusedException.class,
                () -> ForkPolicy.check(Map.of(ForkPolicy.VARIABLE, " Refuse ", "JSHMEM_PE", "1"), "VFORK", () -> UNSAFE, errStream::println));
        assertEquals(3, e.clause());
        assertEquals(-1, e.ownerPid());
        assertTrue(e.getMessage().startsWith("jshmem: PE 1: refusing to initialize (JSHMEM_FORK_POLICY=refuse)"), e.getMessage());
        assertTrue(e.getMessage().contains("OpenSHMEM subprocess clause 3"), e.getMessage());
        assertTrue(e.getMessage().contains("rdma devices:"), e.getMessage());
        assertEquals("", err());
    }

    @Test
    void invalidPolicyIsAnError() {
        ShmemException e = assertThrows(ShmemException.class,
                () -> ForkPolicy.check(Map.of(ForkPolicy.VARIABLE, "sometimes"), "POSIX_SPAWN", MUST_NOT_ASK, errStream::println));
        assertEquals("JSHMEM_FORK_POLICY=sometimes is not valid: use warn, refuse or allow", e.getMessage());
        assertEquals(ForkPolicy.WARN, ForkPolicy.parse(null));
        assertEquals(ForkPolicy.WARN, ForkPolicy.parse(" "));
        assertEquals(ForkPolicy.ALLOW, ForkPolicy.parse("ALLOW"));
    }
}
