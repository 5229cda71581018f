/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.SymByteArray;
import io.jshmem.SymCharArray;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymFloatArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymShortArray;
import io.jshmem.SymType;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Java conveniences on top of OpenSHMEM: bulk local copies between a symmetric array and a
 * Java array ({@code SymDoubleArray.get(index, dest, destIndex, nelems)} and friends) and the
 * scalar reductions of {@link ShmemTeam} ({@code long sumReduce(long)} ...), in one JVM over
 * simulated nodes, so every reduction algorithm a scalar can take is run.
 */
class ScalarReduceAndBulkCopyTest {
    private static final int ROUNDS = 40;

    @Test
    void bulkCopiesOfEveryTypeRoundTrip() throws Exception {
        try (InProcessJob job = new InProcessJob(new int[] {0}, true, "auto", false)) {
            job.all(me -> {
                Shmem s = job.shmem(me);
                SymLongArray l = s.malloc(SymType.LONG, 10);
                l.set(2, new long[] {-1, 7, Long.MIN_VALUE, 9}, 1, 3);
                long[] lo = new long[5];
                l.get(1, lo, 1, 4);
                assertArrayEquals(new long[] {0, 0, 7, Long.MIN_VALUE, 9}, lo);
                assertEquals(Long.MIN_VALUE, l.get(3));
                SymIntArray i = s.malloc(SymType.INT, 4);
                i.set(0, new int[] {1, 2, 3, 4}, 0, 4);
                int[] io = new int[4];
                i.get(0, io, 0, 4);
                assertArrayEquals(new int[] {1, 2, 3, 4}, io);
                SymShortArray sh = s.malloc(SymType.SHORT, 3);
                sh.set(1, new short[] {-5, 6}, 0, 2);
                short[] so = new short[3];
                sh.get(0, so, 0, 3);
                assertArrayEquals(new short[] {0, -5, 6}, so);
                SymByteArray b = s.malloc(SymType.BYTE, 3);
                b.set(0, new byte[] {1, -2, 3}, 0, 3);
                byte[] bo = new byte[2];
                b.get(1, bo, 0, 2);
                assertArrayEquals(new byte[] {-2, 3}, bo);
                SymCharArray c = s.malloc(SymType.CHAR, 3);
                c.set(0, "abc".toCharArray(), 0, 3);
                char[] co = new char[3];
                c.get(0, co, 0, 3);
                assertArrayEquals("abc".toCharArray(), co);
                SymFloatArray f = s.malloc(SymType.FLOAT, 2);
                f.set(0, new float[] {1.5f, Float.NaN}, 0, 2);
                float[] fo = new float[2];
                f.get(0, fo, 0, 2);
                assertArrayEquals(new float[] {1.5f, Float.NaN}, fo);
                SymDoubleArray d = s.malloc(SymType.DOUBLE, 6);
                double[] in = {0.25, -3, 1e300, Double.MIN_VALUE, -0.0, 6};
                d.set(0, in, 0, 6);
                double[] out = new double[6];
                d.get(0, out, 0, 6);
                assertArrayEquals(in, out);
                assertEquals(1e300, d.get(2)); // the element view agrees with the bulk copy
                d.get(6, out, 6, 0); // an empty range at the end
                d.set(6, in, 6, 0);
                return null;
            });
        }
    }

    @Test
    void bulkCopyArgumentErrors() throws Exception {
        try (InProcessJob job = new InProcessJob(new int[] {0}, true, "auto", false)) {
            job.all(me -> {
                Shmem s = job.shmem(me);
                SymDoubleArray d = s.malloc(SymType.DOUBLE, 8);
                double[] a = new double[8];
                ShmemException e = assertThrows(ShmemException.class, () -> d.get(5, a, 0, 4));
                assertTrue(e.getMessage().contains("PE 0") && e.getMessage().contains("[5, 9)")
                        && e.getMessage().contains("length 8"), e.getMessage());
                e = assertThrows(ShmemException.class, () -> d.set(-1, a, 0, 1));
                assertTrue(e.getMessage().contains("negative index"), e.getMessage());
                e = assertThrows(ShmemException.class, () -> d.get(0, a, 0, -1));
                assertTrue(e.getMessage().contains("negative count"), e.getMessage());
                assertThrows(NullPointerException.class, () -> d.get(0, null, 0, 1));
                assertThrows(NullPointerException.class, () -> d.set(0, null, 0, 0));
                assertThrows(IndexOutOfBoundsException.class, () -> d.get(0, a, 6, 3));
                assertThrows(IndexOutOfBoundsException.class, () -> d.set(0, a, -1, 1));
                SymLongArray l = s.malloc(SymType.LONG, 2);
                assertThrows(ShmemException.class, () -> l.set(1, new long[2], 0, 2));
                s.free(l);
                e = assertThrows(ShmemException.class, () -> l.get(0, new long[1], 0, 1));
                assertTrue(e.getMessage().contains("freed"), e.getMessage());
                return null;
            });
        }
    }

    /** Nodes of each PE and JSHMEM_COLL_ALGORITHM: push on one node, exchange of two, gather at 0, pull. */
    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of(new int[] {0, 0, 0, 0}, "auto"),
                Arguments.of(new int[] {0, 0, 0}, "pull"),
                Arguments.of(new int[] {0, 1}, "auto"),
                Arguments.of(new int[] {0, 0, 1, 1}, "auto"),
                Arguments.of(new int[] {0, 1, 2}, "auto"),
                Arguments.of(new int[] {0, 1, 2, 3}, "pull"));
    }

    @ParameterizedTest
    @MethodSource("shapes")
    void scalarReductionsGiveEveryMemberTheResult(int[] nodes, String algorithm) throws Exception {
        try (InProcessJob job = new InProcessJob(nodes, true, "auto", true, algorithm)) {
            int n = job.size();
            job.all(me -> {
                Shmem s = job.shmem(me);
                ShmemTeam w = s.teamWorld();
                SymLongArray src = s.malloc(SymType.LONG, 1);
                SymLongArray dst = s.malloc(SymType.LONG, 1);
                for (int r = 0; r < ROUNDS; r++) {
                    long sum = 0;
                    long prod = 1;
                    long and = -1;
                    long or = 0;
                    long xor = 0;
                    for (int p = 0; p < n; p++) {
                        long v = value(p, r);
                        sum += v;
                        prod *= v | 1;
                        and &= v;
                        or |= v;
                        xor ^= v;
                    }
                    long mine = value(me, r);
                    String at = "PE " + me + " round " + r + ": ";
                    assertEquals(sum, w.sumReduce(mine), at + "long sum");
                    assertEquals(prod, w.prodReduce(mine | 1), at + "long prod");
                    assertEquals(and, w.andReduce(mine), at + "long and");
                    assertEquals(or, w.orReduce(mine), at + "long or");
                    assertEquals(xor, w.xorReduce(mine), at + "long xor");
                    assertEquals(r + n - 1L << 33, w.maxReduce((long) r + me << 33), at + "long max");
                    assertEquals(-(r + n - 1L), w.minReduce(-(long) r - me), at + "long min");
                    assertEquals((int) sum, w.sumReduce((int) mine), at + "int sum");
                    assertEquals((int) prod, w.prodReduce((int) mine | 1), at + "int prod");
                    assertEquals((int) and, w.andReduce((int) mine), at + "int and");
                    assertEquals((int) or, w.orReduce((int) mine), at + "int or");
                    assertEquals((int) xor, w.xorReduce((int) mine), at + "int xor");
                    assertEquals(Integer.MIN_VALUE + r, w.minReduce(me == n - 1 ? Integer.MIN_VALUE + r : me), at + "int min");
                    assertEquals(r + n - 1, w.maxReduce(r + me), at + "int max");
                    assertEquals(n * (n - 1) / 2.0 + 0.5 * n * r, w.sumReduce(me + 0.5 * r), at + "double sum");
                    assertEquals(Math.pow(2, n * (n - 1) / 2.0), w.prodReduce(Math.pow(2, me)), at + "double prod");
                    assertEquals(r * 0.25 + n - 1, w.maxReduce(r * 0.25 + me), at + "double max");
                    assertEquals(-1e300, w.minReduce(me == 0 ? -1e300 : me + r), at + "double min");
                    // An array reduction and a barrier in between: the scalar words and the push buffers are shared.
                    src.set(0, me + r);
                    w.sumReduce(dst, src, 1);
                    assertEquals((long) n * (n - 1) / 2 + (long) n * r, dst.get(0), at + "array sum after scalars");
                    if (r % 8 == 0) {
                        s.barrierAll();
                    }
                }
                s.free(dst);
                s.free(src);
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }

    private static long value(int pe, int round) {
        return 0x5A5A_0000_0000L ^ (1L << pe) ^ (long) round << 20 ^ pe * 3L;
    }

    @Test
    void scalarReductionsOnSplitTeams() throws Exception {
        try (InProcessJob job = new InProcessJob(new int[] {0, 0, 1, 1}, true, "auto", false)) {
            job.all(me -> {
                Shmem s = job.shmem(me);
                // Columns of a 2x2 grid, even and odd world PEs: one PE of each node in each team.
                io.jshmem.TeamPair grid = s.teamWorld().split2d(2, null, 0, null, 0);
                ShmemTeam t = grid.yTeam();
                for (int r = 0; r < ROUNDS; r++) {
                    assertEquals(me % 2 == 0 ? 2L + 2 * r : 4L + 2 * r, t.sumReduce((long) me + r), "PE " + me + " round " + r);
                    assertEquals((double) (me % 2 + 2), t.maxReduce((double) me), "PE " + me + " round " + r);
                    assertEquals(4L * r + 6, s.teamWorld().sumReduce((long) me + r), "world, PE " + me + " round " + r);
                }
                t.close();
                grid.xTeam().close();
                ShmemException e = assertThrows(ShmemException.class, () -> t.sumReduce(1L));
                assertTrue(e.getMessage().contains("destroyed"), e.getMessage());
                assertThrows(ShmemException.class, () -> ShmemTeam.INVALID.maxReduce(1.0));
                return null;
            });
            assertEquals(List.of(), job.aborts());
        }
    }
}
