/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.ReduceOp;
import io.jshmem.ShmemTeam;
import io.jshmem.SymArray;
import io.jshmem.SymByteArray;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymFloatArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.TeamPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Team collectives with values checked: broadcast from every root, collect/fcollect,
 * alltoall(s) on all / even / odd PEs, every reduction on every type (boundary values, in place,
 * small and large), scans, and the errors of bad arguments.
 */
final class CollectiveCases {
    private CollectiveCases() {
    }

    /** Element counts: the small path, and one past the runtime's whole-array threshold (reduce-scatter). */
    private static final long[] COUNTS = {1, 7, 3000};

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(Case.of("coll.sync", CollectiveCases::sync));
        for (SymType<?> t : Elements.TYPES) {
            cases.add(Case.of("coll.broadcast-every-root." + t.name(), c -> broadcast(c, t)));
        }
        cases.add(Case.of("coll.broadcastmem", CollectiveCases::broadcastmem));
        cases.add(Case.of("coll.broadcast-large-back-to-back", CollectiveCases::broadcastLarge));
        cases.add(Case.of("coll.broadcast-large-source-rewritten", CollectiveCases::broadcastLargeSourceRewritten));
        for (SymType<?> t : Elements.TYPES) {
            cases.add(Case.of("coll.fcollect." + t.name(), c -> fcollect(c, t)));
            cases.add(Case.of("coll.collect." + t.name(), c -> collect(c, t)));
        }
        cases.add(Case.of("coll.collectmem-fcollectmem", CollectiveCases::collectmem));
        cases.add(Case.of("coll.alltoall.all", c -> alltoall(c, c.shmem.teamWorld(), "all")));
        cases.add(Case.atLeast(2, "coll.alltoall.even", c -> alltoallOnSplit(c, 0, "even")));
        cases.add(Case.atLeast(2, "coll.alltoall.odd", c -> alltoallOnSplit(c, 1, "odd")));
        cases.add(Case.of("coll.alltoalls.strides", CollectiveCases::alltoalls));
        cases.add(Case.of("coll.alltoallmem", CollectiveCases::alltoallmem));
        for (SymType<?> t : Elements.TYPES) {
            for (ReduceOp op : ReduceOp.values()) {
                if (op.integralOnly() && Elements.floating(t)) {
                    continue;
                }
                cases.add(Case.of("coll.reduce." + op.name().toLowerCase() + "." + t.name(), c -> reduce(c, t, op)));
            }
        }
        for (SymType<?> t : List.of(SymType.FLOAT, SymType.DOUBLE)) {
            String z = t == SymType.FLOAT ? "complexf" : "complexd";
            cases.add(Case.of("coll.reduce.complex-sum." + z, c -> complexReduce(c, t, false)));
            cases.add(Case.of("coll.reduce.complex-prod." + z, c -> complexReduce(c, t, true)));
        }
        cases.add(Case.of("coll.reduce.in-place", CollectiveCases::reduceInPlace));
        cases.add(Case.of("coll.reduce.large-back-to-back", c -> reduceLarge(c, c.shmem.teamWorld())));
        cases.add(Case.atLeast(2, "coll.reduce.large-back-to-back-pairs", CollectiveCases::reduceLargeOnPairs));
        cases.add(Case.of("coll.large-messages", CollectiveCases::largeMessages));
        cases.add(Case.atLeast(2, "coll.reduce.on-split-team", CollectiveCases::reduceOnTeam));
        for (SymType<?> t : Elements.TYPES) {
            cases.add(Case.of("coll.scan." + t.name(), c -> scan(c, t)));
        }
        cases.add(Case.of("coll.bad-arguments", CollectiveCases::badArguments));
        return cases;
    }

    private interface OnTeam {
        void run(ShmemTeam team, int start) throws Exception;
    }

    /** Runs {@code body} on the members of a stride-2 split starting at {@code start}. */
    private static void onSplit(CaseContext c, int start, OnTeam body) throws Exception {
        int size = (c.npes - start + 1) / 2;
        Optional<ShmemTeam> team = c.shmem.teamWorld().splitStrided(start, 2, size, null, 0);
        c.checkEquals(c.me % 2 == start, team.isPresent(), "membership of the stride-2 team from " + start);
        if (team.isPresent()) {
            try {
                body.run(team.get(), start);
            } finally {
                team.get().close();
            }
        }
        c.shmem.barrierAll();
    }

    private static void sync(CaseContext c) {
        // Each PE raises its slot on PE 0 before the sync; after it, PE 0 must see all of them.
        SymLongArray seen = c.calloc(SymType.LONG, c.npes);
        for (int round = 1; round <= 50; round++) {
            c.shmem.p(seen, c.me, round, 0);
            c.shmem.quiet();
            c.shmem.teamWorld().sync();
            if (c.me == 0) {
                for (int pe = 0; pe < c.npes; pe++) {
                    if (!c.checkEq(round, seen.get(pe), "round " + round + ": PE " + pe + "'s mark after sync")) {
                        return;
                    }
                }
            }
            c.shmem.teamWorld().sync();
        }
    }

    private static void broadcast(CaseContext c, SymType<?> t) {
        int n = 37;
        SymArray<?> src = c.malloc(t, n);
        SymArray<?> dst = c.malloc(t, n);
        ShmemTeam w = c.shmem.teamWorld();
        for (int root = 0; root < c.npes; root++) {
            for (int i = 0; i < n; i++) {
                Elements.set(src, i, Elements.value(t, c.me, i));
                Elements.set(dst, i, Elements.narrow(t, 99));
            }
            bcast(w, dst, src, n, root);
            for (int i = 0; i < n; i++) {
                long want = Elements.value(t, root, i);
                if (!c.checkEq(want, Elements.get(dst, i), "root " + root + ": dest[" + i + "]")) {
                    return;
                }
            }
        }
    }

    /**
     * Broadcasts larger than any internal buffer (40 KB and 320 KB), from every root in turn, one
     * after another without a barrier between them, each into a dest of its own (so every dest is
     * ready before any PE calls, as the spec requires): each dest holds its root's data.
     */
    private static void broadcastLarge(CaseContext c) {
        long[] sizes = {5_000, 40_000};
        ShmemTeam w = c.shmem.teamWorld();
        for (long n : sizes) {
            SymLongArray src = c.malloc(SymType.LONG, n);
            SymLongArray[] dst = new SymLongArray[c.npes * 2];
            for (int k = 0; k < dst.length; k++) {
                dst[k] = c.calloc(SymType.LONG, n);
            }
            for (long i = 0; i < n; i++) {
                src.set(i, c.me * 1_000_003L + i);
            }
            c.shmem.barrierAll();
            for (int k = 0; k < dst.length; k++) {
                w.broadcast(dst[k], src, n, k % c.npes);
            }
            for (int k = 0; k < dst.length; k++) {
                int root = k % c.npes;
                for (long i = 0; i < n; i += 997) {
                    if (!c.checkEq(root * 1_000_003L + i, dst[k].get(i), n + " longs, broadcast " + k + " (root " + root + "): dest[" + i + "]")) {
                        return;
                    }
                }
                if (!c.checkEq(root * 1_000_003L + n - 1, dst[k].get(n - 1), n + " longs, broadcast " + k + ": last element")) {
                    return;
                }
            }
            c.shmem.barrierAll();
            for (SymLongArray a : dst) {
                c.shmem.free(a);
            }
            c.shmem.free(src);
        }
    }

    /**
     * Large broadcasts from PE 0 with no barrier between them, PE 0 rewriting its source between
     * calls: every member must get each call's data, so the root may only return once every
     * member has read it.
     */
    private static void broadcastLargeSourceRewritten(CaseContext c) {
        long n = 5_000; // 40 KB: above the push buffers
        int calls = 8;
        ShmemTeam w = c.shmem.teamWorld();
        SymLongArray src = c.malloc(SymType.LONG, n);
        SymLongArray[] dst = new SymLongArray[calls];
        for (int k = 0; k < calls; k++) {
            dst[k] = c.calloc(SymType.LONG, n);
        }
        c.shmem.barrierAll();
        for (int k = 0; k < calls; k++) {
            if (c.me == 0) {
                for (long i = 0; i < n; i++) {
                    src.set(i, k * 1_000_003L + i);
                }
            }
            w.broadcast(dst[k], src, n, 0);
        }
        check:
        for (int k = 0; k < calls; k++) {
            for (long i = 0; i < n; i += 499) {
                if (!c.checkEq(k * 1_000_003L + i, dst[k].get(i), "broadcast " + k + ": dest[" + i + "]")) {
                    break check;
                }
            }
        }
        c.shmem.barrierAll();
        for (SymLongArray a : dst) {
            c.shmem.free(a);
        }
        c.shmem.free(src);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void bcast(ShmemTeam team, SymArray dst, SymArray src, long n, int root) {
        team.broadcast(dst, src, n, root);
    }

    private static void broadcastmem(CaseContext c) {
        SymByteArray src = c.malloc(SymType.BYTE, 1000);
        SymLongArray dst = c.calloc(SymType.LONG, 200);
        for (int i = 0; i < 1000; i++) {
            src.set(i, (byte) (i * 7 + c.me));
        }
        int root = c.npes - 1;
        c.shmem.teamWorld().broadcastmem(dst, src, 1000, root);
        for (int i = 0; i < 1000; i++) {
            byte got = dst.local().get(java.lang.foreign.ValueLayout.JAVA_BYTE, i);
            if (!c.checkEq((byte) (i * 7 + root), got, "byte " + i)) {
                return;
            }
        }
        c.checkEq(0, dst.get(199), "bytes past nbytes stay untouched");
    }

    private static void fcollect(CaseContext c, SymType<?> t) {
        int n = 5;
        SymArray<?> src = c.malloc(t, n);
        SymArray<?> dst = c.calloc(t, (long) n * c.npes);
        for (int i = 0; i < n; i++) {
            Elements.set(src, i, Elements.value(t, c.me, i));
        }
        fcollectRaw(c.shmem.teamWorld(), dst, src, n);
        for (int pe = 0; pe < c.npes; pe++) {
            for (int i = 0; i < n; i++) {
                if (!c.checkEq(Elements.value(t, pe, i), Elements.get(dst, (long) pe * n + i), "block of PE " + pe + " [" + i + "]")) {
                    return;
                }
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void fcollectRaw(ShmemTeam team, SymArray dst, SymArray src, long n) {
        team.fcollect(dst, src, n);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void collectRaw(ShmemTeam team, SymArray dst, SymArray src, long n) {
        team.collect(dst, src, n);
    }

    private static void collect(CaseContext c, SymType<?> t) {
        // PE k contributes k+1 elements (PE 0 one, ...), so the blocks have different sizes.
        long total = (long) c.npes * (c.npes + 1) / 2;
        SymArray<?> src = c.malloc(t, c.npes);
        SymArray<?> dst = c.calloc(t, total + 1);
        for (int i = 0; i <= c.me; i++) {
            Elements.set(src, i, Elements.value(t, c.me, i));
        }
        Elements.set(dst, total, Elements.narrow(t, 55));
        collectRaw(c.shmem.teamWorld(), dst, src, c.me + 1);
        long at = 0;
        for (int pe = 0; pe < c.npes; pe++) {
            for (int i = 0; i <= pe; i++, at++) {
                if (!c.checkEq(Elements.value(t, pe, i), Elements.get(dst, at), "element " + i + " of PE " + pe)) {
                    return;
                }
            }
        }
        c.checkEq(Elements.narrow(t, 55), Elements.get(dst, total), "the element after the last block is untouched");
    }

    private static void collectmem(CaseContext c) {
        SymByteArray src = c.malloc(SymType.BYTE, 64);
        SymByteArray dst = c.calloc(SymType.BYTE, 64L * c.npes);
        for (int i = 0; i < 64; i++) {
            src.set(i, (byte) (c.me * 16 + i));
        }
        c.shmem.teamWorld().fcollectmem(dst, src, 64);
        for (int pe = 0; pe < c.npes; pe++) {
            for (int i = 0; i < 64; i++) {
                if (!c.checkEq((byte) (pe * 16 + i), dst.get(pe * 64L + i), "fcollectmem byte " + i + " of PE " + pe)) {
                    return;
                }
            }
        }
        c.shmem.teamWorld().collectmem(dst, src, c.me + 1);
        long at = 0;
        for (int pe = 0; pe < c.npes; pe++) {
            for (int i = 0; i <= pe; i++, at++) {
                if (!c.checkEq((byte) (pe * 16 + i), dst.get(at), "collectmem byte " + i + " of PE " + pe)) {
                    return;
                }
            }
        }
    }

    private static void alltoallOnSplit(CaseContext c, int start, String which) throws Exception {
        // Symmetric allocation is collective over the world: allocate before the split, on every PE.
        SymLongArray src = c.calloc(SymType.LONG, 3L * c.npes);
        SymLongArray dst = c.calloc(SymType.LONG, 3L * c.npes);
        onSplit(c, start, (team, s) -> alltoall(c, team, which, src, dst));
    }

    private static void alltoall(CaseContext c, ShmemTeam team, String which) {
        alltoall(c, team, which, c.calloc(SymType.LONG, 3L * c.npes), c.calloc(SymType.LONG, 3L * c.npes));
    }

    private static void alltoall(CaseContext c, ShmemTeam team, String which, SymLongArray src, SymLongArray dst) {
        int n = team.nPes();
        int me = team.myPe();
        int per = 3;
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < per; k++) {
                src.set((long) j * per + k, me * 1000L + j * 10L + k);
            }
        }
        team.alltoall(dst, src, per);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < per; k++) {
                long want = i * 1000L + me * 10L + k;
                if (!c.checkEq(want, dst.get((long) i * per + k), which + ": block from team PE " + i + " [" + k + "]")) {
                    return;
                }
            }
        }
    }

    private static void alltoalls(CaseContext c) {
        int n = c.npes;
        long per = 4;
        long dst = 2;
        long sst = 3;
        long elems = per * n;
        SymLongArray src = c.calloc(SymType.LONG, (elems - 1) * sst + 1);
        SymLongArray out = c.calloc(SymType.LONG, (elems - 1) * dst + 1);
        for (int j = 0; j < n; j++) {
            for (long k = 0; k < per; k++) {
                src.set(sst * (j * per + k), c.me * 1000L + j * 10L + k);
            }
        }
        c.shmem.teamWorld().alltoalls(out, src, dst, sst, per);
        for (int i = 0; i < n; i++) {
            for (long k = 0; k < per; k++) {
                if (!c.checkEq(i * 1000L + c.me * 10L + k, out.get(dst * (i * per + k)), "block from PE " + i + " [" + k + "]")) {
                    return;
                }
                if (k < per - 1 || i < n - 1) {
                    c.checkEq(0, out.get(dst * (i * per + k) + 1), "the gap after element " + k + " of block " + i);
                }
            }
        }
    }

    private static void alltoallmem(CaseContext c) {
        int n = c.npes;
        SymByteArray src = c.malloc(SymType.BYTE, 8L * n);
        SymByteArray dst = c.calloc(SymType.BYTE, 8L * n);
        for (int j = 0; j < n; j++) {
            for (int k = 0; k < 8; k++) {
                src.set(j * 8L + k, (byte) (c.me * 40 + j * 8 + k));
            }
        }
        c.shmem.teamWorld().alltoallmem(dst, src, 8);
        for (int i = 0; i < n; i++) {
            for (int k = 0; k < 8; k++) {
                if (!c.checkEq((byte) (i * 40 + c.me * 8 + k), dst.get(i * 8L + k), "byte " + k + " from PE " + i)) {
                    return;
                }
            }
        }
    }

    private static void reduce(CaseContext c, SymType<?> t, ReduceOp op) {
        for (long n : COUNTS) {
            SymArray<?> src = c.malloc(t, n);
            SymArray<?> dst = c.malloc(t, n);
            for (long i = 0; i < n; i++) {
                Elements.set(src, i, Elements.value(t, c.me, i));
            }
            reduceRaw(c.shmem.teamWorld(), op, dst, src, n);
            for (long i = 0; i < n; i++) {
                long want = Elements.value(t, 0, i);
                for (int pe = 1; pe < c.npes; pe++) {
                    want = Elements.combine(t, op, want, Elements.value(t, pe, i));
                }
                long got = Elements.get(dst, i);
                if (!c.check(want == got, op + " of " + n + " " + t.name() + "s, element " + i + ": expected "
                        + Elements.show(t, want) + ", got " + Elements.show(t, got))) {
                    return;
                }
            }
            c.shmem.free(dst);
            c.shmem.free(src);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static void reduceRaw(ShmemTeam team, ReduceOp op, SymArray dst, SymArray src, long n) {
        switch (op) {
            case AND -> team.andReduce(dst, src, n);
            case OR -> team.orReduce(dst, src, n);
            case XOR -> team.xorReduce(dst, src, n);
            case MAX -> team.maxReduce(dst, src, n);
            case MIN -> team.minReduce(dst, src, n);
            case SUM -> team.sumReduce(dst, src, n);
            case PROD -> team.prodReduce(dst, src, n);
            case UMAX -> team.unsignedMaxReduce(dst, src, n);
            case UMIN -> team.unsignedMinReduce(dst, src, n);
        }
    }

    /**
     * Complex numbers per call: within the push buffers, beyond them (reduce-scatter, pushed
     * slices; a pair's whole-input exchange) and beyond the 64 KiB landing area (several rounds).
     */
    private static final long[] COMPLEX_COUNTS = {1, 7, 3000, 9000};

    /**
     * complexSumReduce / complexProdReduce (shmem_complex{f,d}_{sum,prod}_reduce) on (re, im)
     * pairs of float or double arrays, out of place and in place, on the world team and on pairs
     * of PEs {@code npes / 2} apart (across the hosts in a job of two hosts). The parts are small
     * integers, imaginary parts never 0, so every partial result is exact in float: the check is
     * exact against a sequential reference in team order, and a product taken part by part
     * (re * re, im * im) gives other values (checked too, so that the values keep telling them apart).
     */
    private static void complexReduce(CaseContext c, SymType<?> t, boolean prod) {
        complexReduceOn(c, c.shmem.teamWorld(), t, prod);
        if (c.npes >= 2) {
            onPairs(c, team -> complexReduceOn(c, team, t, prod));
        }
    }

    private static void complexReduceOn(CaseContext c, ShmemTeam team, SymType<?> t, boolean prod) {
        int me = team.myPe();
        int n = team.nPes();
        for (long count : COMPLEX_COUNTS) {
            SymArray<?> src = c.malloc(t, 2 * count);
            SymArray<?> dst = c.malloc(t, 2 * count);
            for (boolean inPlace : new boolean[] {false, true}) {
                String what = (prod ? "complexProdReduce" : "complexSumReduce") + " of " + count + " " + t.name()
                        + " pairs on " + n + " PEs" + (inPlace ? " in place" : "");
                for (long k = 0; k < count; k++) {
                    setPart(src, 2 * k, complexRe(me, k));
                    setPart(src, 2 * k + 1, complexIm(me, k));
                }
                SymArray<?> into = inPlace ? src : dst;
                complexRaw(team, prod, into, src, count);
                boolean tellsApart = n == 1 || !prod;
                for (long k = 0; k < count; k++) {
                    double wr = complexRe(0, k);
                    double wi = complexIm(0, k);
                    double nr = wr;
                    double ni = wi;
                    for (int p = 1; p < n; p++) {
                        double yr = complexRe(p, k);
                        double yi = complexIm(p, k);
                        if (prod) {
                            double r = wr * yr - wi * yi;
                            wi = wr * yi + wi * yr;
                            wr = r;
                            nr *= yr;
                            ni *= yi;
                        } else {
                            wr += yr;
                            wi += yi;
                        }
                    }
                    tellsApart |= nr != wr || ni != wi;
                    double gr = getPart(into, 2 * k);
                    double gi = getPart(into, 2 * k + 1);
                    if (!c.check(gr == wr && gi == wi, what + ", element " + k + ": expected (" + wr + ", " + wi
                            + "), got (" + gr + ", " + gi + ")")) {
                        break;
                    }
                }
                c.check(tellsApart, what + ": the values do not tell a complex product from a part-by-part one");
            }
            c.shmem.free(dst);
            c.shmem.free(src);
        }
    }

    /** Real part of complex number {@code k} of team PE {@code p}: 1, 2 or -1. */
    private static double complexRe(int p, long k) {
        return new int[] {1, 2, -1}[(int) ((p + k) % 3)];
    }

    /** Imaginary part: -1, 1 or 2, never 0 (|z|^2 <= 8: a product over 8 PEs is at most 4096). */
    private static double complexIm(int p, long k) {
        return new int[] {-1, 1, 2}[(int) ((2 * p + k) % 3)];
    }

    private static void setPart(SymArray<?> a, long i, double v) {
        if (a instanceof SymFloatArray f) {
            f.set(i, (float) v);
        } else {
            ((SymDoubleArray) a).set(i, v);
        }
    }

    private static double getPart(SymArray<?> a, long i) {
        return a instanceof SymFloatArray f ? f.get(i) : ((SymDoubleArray) a).get(i);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void complexRaw(ShmemTeam team, boolean prod, SymArray dst, SymArray src, long count) {
        if (prod) {
            team.complexProdReduce(dst, src, count);
        } else {
            team.complexSumReduce(dst, src, count);
        }
    }

    private static void reduceInPlace(CaseContext c) {
        for (long n : COUNTS) {
            SymLongArray a = c.malloc(SymType.LONG, n);
            for (long i = 0; i < n; i++) {
                a.set(i, c.me + i);
            }
            c.shmem.teamWorld().sumReduce(a, a, n);
            long base = (long) c.npes * (c.npes - 1) / 2;
            for (long i = 0; i < n; i++) {
                if (!c.checkEq(base + c.npes * i, a.get(i), "in-place sum of " + n + ", element " + i)) {
                    return;
                }
            }
        }
    }

    /**
     * Messages far above the push buffers and the landing area (megabytes, many rounds):
     * broadcasts from two roots, an fcollect and an alltoall of 256 KiB blocks, and an int
     * max-reduction of 2 MiB, back to back without barriers; every element checked.
     */
    private static void largeMessages(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        int np = c.npes;
        long bn = 1 << 18;
        long block = 1 << 15;
        int rn = 1 << 19;
        SymLongArray bsrc = c.malloc(SymType.LONG, bn);
        SymLongArray bdst0 = c.calloc(SymType.LONG, bn);
        SymLongArray bdst1 = c.calloc(SymType.LONG, bn);
        SymLongArray gsrc = c.malloc(SymType.LONG, block * np);
        SymLongArray fdst = c.calloc(SymType.LONG, block * np);
        SymLongArray adst = c.calloc(SymType.LONG, block * np);
        SymIntArray rsrc = c.malloc(SymType.INT, rn);
        SymIntArray rdst = c.calloc(SymType.INT, rn);
        for (long i = 0; i < bn; i++) {
            bsrc.set(i, c.me * 1_000_003L + i);
        }
        for (long i = 0; i < block * np; i++) {
            gsrc.set(i, c.me * 10_000_019L + i);
        }
        for (int i = 0; i < rn; i++) {
            rsrc.set(i, (int) ((i * 2654435761L + c.me * 40503L) % 1_000_003));
        }
        c.shmem.barrierAll();
        w.broadcast(bdst0, bsrc, bn, 0);
        w.broadcast(bdst1, bsrc, bn, np - 1);
        w.fcollect(fdst, gsrc, block);
        w.alltoall(adst, gsrc, block);
        w.maxReduce(rdst, rsrc, rn);
        for (long i = 0; i < bn; i++) {
            if (!c.checkEq(i, bdst0.get(i), "broadcast of " + bn + " longs from PE 0: dest[" + i + "]")
                    || !c.checkEq((np - 1) * 1_000_003L + i, bdst1.get(i), "broadcast of " + bn + " longs from PE " + (np - 1) + ": dest[" + i + "]")) {
                return;
            }
        }
        for (int pe = 0; pe < np; pe++) {
            for (long i = 0; i < block; i++) {
                if (!c.checkEq(pe * 10_000_019L + i, fdst.get(pe * block + i), "fcollect of " + block + " longs, block of PE " + pe + " [" + i + "]")
                        || !c.checkEq(pe * 10_000_019L + c.me * block + i, adst.get(pe * block + i),
                                "alltoall of " + block + " longs, block from PE " + pe + " [" + i + "]")) {
                    return;
                }
            }
        }
        for (int i = 0; i < rn; i++) {
            int want = Integer.MIN_VALUE;
            for (int pe = 0; pe < np; pe++) {
                want = Math.max(want, (int) ((i * 2654435761L + pe * 40503L) % 1_000_003));
            }
            if (!c.checkEq(want, rdst.get(i), "max_reduce of " + rn + " ints, element " + i)) {
                return;
            }
        }
    }

    /**
     * Sum reductions of longs and doubles of sizes on both sides of the runtime's thresholds (whole
     * array or reduce-scatter, what fits the push buffers at 2-8 PEs; counts not divisible by the
     * number of PEs), all issued one after another without a barrier, every other one in place.
     * The doubles mix magnitudes so that the sum depends on the order of the additions: every PE
     * must get the team-order sum (left to right), or the team-order inputs grouped as recursive
     * doubling and Rabenseifner group them ({@link #treeSum}: across nodes over 8 PEs, or forced),
     * and the same bits as every other PE.
     */
    private static void reduceLarge(CaseContext c, ShmemTeam w) {
        long[] counts = {255, 257, 1023, 1025, 2047, 3001, 8192, 8193, 40_001};
        int np = w.nPes();
        int[] members = new int[np]; // team order
        for (int k = 0; k < np; k++) {
            members[k] = w.translatePe(k, c.shmem.teamWorld());
        }
        int k = counts.length;
        SymLongArray[] src = new SymLongArray[k];
        SymLongArray[] dst = new SymLongArray[k];
        SymDoubleArray[] dsrc = new SymDoubleArray[k];
        SymDoubleArray[] ddst = new SymDoubleArray[k];
        for (int j = 0; j < k; j++) {
            long n = counts[j];
            src[j] = c.malloc(SymType.LONG, n);
            dsrc[j] = c.malloc(SymType.DOUBLE, n);
            dst[j] = j % 2 == 0 ? src[j] : c.malloc(SymType.LONG, n);
            ddst[j] = j % 2 == 1 ? dsrc[j] : c.malloc(SymType.DOUBLE, n);
            for (long i = 0; i < n; i++) {
                src[j].set(i, largeValue(c.me, i, j));
                dsrc[j].set(i, mixedMagnitude(c.me, i));
            }
        }
        c.shmem.barrierAll();
        for (int j = 0; j < k; j++) {
            w.sumReduce(dst[j], src[j], counts[j]);
            w.sumReduce(ddst[j], dsrc[j], counts[j]);
        }
        long bits = 17;
        for (int j = 0; j < k; j++) {
            long n = counts[j];
            double[] inputs = new double[np];
            for (long i = 0; i < n; i++) {
                long want = 0;
                double wantD = mixedMagnitude(members[0], i);
                for (int m = 0; m < np; m++) {
                    want += largeValue(members[m], i, j);
                    wantD = m == 0 ? wantD : wantD + mixedMagnitude(members[m], i);
                    inputs[m] = mixedMagnitude(members[m], i);
                }
                double tree = treeSum(inputs);
                double got = ddst[j].get(i);
                bits = bits * 31 + Double.doubleToRawLongBits(got);
                if (!c.checkEq(want, dst[j].get(i), "sum of " + n + " longs (" + (j % 2 == 0 ? "in place" : "into another array")
                        + "), element " + i) || !c.check(Double.doubleToRawLongBits(wantD) == Double.doubleToRawLongBits(got)
                        || Double.doubleToRawLongBits(tree) == Double.doubleToRawLongBits(got), "sum of " + n + " doubles, element "
                        + i + ": expected the team-order sum " + wantD + " (or " + tree + ", grouped as recursive doubling does), got " + got)) {
                    return;
                }
            }
        }
        SymLongArray mine = c.calloc(SymType.LONG, 1);
        SymLongArray all = c.calloc(SymType.LONG, c.npes);
        mine.set(0, bits);
        w.fcollect(all, mine, 1);
        for (int m = 0; m < np; m++) {
            if (!c.checkEq(bits, all.get(m), "digest of PE " + members[m] + "'s double sums (the bits must be the same everywhere)")) {
                return;
            }
        }
    }

    /**
     * {@link #reduceLarge} on teams of two (PE i with PE i + npes/2, the columns of a 2-D split; a
     * third member where npes is odd): on two hosts each pair spans both, where two members
     * exchange their whole inputs instead of reduce-scatter then allgather.
     */
    private static void reduceLargeOnPairs(CaseContext c) {
        onPairs(c, team -> reduceLarge(c, team));
    }

    /** Runs {@code body} on the pairs of PEs {@code npes / 2} apart (the y teams of a 2d split; a third member where npes is odd). */
    private static void onPairs(CaseContext c, java.util.function.Consumer<ShmemTeam> body) {
        TeamPair teams = c.shmem.teamWorld().split2d(c.npes / 2, null, 0, null, 0);
        try {
            body.accept(teams.yTeam());
        } finally {
            teams.xTeam().close();
            teams.yTeam().close();
        }
    }

    private static long largeValue(int pe, long i, int j) {
        return pe * 1_000_003L + i * 7 + j;
    }

    /** Alternately huge and small, signs mixed: a sum of these rounds differently in another order. */
    /**
     * The sum of {@code x} (in team order) as recursive doubling and Rabenseifner group it: with p2
     * the largest power of two up to n, the first 2 (n - p2) inputs added in pairs, then the p2
     * partial sums added as a balanced tree, the lower half first at every level.
     */
    static double treeSum(double[] x) {
        int n = x.length;
        int p2 = Integer.highestOneBit(n);
        int rem = n - p2;
        double[] part = new double[p2];
        for (int v = 0; v < p2; v++) {
            part[v] = v < rem ? x[2 * v] + x[2 * v + 1] : x[v + rem];
        }
        for (int width = 1; width < p2; width *= 2) {
            for (int v = 0; v < p2; v += 2 * width) {
                part[v] = part[v] + part[v + width];
            }
        }
        return part[0];
    }

    private static double mixedMagnitude(int pe, long i) {
        double scale = (pe + i) % 2 == 0 ? 1e16 : 1.0;
        return scale * (1 + i % 13) * ((pe + i) % 3 == 0 ? -1 : 1) + pe * 0.1 + i * 1e-3;
    }

    private static void reduceOnTeam(CaseContext c) throws Exception {
        SymLongArray src = c.calloc(SymType.LONG, 2);
        SymLongArray dst = c.calloc(SymType.LONG, 2);
        onSplit(c, 1, (team, s) -> {
            src.set(0, c.me);
            src.set(1, 1);
            team.sumReduce(dst, src, 2);
            long want = 0;
            for (int pe = 1; pe < c.npes; pe += 2) {
                want += pe;
            }
            c.checkEq(want, dst.get(0), "sum of the odd PE numbers over the odd team");
            c.checkEq(team.nPes(), dst.get(1), "member count over the odd team");
        });
    }

    private static void scan(CaseContext c, SymType<?> t) {
        int n = 9;
        SymArray<?> src = c.malloc(t, n);
        SymArray<?> in = c.malloc(t, n);
        SymArray<?> ex = c.malloc(t, n);
        for (int i = 0; i < n; i++) {
            Elements.set(src, i, Elements.value(t, c.me, i));
        }
        scanRaw(c.shmem.teamWorld(), in, src, n, true);
        scanRaw(c.shmem.teamWorld(), ex, src, n, false);
        for (int i = 0; i < n; i++) {
            long zero = Elements.floating(t) ? (t == SymType.FLOAT ? Float.floatToRawIntBits(0f) : Double.doubleToRawLongBits(0d)) : 0;
            long acc = zero;
            for (int pe = 0; pe < c.me; pe++) {
                acc = Elements.combine(t, ReduceOp.SUM, acc, Elements.value(t, pe, i));
            }
            if (!c.check(acc == Elements.get(ex, i), "exscan element " + i + ": expected " + Elements.show(t, acc) + ", got "
                    + Elements.show(t, Elements.get(ex, i)))) {
                return;
            }
            acc = Elements.combine(t, ReduceOp.SUM, acc, Elements.value(t, c.me, i));
            if (!c.check(acc == Elements.get(in, i), "inscan element " + i + ": expected " + Elements.show(t, acc) + ", got "
                    + Elements.show(t, Elements.get(in, i)))) {
                return;
            }
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void scanRaw(ShmemTeam team, SymArray dst, SymArray src, long n, boolean inclusive) {
        if (inclusive) {
            team.sumInscan(dst, src, n);
        } else {
            team.sumExscan(dst, src, n);
        }
    }

    private static void badArguments(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        SymLongArray a = c.calloc(SymType.LONG, 4);
        SymLongArray b = c.calloc(SymType.LONG, 4);
        // Every check below fails on every PE before any communication, so no PE waits for another.
        c.expectShmemException("broadcast from root nPes", () -> w.broadcast(a, b, 4, c.npes), "PE " + c.npes);
        c.expectShmemException("broadcast from root -1", () -> w.broadcast(a, b, 4, -1), "PE -1");
        c.expectShmemException("broadcast of more elements than dest has", () -> w.broadcast(a, b, 5, 0), "needs");
        c.expectShmemException("fcollect into a dest too small", () -> w.fcollect(a, b, 4 + (c.npes > 1 ? 0 : 1)), "needs");
        c.expectShmemException("negative count", () -> w.sumReduce(a, b, -1), "negative");
        io.jshmem.SymDoubleArray d = c.calloc(SymType.DOUBLE, 4);
        c.expectShmemException("xor of doubles", () -> w.xorReduce(d, d, 1), "not defined for double");
        c.expectShmemException("unsigned max of doubles", () -> w.unsignedMaxReduce(d, d, 1), "not defined for double");
        // Counts whose byte sizes wrap around a long: refused before the collective begins (they desynchronized the team).
        c.expectShmemException("a sum of Long.MAX_VALUE longs", () -> w.sumReduce(a, b, Long.MAX_VALUE), "more bytes than a long");
        c.expectShmemException("an alltoall of Long.MAX_VALUE / 2 longs per PE", () -> w.alltoall(a, b, Long.MAX_VALUE / 2),
                "more bytes than a long");
        if (c.npes > 1) { // one PE's one element spans no stride
            c.expectShmemException("alltoalls whose strides span more than a long", () -> w.alltoalls(a, b, 1L << 62, 1, 1),
                    "more bytes than a long");
        }
        c.expectShmemException("complex sum of longs", () -> w.complexSumReduce(a, b, 1), "not for long");
        c.expectShmemException("complex product of 3 complex doubles in 4 doubles", () -> w.complexProdReduce(d, d, 3), "needs");
        c.expectShmemException("complex sum of a negative count", () -> w.complexSumReduce(d, d, -1), "negative");
        c.expectShmemException("alltoalls with stride 0", () -> w.alltoalls(a, b, 0, 1, 1), "stride");
        // A collect's size in all is known only once the members' sizes are: every PE learns it, and all throw.
        c.expectShmemException("collect into a dest too small", () -> w.collect(a, b, 4 + (c.npes > 1 ? 0 : 1)), "needs");
        c.shmem.barrierAll();
        w.sumReduce(a, b, 4); // the team still works
        c.checkEq(0, a.get(0), "a reduction after the errors");
    }
}
