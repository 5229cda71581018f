/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance.spawn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Chapel subprocess reproducer ({@code io.jshmem.examples.SpawnUname}) in real jobs. */
class SpawnUnameTest {
    private static final String MAIN = "io.jshmem.examples.SpawnUname";

    /** PE 0 printed every PE's locale before and after spawning uname, identical and each naming its own PE. */
    private static void assertReproducerPassed(Jobs.Result r, int npes) {
        assertEquals(0, r.status(), r.context());
        assertTrue(r.out().contains("OK: every locale identical before and after spawning uname"), r.context());
        assertTrue(r.out().lines().anyMatch(l -> l.matches("uname: Linux .* \\(exit status 0\\)")), r.context());
        for (int pe = 0; pe < npes; pe++) {
            String prefix = "LOCALE" + pe + " (PE " + pe + " of " + npes + " on ";
            int p = pe;
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("before: " + prefix)), "PE " + p + " before" + r.context());
            assertTrue(r.out().lines().anyMatch(l -> l.startsWith("after:  " + prefix)), "PE " + p + " after" + r.context());
        }
        assertEquals(npes, Jobs.count(r.out(), "before: LOCALE"), r.context());
        assertEquals(npes, Jobs.count(r.out(), "after:  LOCALE"), r.context());
        assertEquals(0, Jobs.count(r.out(), "MISMATCH") + Jobs.count(r.out(), "WRONG"), r.context());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void reproducer(int npes) throws Exception {
        assertReproducerPassed(Jobs.oshrun(npes, List.of(), Jobs.examplesClasses(), MAIN), npes);
    }

    /** With -Djdk.lang.Process.launchMechanism=FORK the JVM really forks for uname: still safe here (shared-memory heap). */
    @Test
    void reproducerWithTheJvmForking() throws Exception {
        Jobs.Result r = Jobs.oshrun(2, List.of("--jvm-opt", "-Djdk.lang.Process.launchMechanism=FORK"), Jobs.examplesClasses(), MAIN);
        assertReproducerPassed(r, 2);
        assertTrue(r.out().contains("fork safety: safe"), r.context());
    }

    /** On the UCX transport, once shmem-ucx provides one and libucp is installed. */
    @ParameterizedTest
    @ValueSource(ints = {2, 4})
    void reproducerOnUcx(int npes) throws Exception {
        Jobs.assumeUcx("SpawnUnameTest.reproducerOnUcx");
        assertReproducerPassed(Jobs.oshrun(npes, List.of("-x", "SHMEM_TRANSPORT=ucx"), Jobs.examplesClasses(), MAIN), npes);
    }
}
