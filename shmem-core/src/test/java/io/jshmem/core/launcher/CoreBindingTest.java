package io.jshmem.core.launcher;

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
