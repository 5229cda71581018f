/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.ShmemContext;
import io.jshmem.ShmemTeam;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.TeamConfig;
import io.jshmem.TeamPair;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Teams: the predefined ones, strided and 2-D splits, translation, configuration, destroy, errors. */
final class TeamCases {
    private TeamCases() {
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(Case.of("team.world-and-shared", TeamCases::predefined));
        cases.add(Case.atLeast(2, "team.split-strided.2", c -> strided(c, 2)));
        cases.add(Case.atLeast(3, "team.split-strided.3", c -> strided(c, 3)));
        cases.add(Case.atLeast(2, "team.split-of-a-split", TeamCases::nested));
        cases.add(Case.atLeast(2, "team.split-2d.x2", c -> split2d(c, 2)));
        cases.add(Case.atLeast(3, "team.split-2d.x3", c -> split2d(c, 3)));
        cases.add(Case.of("team.split-2d.configs", c -> split2dConfigs(c, 2)));
        cases.add(Case.atLeast(4, "team.split-2d.configs-per-column", c -> split2dConfigs(c, 3)));
        cases.add(Case.of("team.get-config", TeamCases::config));
        cases.add(Case.of("team.create-destroy-cycles", TeamCases::cycles));
        cases.add(Case.of("team.bad-input", TeamCases::badInput));
        return cases;
    }

    private static void predefined(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        ShmemTeam s = c.shmem.teamShared();
        c.checkEq(c.me, w.myPe(), "world team my_pe");
        c.checkEq(c.npes, w.nPes(), "world team n_pes");
        // The shared team is the PEs this PE can reach directly (its node), in world order; the
        // direct mappings (ptr) are the independent evidence of who they are.
        SymLongArray probe = c.calloc(SymType.LONG, 1);
        int sharedPe = 0;
        for (int pe = 0; pe < c.npes; pe++) {
            boolean onNode = c.shmem.ptr(probe, pe).isPresent();
            c.checkEq(onNode ? sharedPe : -1, w.translatePe(pe, s), "world PE " + pe + " in the shared team");
            if (onNode) {
                c.checkEq(pe, s.translatePe(sharedPe, w), "shared PE " + sharedPe + " in the world team");
                sharedPe++;
            }
        }
        c.checkEq(sharedPe, s.nPes(), "shared team n_pes (PEs reachable by ptr)");
        c.check(s.myPe() >= 0 && s.translatePe(s.myPe(), w) == c.me, "this PE is in its shared team");
        c.checkEq(-1, w.translatePe(c.npes, s), "translating a PE out of range");
        c.checkEq(-1, w.translatePe(-1, s), "translating PE -1");
        SymLongArray a = c.calloc(SymType.LONG, 1);
        c.check(s.ptr(a, (s.myPe() + 1) % s.nPes()).isPresent(), "team_ptr to a shared-team peer is present");
    }

    private static void strided(CaseContext c, int stride) {
        ShmemTeam w = c.shmem.teamWorld();
        int size = (c.npes + stride - 1) / stride;
        Optional<ShmemTeam> t = w.splitStrided(0, stride, size, null, 0);
        boolean member = c.me % stride == 0;
        c.checkEquals(member, t.isPresent(), "membership of split(0, " + stride + ", " + size + ")");
        SymLongArray src = c.calloc(SymType.LONG, 1);
        SymLongArray dst = c.calloc(SymType.LONG, 1);
        if (t.isPresent()) {
            ShmemTeam team = t.get();
            c.checkEq(c.me / stride, team.myPe(), "team my_pe");
            c.checkEq(size, team.nPes(), "team n_pes");
            for (int i = 0; i < size; i++) {
                c.checkEq((long) i * stride, team.translatePe(i, w), "team PE " + i + " in the world");
            }
            for (int pe = 0; pe < c.npes; pe++) {
                c.checkEq(pe % stride == 0 ? pe / stride : -1, w.translatePe(pe, team), "world PE " + pe + " in the team");
            }
            src.set(0, c.me);
            team.sumReduce(dst, src, 1);
            long want = 0;
            for (int pe = 0; pe < c.npes; pe += stride) {
                want += pe;
            }
            c.checkEq(want, dst.get(0), "sum over the team");
            team.close();
        }
        c.shmem.barrierAll();
    }

    private static void nested(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        // All but PE 0, then every second of those: world PEs 1, 3, 5, ...
        Optional<ShmemTeam> rest = w.splitStrided(1, 1, c.npes - 1, null, 0);
        c.checkEquals(c.me != 0, rest.isPresent(), "membership of split(1, 1, n-1)");
        if (rest.isPresent()) {
            ShmemTeam r = rest.get();
            Optional<ShmemTeam> odd = r.splitStrided(0, 2, (r.nPes() + 1) / 2, null, 0);
            c.checkEquals(c.me % 2 == 1, odd.isPresent(), "membership of the odd team");
            odd.ifPresent(o -> {
                c.checkEq(c.me, o.translatePe(o.myPe(), w), "odd team PE in the world");
                c.checkEq(c.me / 2, o.myPe(), "odd team my_pe");
                o.sync();
                o.close();
            });
            r.close();
        }
        c.shmem.barrierAll();
    }

    private static void split2d(CaseContext c, int xrange) {
        ShmemTeam w = c.shmem.teamWorld();
        TeamPair p = w.split2d(xrange, null, 0, null, 0);
        ShmemTeam x = p.xTeam();
        ShmemTeam y = p.yTeam();
        int x0 = Math.min(xrange, c.npes);
        c.checkEq(c.me % x0, x.myPe(), "x team my_pe");
        c.checkEq(c.me / x0, y.myPe(), "y team my_pe");
        int rowStart = c.me / x0 * x0;
        c.checkEq(Math.min(x0, c.npes - rowStart), x.nPes(), "x team n_pes");
        c.checkEq((c.npes - c.me % x0 + x0 - 1) / x0, y.nPes(), "y team n_pes");
        for (int i = 0; i < x.nPes(); i++) {
            c.checkEq(rowStart + i, x.translatePe(i, w), "x team PE " + i + " in the parent");
        }
        for (int i = 0; i < y.nPes(); i++) {
            c.checkEq(c.me % x0 + (long) i * x0, y.translatePe(i, w), "y team PE " + i + " in the parent");
        }
        // The two teams work independently: a reduction on each.
        SymLongArray src = c.calloc(SymType.LONG, 1);
        SymLongArray dx = c.calloc(SymType.LONG, 1);
        SymLongArray dy = c.calloc(SymType.LONG, 1);
        src.set(0, 1);
        x.sumReduce(dx, src, 1);
        y.sumReduce(dy, src, 1);
        c.checkEq(x.nPes(), dx.get(0), "count over the x team");
        c.checkEq(y.nPes(), dy.get(0), "count over the y team");
        x.close();
        y.close();
    }

    /**
     * split_2d with configurations that differ between the axes and (1.6 allows it, as long as the
     * members of each new team agree) between the rows and between the columns: get_config of each
     * team gives its own num_contexts, a mask of 0 gives the default, and that many contexts can
     * be created from each team and used with its PE numbers.
     */
    private static void split2dConfigs(CaseContext c, int xrange) {
        ShmemTeam w = c.shmem.teamWorld();
        int x0 = Math.min(xrange, c.npes);
        int row = c.me / x0;
        int column = c.me % x0;
        TeamConfig xConfig = new TeamConfig(2 + row);     // the same for every PE of a row (x team)
        TeamConfig yConfig = new TeamConfig(1 + column);  // the same for every PE of a column (y team)
        TeamPair p = w.split2d(xrange, xConfig, TeamConfig.NUM_CONTEXTS, yConfig, TeamConfig.NUM_CONTEXTS);
        ShmemTeam x = p.xTeam();
        ShmemTeam y = p.yTeam();
        c.checkEq(2 + row, x.getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "x team num_contexts (row " + row + ")");
        c.checkEq(1 + column, y.getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "y team num_contexts (column " + column + ")");
        c.checkEq(0, x.getConfig(0).orElseThrow().numContexts(), "x team get_config with mask 0 gives the default");
        int yFirst = c.npes + 2; // past the x slots (at most 2 + rows - 1); the same size on every PE
        SymLongArray box = c.calloc(SymType.LONG, 2L * c.npes + 4);
        useContexts(c, x, 2 + row, box, 0);
        useContexts(c, y, 1 + column, box, yFirst);
        c.shmem.barrierAll();
        // Slot k of the x range came from the previous PE of this row through its k-th context.
        int xPrev = (x.myPe() - 1 + x.nPes()) % x.nPes();
        for (int k = 0; k < 2 + row; k++) {
            c.checkEq(x.translatePe(xPrev, w) * 100L + k, box.get(k), "x team context " + k + " from the previous PE of the row");
        }
        int yPrev = (y.myPe() - 1 + y.nPes()) % y.nPes();
        for (int k = 0; k < 1 + column; k++) {
            c.checkEq(y.translatePe(yPrev, w) * 100L + k, box.get(yFirst + k), "y team context " + k + " from the previous PE of the column");
        }
        // A mask that leaves the config out gives the default, whatever the config says.
        TeamPair q = w.split2d(xrange, new TeamConfig(7), 0, null, 0);
        c.checkEq(0, q.xTeam().getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "x team num_contexts with mask 0");
        c.checkEq(0, q.yTeam().getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "y team num_contexts with a null config");
        q.xTeam().close();
        q.yTeam().close();
        x.close();
        y.close();
    }

    /** Creates {@code n} contexts from {@code team} (all existing at once) and puts through each to the team's next PE. */
    private static void useContexts(CaseContext c, ShmemTeam team, int n, SymLongArray box, int first) {
        List<ShmemContext> ctxs = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            ShmemContext ctx = team.createCtx(0);
            c.check(ctx != ShmemContext.INVALID, "context " + k + " of " + n + " (num_contexts) from the team");
            ctxs.add(ctx);
        }
        int next = (team.myPe() + 1) % team.nPes();
        for (int k = 0; k < n; k++) {
            ctxs.get(k).p(box, first + k, c.me * 100L + k, next);
        }
        for (ShmemContext ctx : ctxs) {
            ctx.quiet();
            ctx.close();
        }
    }

    private static void config(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        Optional<ShmemTeam> t = w.splitStrided(0, 1, c.npes, new TeamConfig(5), TeamConfig.NUM_CONTEXTS);
        c.check(t.isPresent(), "every PE is in split(0, 1, n)");
        t.ifPresent(team -> {
            c.checkEq(5, team.getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "num_contexts round trip");
            c.checkEq(0, team.getConfig(0).orElseThrow().numContexts(), "num_contexts with an empty mask");
            team.close();
        });
        Optional<ShmemTeam> u = w.splitStrided(0, 1, c.npes, new TeamConfig(5), 0);
        u.ifPresent(team -> {
            c.checkEq(0, team.getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "config ignored when the mask omits it");
            team.close();
        });
        c.checkEq(0, w.getConfig(TeamConfig.NUM_CONTEXTS).orElseThrow().numContexts(), "world team config");
    }

    private static void cycles(CaseContext c) {
        // More cycles than there are team slots: destroyed teams must give their slot back.
        ShmemTeam w = c.shmem.teamWorld();
        SymLongArray src = c.calloc(SymType.LONG, 1);
        SymLongArray dst = c.calloc(SymType.LONG, 1);
        src.set(0, 1);
        for (int i = 0; i < 150; i++) {
            ShmemTeam t = w.splitStrided(0, 1, c.npes, null, 0).orElseThrow();
            t.sumReduce(dst, src, 1);
            if (!c.checkEq(c.npes, dst.get(0), "cycle " + i)) {
                t.close();
                return;
            }
            t.close();
        }
    }

    private static void badInput(CaseContext c) {
        ShmemTeam w = c.shmem.teamWorld();
        c.expectShmemException("split beyond the parent", () -> w.splitStrided(0, 1, c.npes + 1, null, 0), "split");
        c.expectShmemException("split with stride 0 and size 2", () -> w.splitStrided(0, 0, 2, null, 0), "split");
        c.expectShmemException("split starting at -1", () -> w.splitStrided(-1, 1, 1, null, 0), "split");
        c.expectShmemException("destroying the world team", w::close, "predefined");
        c.expectShmemException("translate to a null team", () -> w.translatePe(0, null), "team");
        ShmemTeam t = w.splitStrided(0, 1, c.npes, null, 0).orElseThrow();
        ShmemContext ctx = t.createCtx(0);
        t.close();
        c.expectShmemException("a destroyed team's my_pe", t::myPe, "destroyed");
        c.expectShmemException("a destroyed team's sync", t::sync, "destroyed");
        SymLongArray a = c.calloc(SymType.LONG, 1);
        c.expectShmemException("a context of a destroyed team", () -> ctx.p(a, 0, 1, 0), "destroyed");
        c.expectShmemException("split of a destroyed team", () -> t.splitStrided(0, 1, 1, null, 0), "destroyed");
        c.shmem.barrierAll();
        c.shmem.p(a, 0, 7, c.me);
        c.checkEq(7, a.get(0), "the library still works");
    }
}
