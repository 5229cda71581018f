/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CoreBindingTest {
    private static final List<Integer> TWO = List.of(0, 1);

    @Test
    void parsesKernelCpuLists() {
        assertEquals(List.of(0, 1, 2, 3, 8, 10, 11), CoreBinding.parseList("0-3,8,10-11"));
        assertEquals(List.of(5), CoreBinding.parseList("5"));
        assertEquals(List.of(), CoreBinding.parseList(""));
    }

    @Test
    void autoBindsOnlyWhenThePesFitTheCpus() {
        assertArrayEquals(new int[] {0, 1}, CoreBinding.plan("auto", new boolean[2], TWO, true));
        assertArrayEquals(new int[] {-1, -1, -1, -1}, CoreBinding.plan("auto", new boolean[4], TWO, true));
        // PEs on other hosts neither count nor get bound.
        assertArrayEquals(new int[] {0, -1, 1, -1}, CoreBinding.plan("auto", new boolean[] {false, true, false, true}, TWO, true));
    }

    @Test
    void coreBindsRoundRobinAndNoneNever() {
        assertArrayEquals(new int[] {0, 1, 0}, CoreBinding.plan("core", new boolean[3], TWO, true));
        assertArrayEquals(new int[] {-1, -1}, CoreBinding.plan("none", new boolean[2], TWO, true));
        assertArrayEquals(new int[] {4, 6}, CoreBinding.plan("auto", new boolean[2], List.of(4, 6), true));
    }

    /** --map-by socket: consecutive PEs on different sockets (CPUs 0-3 on socket 0, 4-7 on socket 1). */
    @Test
    void mapBySocketTakesTheSocketsInTurn() {
        List<Integer> eight = List.of(0, 1, 2, 3, 4, 5, 6, 7);
        assertEquals(List.of(0, 4, 1, 5, 2, 6, 3, 7), CoreBinding.bySocket(eight, cpu -> cpu / 4));
        assertEquals(List.of(0, 2, 1), CoreBinding.bySocket(List.of(0, 1, 2), cpu -> cpu == 2 ? 1 : 0));
        assertEquals(eight, CoreBinding.bySocket(eight, cpu -> 0), "one socket: as --map-by core");
        assertArrayEquals(new int[] {0, 4}, CoreBinding.plan("core", new boolean[2], CoreBinding.bySocket(eight, cpu -> cpu / 4), true));
    }

    /** More PEs than CPUs: one line; over 8 a CPU: refused unless --oversubscribe. */
    @Test
    void pesSharingCpusAreSaidAndFarTooManyRefused() throws LaunchOptions.UsageException {
        assertEquals(null, CoreBinding.sharing(2, 2, false));
        assertEquals("oshrun: 3 PEs share this machine's 2 CPUs (a waiting PE yields its CPU instead of spinning;"
                + " -q leaves this line out)", CoreBinding.sharing(3, 2, false));
        assertTrue(CoreBinding.sharing(16, 2, false).startsWith("oshrun: 16 PEs share"));
        String refused = assertThrows(LaunchOptions.UsageException.class, () -> CoreBinding.sharing(1000, 2, false)).getMessage();
        assertEquals("1000 PEs on this machine's 2 CPUs is over 8 a CPU: add --oversubscribe to start them anyway", refused);
        assertTrue(CoreBinding.sharing(17, 2, true).startsWith("oshrun: 17 PEs share"));
    }

    @Test
    void aCpuBoundToTwoPesIsShared() {
        int[] plan = CoreBinding.plan("core", new boolean[3], TWO, true); // 0, 1, 0
        assertTrue(CoreBinding.shared(plan, 0));
        assertFalse(CoreBinding.shared(plan, 1));
        assertTrue(CoreBinding.shared(plan, 2));
        int[] fits = CoreBinding.plan("auto", new boolean[2], TWO, true);
        assertFalse(CoreBinding.shared(fits, 0) || CoreBinding.shared(fits, 1));
    }

    @Test
    void withoutTasksetNothingIsBound() {
        assertArrayEquals(new int[] {-1, -1}, CoreBinding.plan("core", new boolean[2], TWO, false));
        assertArrayEquals(new int[] {-1, -1}, CoreBinding.plan("auto", new boolean[2], TWO, false));
    }

    @Test
    void commandIsPrefixedWithTaskset() {
        List<String> c = CoreBinding.bound(1, List.of("java", "-cp", "x", "Main"));
        assertEquals(List.of("-c", "1", "java", "-cp", "x", "Main"), c.subList(1, c.size()));
    }

    @Test
    void oshrunTakesBindTo() throws Exception {
        assertEquals("auto", LaunchOptions.parse(List.of("-np", "2", "Main"), Map.of()).bindTo());
        assertEquals("none", LaunchOptions.parse(List.of("--bind-to", "none", "-np", "2", "Main"), Map.of()).bindTo());
        assertEquals("core", LaunchOptions.parse(List.of("--bind-to=core", "-np", "2", "Main"), Map.of()).bindTo());
        LaunchOptions.UsageException e = assertThrows(LaunchOptions.UsageException.class,
                () -> LaunchOptions.parse(List.of("--bind-to", "socket", "-np", "2", "Main"), Map.of()));
        assertTrue(e.getMessage().contains("core, none or auto"), e.getMessage());
        assertTrue(LaunchOptions.help().contains("--bind-to core|none"));
    }
}
