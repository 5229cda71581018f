/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.ReduceOp;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.SymArray;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.TeamPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The Java conveniences beside the OpenSHMEM routines: the scalar reductions of a team
 * ({@code long sumReduce(long)} ..., what shmem_TYPE_OP_reduce computes with nreduce 1) and the
 * bulk local copies between a symmetric array and a Java array ({@code get(index, dest,
 * destIndex, nelems)}, {@code set(index, source, sourceIndex, nelems)}). Expected values are
 * computed here ({@link Elements#combine}, in team order), independently of the runtime.
 */
final class ConvenienceCases {
    private ConvenienceCases() {
    }

    /** The types with scalar reductions. */
    private static final List<SymType<?>> SCALAR_TYPES = List.of(SymType.LONG, SymType.INT, SymType.DOUBLE);
    private static final int ROUNDS = 30;

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (SymType<?> t : SCALAR_TYPES) {
            for (ReduceOp op : ReduceOp.values()) {
                if (op.bitwise() && Elements.floating(t) || op == ReduceOp.UMAX || op == ReduceOp.UMIN) {
                    continue; // the unsigned reductions have no scalar form
                }
                cases.add(Case.of("coll.scalar-reduce." + op.name().toLowerCase(Locale.ROOT) + "." + t.name(), c -> scalarReduce(c, t, op)));
            }
        }
        cases.add(Case.of("coll.scalar-reduce.between-collectives", ConvenienceCases::scalarBetweenCollectives));
        cases.add(Case.atLeast(2, "coll.scalar-reduce.on-split-teams", ConvenienceCases::scalarOnSplitTeams));
        for (TypeOps<?, ?> t : TypeOps.ALL) {
            cases.add(Case.of("array.bulk-copy." + t.name, c -> bulkCopy(c, t)));
        }
        cases.add(Case.of("bad.bulk-copy-arguments", ConvenienceCases::bulkCopyArguments));
        return cases;
    }

    /**
     * The scalar reduction {@code op} of type {@code t} on {@code team}, value and result as bits
     * ({@link Elements}: an int sign-extended, a double's raw bits).
     */
    static long scalar(ShmemTeam team, SymType<?> t, ReduceOp op, long bits) {
        return switch (t.name()) {
            case "long" -> switch (op) {
                case AND -> team.andReduce(bits);
                case OR -> team.orReduce(bits);
                case XOR -> team.xorReduce(bits);
                case MAX -> team.maxReduce(bits);
                case MIN -> team.minReduce(bits);
                case SUM -> team.sumReduce(bits);
                case PROD -> team.prodReduce(bits);
                case UMAX, UMIN -> throw new IllegalArgumentException(op + ": no scalar form");
            };
            case "int" -> switch (op) {
                case AND -> team.andReduce((int) bits);
                case OR -> team.orReduce((int) bits);
                case XOR -> team.xorReduce((int) bits);
                case MAX -> team.maxReduce((int) bits);
                case MIN -> team.minReduce((int) bits);
                case SUM -> team.sumReduce((int) bits);
                case PROD -> team.prodReduce((int) bits);
                case UMAX, UMIN -> throw new IllegalArgumentException(op + ": no scalar form");
            };
            default -> {
                double v = Double.longBitsToDouble(bits);
                yield Double.doubleToRawLongBits(switch (op) {
                    case MAX -> team.maxReduce(v);
                    case MIN -> team.minReduce(v);
                    case SUM -> team.sumReduce(v);
                    case PROD -> team.prodReduce(v);
                    default -> throw new IllegalArgumentException(op + " on double");
                });
            }
        };
    }

    /** What every member of a team of world PEs {@code members} gets, combined in team order. */
    private static long expected(SymType<?> t, ReduceOp op, int[] members, int round) {
        long r = Elements.value(t, members[0], round);
        for (int k = 1; k < members.length; k++) {
            r = Elements.combine(t, op, r, Elements.value(t, members[k], round));
        }
        return r;
    }

    private static int[] world(int n) {
        int[] all = new int[n];
        for (int i = 0; i < n; i++) {
            all[i] = i;
        }
        return all;
    }

    /** Every round a value per PE (boundary values included, so integral sums and products wrap), on the world team. */
    private static void scalarReduce(CaseContext c, SymType<?> t, ReduceOp op) {
        ShmemTeam w = c.shmem.teamWorld();
        int[] all = world(c.npes);
        for (int r = 0; r < ROUNDS; r++) {
            long want = expected(t, op, all, r);
            long got = scalar(w, t, op, Elements.value(t, c.me, r));
            c.check(got == want, "round " + r + ": " + op + " of " + t.name() + " gave " + Elements.show(t, got)
                    + ", expected " + Elements.show(t, want));
        }
    }

    /**
     * Scalar reductions among the other collectives of the team (broadcasts, array reductions
     * small and beyond the push buffers, barriers, syncs): they share the team's epochs and
     * buffers, and the scalars' internal words must not disturb the arrays nor be disturbed.
     */
    private static void scalarBetweenCollectives(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        int n = c.npes;
        int large = 2048; // 16 KiB of longs: beyond the push buffers
        SymLongArray src = c.calloc(SymType.LONG, large);
        SymLongArray dst = c.calloc(SymType.LONG, large);
        for (int r = 0; r < ROUNDS; r++) {
            c.checkEq((long) n * (n - 1) / 2 + (long) n * r, w.sumReduce((long) c.me + r), "round " + r + ": sumReduce(long)");
            src.set(0, c.me + 100L * r);
            w.broadcast(dst, src, 1, r % n);
            c.checkEq(r % n + 100L * r, dst.get(0), "round " + r + ": broadcast after a scalar reduction");
            double max = w.maxReduce(c.me * 0.5 + r);
            c.check(max == (n - 1) * 0.5 + r, "round " + r + ": maxReduce(double) gave " + max);
            w.sumReduce(dst, src, 1);
            c.checkEq((long) n * (n - 1) / 2 + 100L * n * r, dst.get(0), "round " + r + ": array sumReduce between scalars");
            int bits = 0;
            for (int p = 0; p < n; p++) {
                bits ^= 1 << (p % 31);
            }
            c.checkEq(bits, w.xorReduce(1 << (c.me % 31)), "round " + r + ": xorReduce(int)");
            if (r % 10 == 3) {
                for (int i = 0; i < large; i++) {
                    src.set(i, c.me + i);
                }
                w.maxReduce(dst, src, large);
                c.checkEq(n - 1L + large - 1, dst.get(large - 1), "round " + r + ": large maxReduce between scalars");
            }
            if (r % 5 == 0) {
                c.shmem.barrierAll();
            }
            if (r % 7 == 0) {
                w.sync();
            }
            c.checkEq(-(long) r - (n - 1), w.minReduce(-(long) r - c.me), "round " + r + ": minReduce(long)");
        }
    }

    /**
     * On the rows and columns of a grid of two columns (teams of their own slots), beside the
     * world team; then on the destroyed teams and on ShmemTeam.INVALID, which throw.
     */
    private static void scalarOnSplitTeams(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        TeamPair grid = w.split2d(2, null, 0, null, 0);
        ShmemTeam row = grid.xTeam();
        ShmemTeam column = grid.yTeam();
        int rowStart = c.me - c.me % 2;
        int lastInColumn = (c.npes - 1 - c.me % 2) / 2 * 2 + c.me % 2;
        for (int r = 0; r < ROUNDS; r++) {
            long rowSum = 0;
            for (int k = 0; k < row.nPes(); k++) {
                rowSum += rowStart + k + r;
            }
            c.checkEq(rowSum, row.sumReduce((long) c.me + r), "round " + r + ": row sumReduce(long)");
            double max = column.maxReduce(c.me + 0.25 * r);
            c.check(max == lastInColumn + 0.25 * r, "round " + r + ": column maxReduce(double) gave " + max + ", expected "
                    + (lastInColumn + 0.25 * r));
            c.checkEq(-r, w.minReduce(c.me - r), "round " + r + ": world minReduce(int)");
            c.checkEq(column.nPes(), column.sumReduce(1), "round " + r + ": column sumReduce(int) of ones");
        }
        row.close();
        column.close();
        c.expectShmemException("scalar reduction on a destroyed team", () -> row.sumReduce(1L), "destroyed");
        Throwable invalid = CaseContext.run(() -> ShmemTeam.INVALID.maxReduce(1.0));
        c.check(invalid instanceof ShmemException, "maxReduce(double) on ShmemTeam.INVALID: expected ShmemException, got "
                + (invalid == null ? "no exception" : CaseContext.describe(invalid)));
        c.shmem.barrierAll();
    }

    /**
     * A typed bulk set into this PE's copy is what its memory holds (read raw) and what another PE
     * reads after a barrier; a bulk get returns what another PE put, at the right places of the
     * Java array, leaving the rest of it alone.
     */
    private static <A, S extends SymArray<A>> void bulkCopy(CaseContext c, TypeOps<A, S> t) {
        int n = 37;
        S sym = c.calloc(t.type, n + 8);
        A mine = t.patternArray(c.me, n + 4, 1);
        t.bulkSet(sym, 3, mine, 2, n);
        for (int i = 0; i < n + 8; i++) {
            long want = i >= 3 && i < 3 + n ? t.bits(mine, i - 1) : 0;
            c.check(t.localRaw(sym, i) == want, "after set: element " + i + " is " + t.show(t.localRaw(sym, i)) + ", expected "
                    + t.show(want));
        }
        c.shmem.barrierAll();
        A leftPattern = t.patternArray(c.left(), n + 4, 1);
        for (int i = 0; i < n; i += 5) {
            long got = t.g(c.shmem, sym, 3 + i, c.left());
            c.check(got == t.bits(leftPattern, 2 + i), "element " + (3 + i) + " of PE " + c.left() + " (set in bulk there): "
                    + t.show(got) + ", expected " + t.show(t.bits(leftPattern, 2 + i)));
        }
        c.shmem.barrierAll();
        c.shmem.put(sym, 0, t.patternArray(c.me, n, 2), 0, n, c.right());
        c.shmem.barrierAll();
        A got = t.newArray(n + 2);
        t.bulkGet(sym, 0, got, 1, n);
        A fromLeft = t.patternArray(c.left(), n, 2);
        c.check(t.bits(got, 0) == 0 && t.bits(got, n + 1) == 0, "bulk get wrote outside dest[1, " + (n + 1) + ")");
        for (int i = 0; i < n; i++) {
            c.check(t.bits(got, 1 + i) == t.bits(fromLeft, i), "bulk get: element " + i + " (put by PE " + c.left() + ") is "
                    + t.show(t.bits(got, 1 + i)) + ", expected " + t.show(t.bits(fromLeft, i)));
        }
        t.bulkGet(sym, n + 8, got, n + 2, 0); // empty, at the very end of both
        t.bulkSet(sym, 0, got, 0, 0);
        c.shmem.barrierAll();
    }

    /** Bounds and arguments of the bulk copies: the symmetric side throws ShmemException naming the PE. */
    private static void bulkCopyArguments(CaseContext c) {
        SymDoubleArray d = c.calloc(SymType.DOUBLE, 8);
        double[] a = new double[8];
        c.expectShmemException("get beyond the end", () -> d.get(5, a, 0, 4), "[5, 9)", "length 8");
        c.expectShmemException("set beyond the end", () -> d.set(8, a, 0, 1), "[8, 9)");
        c.expectShmemException("set at a negative index", () -> d.set(-1, a, 0, 1), "negative index");
        c.expectShmemException("get of a negative count", () -> d.get(0, a, 0, -1), "negative count");
        c.expectNullPointer("get into null", () -> d.get(0, null, 0, 1), "local array is null");
        c.expectNullPointer("set from null", () -> d.set(0, null, 0, 1), "local array is null");
        c.expectArgumentException("get into a Java array too short", () -> d.get(0, a, 6, 3));
        c.expectArgumentException("set from a negative Java index", () -> d.set(0, a, -1, 1));
        SymLongArray freed = c.shmem.malloc(SymType.LONG, 2);
        c.shmem.free(freed);
        c.expectShmemException("get from a freed object", () -> freed.get(0, new long[1], 0, 1), "freed");
        c.expectShmemException("set into a freed object", () -> freed.set(0, new long[1], 0, 1), "freed");
    }
}
