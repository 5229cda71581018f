/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.SessionConfig;
import io.jshmem.Shmem;
import io.jshmem.ShmemContext;
import io.jshmem.ShmemException;
import io.jshmem.ShmemTeam;
import io.jshmem.ShmemVersion;
import io.jshmem.SignalOp;
import io.jshmem.SymArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.TeamConfig;
import io.jshmem.TeamPair;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Rules of OpenSHMEM 1.6 found missing by a routine-by-routine reading of the specification
 * (issue 14): the split_strided triplet rules (negative strides, stride 0, triplets that leave the
 * parent), SHMEM_TEAM_INVALID and SHMEM_CTX_INVALID as arguments, session configuration,
 * unsigned comparisons, SHMEM_MAX_NAME_LEN, and errata items. Zero-length transfers are in
 * {@link ZeroLengthCases}.
 */
final class Spec16Cases {
    private Spec16Cases() {
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(Case.of("team.split-strided.negative-stride", Spec16Cases::negativeStride));
        cases.add(Case.atLeast(3, "team.split-strided.negative-stride-2", Spec16Cases::negativeStride2));
        cases.add(Case.of("team.split-strided.stride-0", Spec16Cases::strideZero));
        cases.add(Case.of("team.split-strided.invalid-triplets", Spec16Cases::invalidTriplets));
        cases.add(Case.atLeast(2, "team.split-strided.of-reversed-team", Spec16Cases::splitOfReversed));
        cases.add(Case.of("team.invalid-handle", Spec16Cases::invalidTeam));
        cases.add(Case.atLeast(2, "team.invalid-from-split", Spec16Cases::invalidFromSplit));
        cases.add(Case.of("team.get-config-mask-0", Spec16Cases::getConfigMask0));
        cases.add(Case.of("team.split-2d.xrange-beyond-size", Spec16Cases::split2dWide));
        cases.add(Case.of("ctx.invalid-handle", Spec16Cases::invalidContext));
        cases.add(Case.of("ctx.session-config", Spec16Cases::sessionConfig));
        for (SyncOps<?> t : SyncOps.ALL) {
            cases.add(Case.of("sync.unsigned-cmp." + t.name, c -> unsignedTest(c, t)));
            cases.add(Case.atLeast(2, "sync.unsigned-wait." + t.name, c -> unsignedWait(c, t)));
        }
        cases.add(Case.of("signal.unsigned-wait", Spec16Cases::signalUnsigned));
        cases.add(Case.of("sync.test-all-empty-set", Spec16Cases::testAllEmptySet));
        cases.add(Case.of("setup.max-name-len", Spec16Cases::maxNameLen));
        cases.add(Case.of("order.pe-quiet-empty-and-self", Spec16Cases::peQuietEdge));
        cases.add(Case.atLeast(2, "ctx.team-context-signal-and-pe-quiet", Spec16Cases::teamContextSignal));
        cases.add(Case.atLeast(3, "team.translate-between-splits", Spec16Cases::translateBetweenSplits));
        cases.add(Case.of("team.split-2d.bad-xrange", Spec16Cases::split2dBadXrange));
        cases.add(Case.of("team.split-when-out-of-teams", Spec16Cases::outOfTeams));
        cases.add(Case.of("setup.pcontrol", Spec16Cases::pcontrol));
        return cases;
    }

    // ---------------------------------------------------------------- split_strided triplets

    /** stride -1 from the last PE: the whole parent in reverse order. */
    private static void negativeStride(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        int n = c.npes;
        ShmemTeam rev = w.splitStrided(n - 1, -1, n, null, 0).orElse(null);
        if (!c.check(rev != null, "every PE is a member of split(n-1, -1, n)")) {
            c.shmem.barrierAll();
            return;
        }
        c.checkEq(n, rev.nPes(), "reversed team n_pes");
        c.checkEq(n - 1 - c.me, rev.myPe(), "reversed team my_pe");
        for (int i = 0; i < n; i++) {
            c.checkEq(n - 1 - i, rev.translatePe(i, w), "reversed team PE " + i + " in the world");
            c.checkEq(n - 1 - i, w.translatePe(i, rev), "world PE " + i + " in the reversed team");
        }
        // The order is the team's: an inclusive scan of world PE numbers adds n-1, n-2, ...
        SymLongArray src = c.calloc(SymType.LONG, 1);
        SymLongArray dst = c.calloc(SymType.LONG, 1);
        src.set(0, c.me);
        rev.sumInscan(dst, src, 1);
        long want = 0;
        for (int k = 0; k <= rev.myPe(); k++) {
            want += n - 1 - k;
        }
        c.checkEq(want, dst.get(0), "inclusive scan over the reversed team");
        // Broadcast from team PE 0 (world PE n-1).
        SymLongArray b = c.calloc(SymType.LONG, 1);
        src.set(0, 1000 + c.me);
        rev.broadcast(b, src, 1, 0);
        c.checkEq(1000 + n - 1, b.get(0), "broadcast from reversed team PE 0");
        rev.close();
        c.shmem.barrierAll();
    }

    /** stride -2 from the last PE: n-1, n-3, ... */
    private static void negativeStride2(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        int n = c.npes;
        int size = (n + 1) / 2;
        Optional<ShmemTeam> t = w.splitStrided(n - 1, -2, size, new TeamConfig(2), TeamConfig.NUM_CONTEXTS);
        boolean member = (n - 1 - c.me) % 2 == 0;
        c.checkEquals(member, t.isPresent(), "membership of split(n-1, -2, " + size + ")");
        SymLongArray src = c.calloc(SymType.LONG, 1);
        SymLongArray dst = c.calloc(SymType.LONG, size);
        t.ifPresent(team -> {
            c.checkEq((n - 1 - c.me) / 2, team.myPe(), "my_pe in split(n-1, -2)");
            c.checkEq(size, team.nPes(), "n_pes of split(n-1, -2)");
            for (int i = 0; i < size; i++) {
                c.checkEq(n - 1 - 2L * i, team.translatePe(i, w), "team PE " + i + " in the world");
            }
            c.checkEq(2, team.getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "config kept");
            src.set(0, c.me);
            team.fcollect(dst, src, 1);
            for (int i = 0; i < size; i++) {
                c.checkEq(n - 1 - 2L * i, dst.get(i), "fcollect element " + i + " (team order)");
            }
            team.close();
        });
        c.shmem.barrierAll();
    }

    /** stride 0 with size 1: a team of the start PE alone, for every start. */
    private static void strideZero(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        for (int start = 0; start < c.npes; start++) {
            Optional<ShmemTeam> t = w.splitStrided(start, 0, 1, null, 0);
            c.checkEquals(c.me == start, t.isPresent(), "membership of split(" + start + ", 0, 1)");
            int st = start;
            t.ifPresent(team -> {
                c.checkEq(0, team.myPe(), "my_pe in split(" + st + ", 0, 1)");
                c.checkEq(1, team.nPes(), "n_pes in split(" + st + ", 0, 1)");
                c.checkEq(st, team.translatePe(0, w), "the member is the start PE");
                team.sync();
                team.close();
            });
        }
        // Any stride with size 1 is the start PE alone too.
        Optional<ShmemTeam> t = w.splitStrided(c.npes - 1, -7, 1, null, 0);
        c.checkEquals(c.me == c.npes - 1, t.isPresent(), "membership of split(n-1, -7, 1)");
        t.ifPresent(ShmemTeam::close);
        c.shmem.barrierAll();
    }

    /** Triplets that leave the parent throw on every PE, saying why; the library goes on working. */
    private static void invalidTriplets(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        int n = c.npes;
        c.expectShmemException("stride 0 with size 2", () -> w.splitStrided(0, 0, 2, null, 0), "stride 0");
        c.expectShmemException("size 0", () -> w.splitStrided(0, 1, 0, null, 0), "size");
        c.expectShmemException("size -1", () -> w.splitStrided(0, 1, -1, null, 0), "size");
        c.expectShmemException("stride -1 from PE 0 with size 2", () -> w.splitStrided(0, -1, 2, null, 0), "leaves");
        c.expectShmemException("stride 1 from the last PE with size 2", () -> w.splitStrided(n - 1, 1, 2, null, 0), "leaves");
        c.expectShmemException("wrap-around (start 1, stride 1, size n)", () -> w.splitStrided(1, 1, n, null, 0), "leaves");
        c.expectShmemException("start n", () -> w.splitStrided(n, -1, 1, null, 0), "start");
        c.expectShmemException("start -1 with stride 0", () -> w.splitStrided(-1, 0, 1, null, 0), "start");
        c.expectShmemException("huge stride overflowing int", () -> w.splitStrided(n - 1, Integer.MAX_VALUE, 3, null, 0), "leaves");
        c.expectShmemException("huge negative stride", () -> w.splitStrided(0, Integer.MIN_VALUE, 2, null, 0), "leaves");
        c.shmem.barrierAll();
        ShmemTeam all = w.splitStrided(0, 1, n, null, 0).orElseThrow();
        all.sync();
        all.close();
    }

    /** A positive and a negative split of a reversed team give world order back (nested translation). */
    private static void splitOfReversed(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        int n = c.npes;
        ShmemTeam rev = w.splitStrided(n - 1, -1, n, null, 0).orElseThrow();
        ShmemTeam back = rev.splitStrided(n - 1, -1, n, null, 0).orElseThrow();
        c.checkEq(c.me, back.myPe(), "reverse of the reverse: my_pe is the world's");
        for (int i = 0; i < n; i++) {
            c.checkEq(i, back.translatePe(i, w), "reverse of the reverse: PE " + i);
            c.checkEq(n - 1 - i, back.translatePe(i, rev), "reverse of the reverse in the reversed team: PE " + i);
        }
        // Every second member of the reversed team, from its PE 1: world PEs n-2, n-4, ...
        Optional<ShmemTeam> odd = rev.splitStrided(1, 2, n / 2, null, 0);
        c.checkEquals((n - 1 - c.me) % 2 == 1, odd.isPresent(), "membership of reversed.split(1, 2, n/2)");
        odd.ifPresent(o -> {
            for (int i = 0; i < o.nPes(); i++) {
                c.checkEq(n - 2 - 2L * i, o.translatePe(i, w), "reversed.split(1, 2) PE " + i + " in the world");
            }
            o.close();
        });
        back.close();
        rev.close();
        c.shmem.barrierAll();
    }

    // ---------------------------------------------------------------- invalid handles

    /** SHMEM_TEAM_INVALID: each routine that defines it behaves as 1.6 says. */
    private static void invalidTeam(CaseContext c) {
        ShmemTeam inv = ShmemTeam.INVALID;
        ShmemTeam w = c.shmem.teamWorld();
        c.checkEq(-1, inv.myPe(), "team_my_pe(INVALID)");
        c.checkEq(-1, inv.nPes(), "team_n_pes(INVALID)");
        c.checkEq(-1, inv.translatePe(0, w), "translate_pe from INVALID");
        c.checkEq(-1, w.translatePe(0, inv), "translate_pe to INVALID");
        c.checkEq(-1, inv.translatePe(0, inv), "translate_pe INVALID to INVALID");
        c.check(inv.getConfig(TeamConfig.NUM_CONTEXTS).isEmpty(), "get_config(INVALID) is empty (C: nonzero)");
        c.check(inv.getConfig(0).isEmpty(), "get_config(INVALID, mask 0) is empty");
        c.check(inv.splitStrided(0, 1, 1, null, 0).isEmpty(), "split_strided of INVALID is empty");
        TeamPair p = inv.split2d(1, null, 0, null, 0);
        c.check(p.xTeam() == ShmemTeam.INVALID && p.yTeam() == ShmemTeam.INVALID, "split_2d of INVALID gives (INVALID, INVALID)");
        c.check(inv.createCtx(0) == ShmemContext.INVALID, "team_create_ctx on INVALID gives SHMEM_CTX_INVALID");
        SymLongArray a = c.calloc(SymType.LONG, 1);
        c.check(inv.ptr(a, 0).isEmpty(), "team_ptr on INVALID is empty (null)");
        try {
            inv.close();
        } catch (Throwable e) {
            c.fail("team_destroy(INVALID) threw " + CaseContext.describe(e));
        }
        c.check(inv.equals(ShmemTeam.INVALID) && !inv.equals(w) && !w.equals(inv), "INVALID compares equal only to itself");
        c.check(inv.toString().contains("INVALID"), "INVALID names itself: " + inv);
        Throwable t = null;
        try {
            inv.sync();
        } catch (Throwable e) {
            t = e;
        }
        c.check(t instanceof ShmemException, "a collective on INVALID (undefined) throws ShmemException, got " + t);
        c.shmem.barrierAll();
    }

    /** Non-members of a split use the empty result as SHMEM_TEAM_INVALID, as C code does. */
    private static void invalidFromSplit(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        ShmemTeam t = w.splitStrided(0, 1, 1, null, 0).orElse(ShmemTeam.INVALID);
        c.checkEquals(c.me != 0, t == ShmemTeam.INVALID, "non-members hold INVALID");
        c.checkEq(c.me == 0 ? 0 : -1, t.myPe(), "team_my_pe of the split result");
        c.checkEq(c.me == 0 ? 1 : -1, t.nPes(), "team_n_pes of the split result");
        c.checkEq(c.me == 0 ? 0 : -1, w.translatePe(c.me, t), "translate_pe into the split result");
        ShmemContext ctx = t.createCtx(0);
        c.checkEquals(c.me != 0, ctx == ShmemContext.INVALID, "create_ctx on the split result");
        ctx.quiet();
        ctx.close();
        t.close(); // destroys the team on PE 0, nothing elsewhere
        c.shmem.barrierAll();
    }

    /** get_config with mask 0 gives the defaults (1.6 clarified that it performs no action then). */
    private static void getConfigMask0(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        ShmemTeam t = w.splitStrided(0, 1, c.npes, new TeamConfig(3), TeamConfig.NUM_CONTEXTS).orElseThrow();
        c.checkEquals(Optional.of(TeamConfig.DEFAULT), t.getConfig(0), "get_config with mask 0");
        c.checkEq(3, t.getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "get_config with NUM_CONTEXTS");
        c.checkEq(0, w.getConfig(0).orElseThrow().numContexts(), "world get_config with mask 0");
        c.checkEq(0, c.shmem.teamShared().getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "shared team config");
        t.close();
    }

    /** split_2d with xrange larger than the parent: one row of every PE, columns of one PE. */
    private static void split2dWide(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        TeamPair p = w.split2d(c.npes + 5, null, 0, null, 0);
        c.checkEq(c.npes, p.xTeam().nPes(), "x team spans the parent");
        c.checkEq(c.me, p.xTeam().myPe(), "x team my_pe");
        c.checkEq(1, p.yTeam().nPes(), "y team is this PE alone");
        c.checkEq(0, p.yTeam().myPe(), "y team my_pe");
        p.xTeam().sync();
        p.yTeam().sync();
        p.xTeam().close();
        p.yTeam().close();
    }

    /** SHMEM_CTX_INVALID: fence, quiet, destroy and session routines do nothing; get_team gives INVALID. */
    private static void invalidContext(CaseContext c) {
        ShmemContext inv = ShmemContext.INVALID;
        try {
            inv.fence();
            inv.quiet();
            inv.sessionStart(Shmem.CTX_SESSION_BATCH);
            inv.sessionStart(Shmem.CTX_SESSION_BATCH, new SessionConfig(10), SessionConfig.TOTAL_OPS);
            inv.sessionStop();
            inv.close();
            inv.close();
        } catch (Throwable e) {
            c.fail("fence/quiet/session/destroy on SHMEM_CTX_INVALID threw " + CaseContext.describe(e));
        }
        c.check(inv.team() == ShmemTeam.INVALID, "ctx_get_team(INVALID) gives SHMEM_TEAM_INVALID");
        c.check(inv.equals(ShmemContext.INVALID) && !inv.equals(c.shmem), "INVALID compares equal only to itself");
        SymLongArray a = c.calloc(SymType.LONG, 1);
        c.expectShmemException("put on SHMEM_CTX_INVALID (undefined) throws", () -> {
            try {
                inv.p(a, 0, 1, 0);
            } catch (ShmemException e) {
                throw new ShmemException("PE " + c.me + ": " + e.getMessage(), e);
            }
        }, "INVALID");
        c.shmem.barrierAll();
        c.checkEq(0, a.get(0), "nothing was written through SHMEM_CTX_INVALID");
    }

    /** shmem_ctx_session_start with options, config and mask: hints only, results unchanged. */
    private static void sessionConfig(CaseContext c) {
        Shmem s = c.shmem;
        c.checkEq(-1, SessionConfig.DEFAULT.totalOps(), "default total_ops is SIZE_MAX");
        c.checkEquals(SessionConfig.DEFAULT, SessionConfig.effective(new SessionConfig(5), 0), "mask 0 ignores the config");
        c.checkEquals(SessionConfig.DEFAULT, SessionConfig.effective(null, 0), "mask 0 with no config");
        c.checkEquals(new SessionConfig(5), SessionConfig.effective(new SessionConfig(5), SessionConfig.TOTAL_OPS), "mask TOTAL_OPS");
        int n = 64;
        SymLongArray a = c.calloc(SymType.LONG, 2L * n);
        s.barrierAll();
        s.sessionStart(Shmem.CTX_SESSION_BATCH, new SessionConfig(n), SessionConfig.TOTAL_OPS);
        for (int i = 0; i < n; i++) {
            s.p(a, i, 1000L * c.me + i, c.right());
        }
        s.sessionStart(0, null, 0); // a second start combines options; mask 0 keeps defaults
        s.sessionStop();
        try (ShmemContext ctx = s.ctxCreate(Shmem.CTX_PRIVATE)) {
            ctx.sessionStart(Shmem.CTX_SESSION_BATCH | 0x100, new SessionConfig(-1), SessionConfig.TOTAL_OPS);
            long[] block = new long[n];
            for (int i = 0; i < n; i++) {
                block[i] = -1000L * c.me - i;
            }
            ctx.putNbi(a, n, block, 0, n, c.right());
            ctx.sessionStop(); // completes the session's operations
            Throwable t = null;
            try {
                ctx.sessionStart(0, new SessionConfig(1), 0x2);
            } catch (Throwable e) {
                t = e;
            }
            c.check(t instanceof IllegalArgumentException, "an unknown config-mask bit is refused, got " + t);
            t = null;
            try {
                ctx.sessionStart(0, null, SessionConfig.TOTAL_OPS);
            } catch (Throwable e) {
                t = e;
            }
            c.check(t instanceof NullPointerException, "a mask selecting a field of a null config is refused, got " + t);
        }
        s.barrierAll();
        int left = c.left();
        for (int i = 0; i < n; i++) {
            if (!c.checkEq(1000L * left + i, a.get(i), "element " + i + " put in a batch session")
                    || !c.checkEq(-1000L * left - i, a.get(n + i), "element " + i + " put_nbi in a context session")) {
                break;
            }
        }
        s.barrierAll();
    }

    // ---------------------------------------------------------------- unsigned comparisons

    /** test and the test_* forms with the unsigned operators on values with the sign bit set. */
    private static <S extends SymArray<?>> void unsignedTest(CaseContext c, SyncOps<S> t) {
        Shmem s = c.shmem;
        S a = c.calloc(t.type, 3);
        // min is 0x80..0 (above max unsigned), -1 is all ones (the largest unsigned), 1 is small.
        t.setLocal(a, 0, -1);
        t.setLocal(a, 1, t.min);
        t.setLocal(a, 2, 1);
        String w = t.name + ": ";
        c.check(t.test(s, a, 0, Cmp.UGT, 1) && !t.test(s, a, 0, Cmp.GT, 1), w + "all ones UGT 1 (and not GT 1)");
        c.check(t.test(s, a, 0, Cmp.UGE, -1) && t.test(s, a, 0, Cmp.ULE, -1) && !t.test(s, a, 0, Cmp.ULT, -1), w + "all ones against itself");
        c.check(t.test(s, a, 1, Cmp.UGT, t.max) && t.test(s, a, 1, Cmp.LT, t.max), w + "MIN UGT MAX (and LT MAX)");
        c.check(t.test(s, a, 1, Cmp.ULT, -1) && !t.test(s, a, 1, Cmp.UGE, -1), w + "MIN ULT all ones");
        c.check(t.test(s, a, 2, Cmp.ULT, t.min) && !t.test(s, a, 2, Cmp.LT, t.min), w + "1 ULT MIN (and not LT MIN)");
        c.check(t.test(s, a, 2, Cmp.ULE, 1) && t.test(s, a, 2, Cmp.UGE, 1) && t.test(s, a, 2, Cmp.UGT, 0), w + "1 against 1 and 0");
        c.check(!t.test(s, a, 2, Cmp.ULT, 0), w + "nothing is ULT 0");
        c.check(t.test(s, a, 0, Cmp.EQ, -1) && t.test(s, a, 2, Cmp.NE, -1), w + "EQ/NE are the same for unsigned values");
        long[] idx = new long[3];
        c.check(t.testAll(s, a, null, Cmp.UGE, 1), w + "testAll UGE 1 (every value is at least 1 unsigned)");
        c.check(!t.testAll(s, a, null, Cmp.GE, 1), w + "testAll GE 1 is false (signed)");
        c.checkEq(2, t.testAny(s, a, new int[] {1, 1, 0}, Cmp.ULT, t.min), w + "testAny ULT MIN with elements 0, 1 excluded");
        c.checkEq(2, t.testSome(s, a, idx, null, Cmp.UGT, t.max), w + "testSome UGT MAX finds the two with the sign bit");
        c.check(t.testAllVector(s, a, null, Cmp.ULE, new long[] {-1, -1, 1}), w + "testAllVector ULE");
        c.checkEq(1, t.testAnyVector(s, a, new int[] {1, 0, 0}, Cmp.UGT, new long[] {0, 0, 1}), w + "testAnyVector UGT");
        c.checkEq(1, t.testSomeVector(s, a, idx, null, Cmp.UGT, new long[] {-1, t.max, 1}), w + "testSomeVector UGT");
        c.checkEq(1, idx[0], w + "testSomeVector UGT index");
        s.barrierAll();
    }

    /** wait_until with an unsigned operator: released only by a value that is large unsigned. */
    private static <S extends SymArray<?>> void unsignedWait(CaseContext c, SyncOps<S> t) throws Exception {
        Shmem s = c.shmem;
        S a = c.calloc(t.type, 2);
        s.barrierAll();
        // The left neighbour writes 5 (small), then MIN (above MAX unsigned). Even PEs write first,
        // odd PEs wait first (an odd job size has two even neighbours: one writes, one waits).
        for (int phase = 0; phase < 2; phase++) {
            if ((c.me + phase) % 2 == 0) {
                for (long v : new long[] {5, t.min}) {
                    t.p(s, a, 0, v, c.right());
                    t.p(s, a, 1, v, c.right());
                    Thread.sleep(2);
                }
                s.quiet();
            } else {
                t.waitUntil(s, a, 0, Cmp.UGT, t.max);
                t.waitUntilAll(s, a, null, Cmp.UGE, t.min);
            }
        }
        c.checkEq(t.min, t.local(a, 0), t.name + ": value after wait_until(UGT MAX)");
        c.checkEq(t.min, t.local(a, 1), t.name + ": value after wait_until_all(UGE MIN)");
        long[] idx = new long[2];
        c.checkEq(2, t.waitUntilSome(s, a, idx, null, Cmp.ULE, -1), t.name + ": wait_until_some(ULE all ones)");
        c.checkEq(-1, t.waitUntilAny(s, a, new int[] {1, 1}, Cmp.ULT, 0), t.name + ": wait_until_any, all excluded");
        s.barrierAll();
    }

    /** signal_wait_until on a uint64_t signal word: a value with the top bit set is large. */
    private static void signalUnsigned(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray sig = c.calloc(SymType.LONG, 1);
        s.barrierAll();
        s.signalAdd(sig, 0, Long.MAX_VALUE, c.right());
        s.signalAdd(sig, 0, 2, c.right()); // 2^63 + 1: past the signed maximum
        long v = s.signalWaitUntil(sig, 0, Cmp.UGT, Long.MAX_VALUE);
        c.checkEq(Long.MIN_VALUE + 1, v, "signal value seen by signal_wait_until(UGT 2^63-1)");
        c.check(Long.compareUnsigned(s.signalFetch(sig, 0), 1L << 63) > 0, "signal_fetch as uint64_t");
        s.barrierAll();
        s.signalSet(sig, 0, -1, c.me);
        c.checkEq(-1, s.signalWaitUntil(sig, 0, Cmp.UGE, -1), "SIZE_MAX-like signal UGE itself");
        s.barrierAll();
    }

    // ---------------------------------------------------------------- errata and other rules

    /** Errata 1.5: test_all and test_all_vector return true (1) when the test set is empty. */
    private static void testAllEmptySet(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray a = c.calloc(SymType.LONG, 3);
        SymLongArray none = c.calloc(SymType.LONG, 0);
        c.check(s.testAll(none, null, Cmp.EQ, 42), "testAll on an empty array");
        c.check(s.testAllVector(none, null, Cmp.EQ, new long[0]), "testAllVector on an empty array");
        c.check(s.testAll(a, new int[] {1, 1, 1}, Cmp.EQ, 42), "testAll with every element excluded");
        c.check(s.testAllVector(a, new int[] {1, 1, 1}, Cmp.EQ, new long[] {42, 42, 42}), "testAllVector, all excluded");
        c.check(!s.testAll(a, new int[] {1, 0, 1}, Cmp.EQ, 42), "testAll with one element left is false");
        c.checkEq(-1, s.testAny(none, null, Cmp.EQ, 0), "testAny on an empty array (SIZE_MAX)");
        c.checkEq(0, s.testSome(none, new long[0], null, Cmp.EQ, 0), "testSome on an empty array");
        s.barrierAll();
    }

    /** SHMEM_MAX_NAME_LEN bounds the vendor string (with C's null), shmem_info_get_name returns it. */
    private static void maxNameLen(CaseContext c) {
        c.check(ShmemVersion.MAX_NAME_LEN >= 1, "SHMEM_MAX_NAME_LEN is positive");
        String name = c.shmem.infoGetName();
        c.checkEquals(ShmemVersion.VENDOR_STRING, name, "info_get_name is SHMEM_VENDOR_STRING");
        c.check(name.length() < ShmemVersion.MAX_NAME_LEN, "vendor string (" + name.length()
                + " chars) fits SHMEM_MAX_NAME_LEN " + ShmemVersion.MAX_NAME_LEN + " with the null");
        c.checkEq(1, c.shmem.infoGetVersion().major(), "major version");
        c.checkEq(6, c.shmem.infoGetVersion().minor(), "minor version");
    }

    /** shmem_pe_quiet with no PEs, with this PE, and with every PE. */
    private static void peQuietEdge(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray a = c.calloc(SymType.LONG, 1);
        s.barrierAll();
        s.peQuiet(); // no PEs: nothing to do
        s.putNbi(a, 0, new long[] {7}, 0, 1, c.me);
        s.peQuiet(c.me);
        c.checkEq(7, a.get(0), "own put_nbi complete after pe_quiet(me)");
        s.barrierAll();
        s.putNbi(a, 0, new long[] {8 + c.me}, 0, 1, c.right());
        int[] all = new int[c.npes];
        Arrays.setAll(all, i -> i);
        s.peQuiet(all);
        s.barrierAll();
        c.checkEq(8 + c.left(), a.get(0), "put_nbi to the right complete after pe_quiet(all)");
        s.barrierAll();
    }

    /**
     * On a context of a reversed team, put_signal, signal_add and pe_quiet take team PE numbers:
     * team PE k+1 is world PE n-2-k, so the data and signal go to the left neighbour in the world.
     */
    private static void teamContextSignal(CaseContext c) {
        Shmem s = c.shmem;
        int n = c.npes;
        ShmemTeam rev = s.teamWorld().splitStrided(n - 1, -1, n, null, 0).orElseThrow();
        SymLongArray data = c.calloc(SymType.LONG, 4);
        SymLongArray sig = c.calloc(SymType.LONG, 2);
        s.barrierAll();
        int target = (rev.myPe() + 1) % n; // team PE: world PE (me - 1 + n) % n
        try (ShmemContext ctx = rev.createCtx(0)) {
            ctx.putSignalNbi(data, 0, new long[] {1, 2, 3, 4}, 0, 4, sig, 0, 100 + c.me, SignalOp.SET, target);
            ctx.signalAdd(sig, 1, 5, target);
            ctx.peQuiet(target);
        }
        long v = s.signalWaitUntil(sig, 0, Cmp.EQ, 100 + c.right());
        c.checkEq(100 + c.right(), v, "signal from the world right neighbour (team PE - 1)");
        c.checkEq(1, data.get(0), "data before the signal (element 0)");
        c.checkEq(4, data.get(3), "data before the signal (element 3)");
        c.checkEq(5, s.signalWaitUntil(sig, 1, Cmp.GE, 5), "signal_add through the team context");
        s.barrierAll();
        rev.close();
    }

    /** translate_pe between two split teams, neither of them the world. */
    private static void translateBetweenSplits(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        int n = c.npes;
        ShmemTeam rev = w.splitStrided(n - 1, -1, n, null, 0).orElseThrow();
        Optional<ShmemTeam> even = w.splitStrided(0, 2, (n + 1) / 2, null, 0);
        even.ifPresent(e -> {
            for (int i = 0; i < e.nPes(); i++) {
                c.checkEq(n - 1 - 2L * i, e.translatePe(i, rev), "even team PE " + i + " in the reversed team");
            }
            for (int k = 0; k < n; k++) {
                int worldPe = n - 1 - k;
                c.checkEq(worldPe % 2 == 0 ? worldPe / 2 : -1, rev.translatePe(k, e), "reversed team PE " + k + " in the even team");
            }
            c.checkEq(-1, e.translatePe(e.nPes(), rev), "a PE beyond the even team");
            e.close();
        });
        rev.close();
        c.shmem.barrierAll();
    }

    /** split_2d with xrange below 1 fails on every PE (C: nonzero return), and the library goes on. */
    private static void split2dBadXrange(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        c.expectShmemException("split_2d with xrange 0", () -> w.split2d(0, null, 0, null, 0), "xrange");
        c.expectShmemException("split_2d with xrange -3", () -> w.split2d(-3, null, 0, null, 0), "xrange");
        TeamPair p = w.split2d(1, null, 0, null, 0);
        c.checkEq(1, p.xTeam().nPes(), "split_2d(1): rows of one PE");
        c.checkEq(c.npes, p.yTeam().nPes(), "split_2d(1): one column of every PE");
        c.checkEq(c.me, p.yTeam().myPe(), "split_2d(1): y coordinate");
        p.xTeam().close();
        p.yTeam().close();
    }

    /**
     * A split that cannot create its team (every team resource in use) fails on every PE of the
     * parent (C: nonzero return and SHMEM_TEAM_INVALID), and destroying teams makes room again.
     */
    private static void outOfTeams(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        List<ShmemTeam> teams = new ArrayList<>();
        ShmemException refused = null;
        try {
            for (int i = 0; i < 1000 && refused == null; i++) {
                try {
                    teams.add(w.splitStrided(0, 1, c.npes, null, 0).orElseThrow());
                } catch (ShmemException e) {
                    refused = e;
                }
            }
            if (c.check(refused != null, "a split was refused before 1000 teams existed")) {
                c.check(c.namesThisPe(refused.getMessage()), "the refusal names this PE: " + refused.getMessage());
                c.check(teams.size() >= 8, "at least 8 teams could exist at once (got " + teams.size() + ")");
            }
        } finally {
            for (ShmemTeam t : teams) {
                t.close();
            }
        }
        ShmemTeam again = w.splitStrided(0, 1, c.npes, null, 0).orElseThrow();
        again.sync();
        again.close();
    }

    /** shmem_pcontrol: any level is accepted and changes nothing. */
    private static void pcontrol(CaseContext c) {
        for (int level : new int[] {0, 1, 2, 3, -1}) {
            c.shmem.pcontrol(level);
        }
        SymLongArray a = c.calloc(SymType.LONG, 1);
        c.shmem.p(a, 0, 5 + c.me, c.right());
        c.shmem.barrierAll();
        c.checkEq(5 + c.left(), a.get(0), "the library works after pcontrol");
    }
}
