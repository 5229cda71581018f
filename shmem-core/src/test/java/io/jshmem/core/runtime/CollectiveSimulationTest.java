/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.core.coll.TeamSlot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The collective simulator (issue 36 item 5): the real collective code (teams, {@code core.coll}'s
 * algorithm classes, {@code Comm}) runs in an {@link InProcessJob} of N PEs on simulated nodes, whose
 * network is a {@link CountingTransport}. Per collective and size it reports the steps on the
 * critical path (network messages, and all steps including on-node hand-overs), and the messages,
 * bytes and endpoints (distinct other-node PEs) of the busiest PE; then a fit of each count against
 * log2 N and N, extrapolated to 65,536 PEs (an extrapolation, not a measurement). Nothing is timed.
 *
 * <p>It asserts the issue's bounds (at every simulated N, and on the extrapolation) for what meets
 * them today, and for the known gaps ({@link #GAPS}) that they still miss them from the N given
 * there: fixing one fails this test until the gap is taken out of the list (and out of
 * bench/README.md's). The critical-path steps come from depths that writes carry and waits load
 * ({@link CountingTransport.Clock}, {@link TeamSlot#probe}).
 *
 * <p>Larger runs: {@code -Djshmem.sim.sizes=64,256,1024 -Djshmem.sim.perNode=64} (thousands of PEs
 * on 2 cores also need {@code -Djshmem.test.stepSeconds=1800}, and {@code -Djshmem.sim.skip=...}
 * for time); the table goes to standard output and {@code target/collective-simulation.txt}.
 */
class CollectiveSimulationTest {
    private static final long SIM_N = 65_536;
    /** Cases left out of a large run ({@code -Djshmem.sim.skip="alltoall 8 B"}): n^2 messages take long here. */
    private static final Set<String> SKIP = Set.of(System.getProperty("jshmem.sim.skip", "").split(","));

    /**
     * What does not meet the issue's targets today (collective and size, as in the table), from
     * which N on: there it must still miss them, below it meet them. None today: Bruck's rounds
     * past a push buffer went a push per 8 KiB (O(N) messages from about 8,192 PEs) until they
     * went whole into the receiver's dest ({@link #pastBufferFrom}).
     */
    private static final Map<String, Integer> GAPS = Map.of();

    /** Cases held to the issue's bound on the busiest PE's messages but not on rounds (large data: rounds per chunk). */
    private static final Set<String> MESSAGES_BOUNDED = Set.of("sum_reduce 64 KiB", "broadcast 64 KiB");

    /**
     * Large broadcasts pipelined down the node tree: no PE sends more than 3 x the data to other
     * nodes (the counting transport counts only those; a leader also copies it to up to 2 PEs of its
     * node), plus notices, at any N ({@code PipelinedBroadcast}; a binomial tree's root sends it
     * log2 N times).
     */
    private static final long BROADCAST_BYTES_FACTOR = 3;

    /** One collective call, run on every PE. */
    private interface Call {
        void run(Shmem s, ShmemTeam world, SymLongArray dst, SymLongArray src, int me, int n);
    }

    private record Case(String name, long bytes, boolean bounded, Call call, Call check) {
    }

    record Row(int n, int perNode, String name, long bytes, int netRounds, int steps, long busiestMessages, long busiestBytes,
            int busiestEndpoints, long totalMessages) {
        String key() {
            return name + " " + size(bytes);
        }
    }

    private static final long VALUE = 1_000_000;

    private static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("barrier", 0, true, (s, w, d, src, me, n) -> s.barrierAll(), (s, w, d, src, me, n) -> { }));
        for (long bytes : new long[] {8, 64 << 10}) {
            long len = bytes / 8;
            cases.add(new Case("broadcast", bytes, bytes == 8, (s, w, d, src, me, n) -> w.broadcast(d, src, len, 0),
                    (s, w, d, src, me, n) -> {
                        if (me != 0) { // PE 0's source holds its index at each element; a 64 KiB call is 4 chunks
                            for (long i = 0; i < len; i += Math.max(1, len / 8)) {
                                assertEquals(i, d.get(i), "broadcast on PE " + me + " [" + i + "]");
                            }
                            assertEquals(len - 1, d.get(len - 1), "broadcast on PE " + me);
                        }
                    }));
            cases.add(new Case("sum_reduce", bytes, bytes == 8, (s, w, d, src, me, n) -> w.sumReduce(d, src, len),
                    (s, w, d, src, me, n) -> assertEquals(VALUE * n * (n - 1) / 2 + (long) n * (len - 1), d.get(len - 1),
                            "sum_reduce on PE " + me)));
        }
        // Small (bounded: fcollect within a push buffer gathered at PE 0, above it and alltoall Bruck's way
        // across nodes) and large blocks (pairwise alltoall; fcollect into dest, a ring from 512 KiB in all).
        // 256 B: Bruck's largest blocks, whose later rounds at 256 PEs go past a push buffer (as 8 B's
        // from 4,096 PEs on).
        for (long bytes : new long[] {8, 64, 256, LARGE_BLOCK}) {
            long per = bytes / 8;
            cases.add(new Case("fcollect", bytes, bytes < LARGE_BLOCK, (s, w, d, src, me, n) -> w.fcollect(d, src, per),
                    (s, w, d, src, me, n) -> checkBlocks("fcollect", d, me, n, per, i -> VALUE * i)));
            if (bytes == 64) {
                continue;
            }
            cases.add(new Case("alltoall", bytes, bytes < LARGE_BLOCK, (s, w, d, src, me, n) -> w.alltoall(d, src, per),
                    (s, w, d, src, me, n) -> checkBlocks("alltoall", d, me, n, per, i -> VALUE * i + me * per)));
        }
        // sum_inscan: through the node leaders by recursive doubling, a push a round (each PE's result:
        // VALUE * the sum of the PEs up to it).
        cases.add(new Case("sum_inscan", 8, true, (s, w, d, src, me, n) -> w.sumInscan(d, src, 1),
                (s, w, d, src, me, n) -> assertEquals(VALUE * me * (me + 1) / 2, d.get(0), "sum_inscan on PE " + me)));
        // collect (sizes may differ by PE; here all 8 B): through the node leaders, node totals first.
        cases.add(new Case("collect", 8, true, (s, w, d, src, me, n) -> w.collect(d, src, 1),
                (s, w, d, src, me, n) -> checkBlocks("collect", d, me, n, 1, i -> VALUE * i)));
        return cases;
    }

    /** The block size of the large fcollect and alltoall cases, run up to {@link #LARGE_MAX_N} PEs (n blocks per array). */
    private static final long LARGE_BLOCK = 4096;
    private static final int LARGE_MAX_N = 256;

    /** dest's first and last element of each member's block: member i's block starts with {@code first(i)}, then counts up by 1. */
    private static void checkBlocks(String what, SymLongArray d, int me, int n, long per, java.util.function.IntToLongFunction first) {
        for (int i = 0; i < n; i++) {
            assertEquals(first.applyAsLong(i), d.get(i * per), what + " on PE " + me + ", block " + i);
            assertEquals(first.applyAsLong(i) + per - 1, d.get(i * per + per - 1), what + " on PE " + me + ", end of block " + i);
        }
    }

    /** Runs every case once to warm up and once counted, in a job of {@code n} PEs, {@code perNode} per node. */
    static List<Row> simulate(int n, int perNode) throws Exception {
        int[] nodes = IntStream.range(0, n).map(i -> i / perNode).toArray();
        CountingTransport.Clock clock = new CountingTransport.Clock(n);
        CountingTransport[] counting = new CountingTransport[n];
        Runnable[] wakes = new Runnable[n];
        List<Row> rows = new ArrayList<>();
        // atomics=transport: adds on mapped heaps come through the counting transport too (see there)
        boolean large = n <= LARGE_MAX_N;
        // n blocks of the largest case run (fcollect and alltoall: 256 B, or LARGE_BLOCK), in longs
        int len = (int) Math.max(n * (large ? LARGE_BLOCK / 8 : 32), 8192);
        String heap = Math.max(2, (2L * len * 8 >> 20) + 1) + "m"; // src and dst, and the internal region
        try (InProcessJob job = new InProcessJob(nodes, true, "transport", false, "auto", heap,
                (pe, t) -> counting[pe] = new CountingTransport(pe, nodes, clock, wakes, t))) {
            clock.learn(job.runtimes);
            SymLongArray[] src = new SymLongArray[n];
            SymLongArray[] dst = new SymLongArray[n];
            job.all(pe -> {
                Shmem s = job.shmem(pe);
                src[pe] = s.malloc(SymType.LONG, len);
                dst[pe] = s.malloc(SymType.LONG, len);
                for (int i = 0; i < len; i++) {
                    src[pe].set(i, VALUE * pe + i);
                }
                s.barrierAll();
                return null;
            });
            TeamSlot.probe = clock;
            try {
                for (Case c : cases()) {
                    if (SKIP.contains(c.name + " " + size(c.bytes)) || !large && c.bytes == LARGE_BLOCK) {
                        continue;
                    }
                    long started = System.nanoTime();
                    for (int pass = 0; pass < 2; pass++) {
                        clock.reset();
                        for (CountingTransport t : counting) {
                            t.reset();
                        }
                        job.all(pe -> {
                            clock.enter(pe);
                            Shmem s = job.shmem(pe);
                            c.call.run(s, s.teamWorld(), dst[pe], src[pe], pe, n);
                            c.check.run(s, s.teamWorld(), dst[pe], src[pe], pe, n);
                            return null;
                        });
                    }
                    rows.add(row(n, perNode, c, clock, counting));
                    System.out.println("simulated in " + (System.nanoTime() - started) / 1_000_000 + " ms: " + rows.get(rows.size() - 1)); // progress of a long run
                }
            } finally {
                TeamSlot.probe = null;
            }
        }
        return rows;
    }

    private static Row row(int n, int perNode, Case c, CountingTransport.Clock clock, CountingTransport[] counting) {
        int net = 0;
        int steps = 0;
        long messages = 0;
        long bytes = 0;
        int endpoints = 0;
        long total = 0;
        for (int pe = 0; pe < n; pe++) {
            net = Math.max(net, CountingTransport.Clock.net(clock.depth[pe]));
            steps = Math.max(steps, CountingTransport.Clock.steps(clock.depth[pe]));
            messages = Math.max(messages, counting[pe].messages);
            bytes = Math.max(bytes, counting[pe].bytes);
            endpoints = Math.max(endpoints, counting[pe].endpoints.cardinality());
            total += counting[pe].messages;
        }
        return new Row(n, perNode, c.name, c.bytes, net, steps, messages, bytes, endpoints, total);
    }

    /**
     * For the cases that go Bruck's way (alltoall; fcollect with one PE per node, else it goes
     * through the node leaders; up to 256 B per PE), the N from which some round's run is larger
     * than a push buffer and so goes into the receiver's dest instead, three messages a round
     * ({@code BufferedRounds}); 0 for the others. A fit over sizes on both sides of it does not
     * hold: the extrapolation takes only the rows from it on.
     */
    static int pastBufferFrom(String name, long bytes, int perNode) {
        boolean alltoall = name.equals("alltoall");
        if (!alltoall && !(name.equals("fcollect") && perNode == 1) || bytes > 256) {
            return 0;
        }
        for (int n = 2; n <= SIM_N; n++) {
            for (int dist = 1; dist < n; dist <<= 1) {
                long places = alltoall ? bruckPlaces(n, dist) : Math.min(dist, n - dist);
                if (places * bytes > io.jshmem.core.coll.TeamSlots.BUF_BYTES) {
                    return n;
                }
            }
        }
        return 0;
    }

    /** The places of Bruck's alltoall over {@code n} that the round at distance {@code dist} moves: those below n with that bit set. */
    static long bruckPlaces(long n, long dist) {
        return n / (2 * dist) * dist + Math.max(0, n % (2 * dist) - dist);
    }

    /** The rows of a case that its extrapolation to 65,536 may use: those past its {@link #pastBufferFrom}. */
    static List<Row> fitRows(List<Row> rs) {
        int from = pastBufferFrom(rs.get(0).name, rs.get(0).bytes, rs.get(0).perNode);
        return rs.stream().filter(r -> r.n >= from).toList();
    }

    static int ceilLog2(long n) {
        return 64 - Long.numberOfLeadingZeros(n - 1);
    }

    /**
     * Whether an alltoall of {@code bytes} per PE goes through the node leaders ({@code
     * push-hierarchical}): small blocks, up to 64 nodes, whose leaders' largest Bruck run (places
     * with bit k set, m x m blocks each) fits a push buffer.
     */
    static boolean leadersAlltoall(long nodes, int perNode, long bytes) {
        long most = 0;
        for (long dist = 1; dist < nodes; dist <<= 1) {
            most = Math.max(most, bruckPlaces(nodes, dist));
        }
        return bytes <= 256 && nodes <= 64 && most * perNode * perNode * bytes <= io.jshmem.core.coll.TeamSlots.BUF_BYTES;
    }

    /** The issue's bound on critical-path steps for barrier, broadcast and reduce (small): ceil(log2 N) + 2. */
    static long roundBound(int n) {
        return ceilLog2(n) + 2;
    }

    /** The issue's bound on the busiest PE's messages: 2 ceil(log2 N) + 64. */
    static long messageBound(int n) {
        return 2L * ceilLog2(n) + 64;
    }

    private static boolean meets(Row r) {
        boolean rounds = r.name.equals("fcollect") || r.name.equals("collect") || r.name.equals("alltoall") || MESSAGES_BOUNDED.contains(r.key())
                || r.steps <= roundBound(r.n);
        return rounds && r.busiestMessages <= messageBound(r.n);
    }

    @Test
    void countsAgainstTheIssueBounds() throws Exception {
        int[] sizes = Arrays.stream(System.getProperty("jshmem.sim.sizes", "64,128,256,512").split(","))
                .mapToInt(x -> Integer.parseInt(x.trim())).toArray();
        int perNode = Integer.getInteger("jshmem.sim.perNode", 4);
        List<Row> rows = new ArrayList<>();
        for (int n : sizes) {
            rows.addAll(simulate(n, perNode));
        }
        String report = report(rows);
        System.out.println(report);
        Files.writeString(Path.of("target", "collective-simulation.txt"), report);
        List<String> failures = new ArrayList<>();
        Map<String, List<Row>> byKey = new LinkedHashMap<>();
        rows.forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        for (List<Row> rs : byKey.values()) {
            Row last = rs.get(rs.size() - 1);
            Case c = cases().stream().filter(x -> x.name.equals(last.name) && x.bytes == last.bytes).findFirst().orElseThrow();
            for (Row r : rs) {
                assertTrue(r.busiestEndpoints <= r.n - perNode, "endpoints are PEs on other nodes: " + r);
                // A small reduction, an fcollect, a small scan and a small alltoall (while the leaders'
                // runs fit) go through the node leaders (a collect also with a PE per node): only they
                // send across nodes.
                long nodes = (r.n + perNode - 1) / perNode;
                boolean leadersOnly = r.name.equals("sum_reduce") && r.bytes == 8
                        || (r.name.equals("fcollect") || r.name.equals("sum_inscan")) && perNode > 1 || r.name.equals("collect")
                        || r.name.equals("alltoall") && perNode > 1 && leadersAlltoall(nodes, perNode, r.bytes);
                if (leadersOnly && r.totalMessages > nodes * r.busiestMessages) {
                    failures.add(r.key() + " at N = " + r.n + ": " + r.totalMessages + " messages in all, more than the "
                            + nodes + " node leaders' " + r.busiestMessages + " each: " + r);
                }
                if (r.name.equals("broadcast") && r.bytes > io.jshmem.core.coll.TeamSlots.BUF_BYTES
                        && r.busiestBytes > BROADCAST_BYTES_FACTOR * r.bytes + 1024) {
                    failures.add(r.key() + " at N = " + r.n + ": the busiest PE sent " + r.busiestBytes + " B, over "
                            + BROADCAST_BYTES_FACTOR + " x the data: " + r);
                }
            }
            if (!c.bounded && !MESSAGES_BOUNDED.contains(last.key())) {
                continue;
            }
            for (Row r : rs) {
                boolean gap = GAPS.containsKey(r.key()) && r.n >= GAPS.get(r.key());
                if (gap && meets(r)) {
                    failures.add(r.key() + " now meets the bounds at N = " + r.n + ": update GAPS (and bench/README.md)");
                } else if (!gap && !meets(r)) {
                    failures.add(r.key() + " at N = " + r.n + " misses the bounds (steps <= " + roundBound(r.n)
                            + ", busiest PE's messages <= " + messageBound(r.n) + "): " + r);
                }
            }
            if (GAPS.containsKey(last.key())) {
                continue;
            }
            List<Row> fit = fitRows(rs);
            if (fit.size() < 3 && pastBufferFrom(last.name, last.bytes, last.perNode) > 0) {
                // Its rounds past a push buffer run as those of the 256 B case of the same collective,
                // whose extrapolation must then be checked here (three messages a round whatever the size).
                List<Row> standIn = byKey.getOrDefault(last.name + " 256 B", List.of());
                if (standIn.isEmpty() || fitRows(standIn).size() < 3) {
                    failures.add(last.key() + (last.bytes == 256 ? "" : " (and " + last.name + " 256 B, which stands in for it)")
                            + " has fewer than 3 sizes past a push buffer (from N = " + pastBufferFrom(last.name, last.bytes, last.perNode)
                            + ") to extrapolate: simulate larger sizes");
                }
            }
            if (fit.size() >= 3) { // the extrapolation to 65,536 must meet them too
                double[] x = fit.stream().mapToDouble(r -> r.n).toArray();
                double steps = Fit.best(x, fit.stream().mapToDouble(r -> r.steps).toArray()).at(SIM_N);
                double messages = Fit.best(x, fit.stream().mapToDouble(r -> r.busiestMessages).toArray()).at(SIM_N);
                boolean roundsBounded = !(last.name.equals("fcollect") || last.name.equals("collect") || last.name.equals("alltoall") || MESSAGES_BOUNDED.contains(last.key()));
                if ((roundsBounded && steps > roundBound((int) SIM_N) + 0.5) || messages > messageBound((int) SIM_N) + 0.5) {
                    failures.add(last.key() + " extrapolated to N = 65,536 misses the bounds: " + Math.round(steps) + " steps, "
                            + Math.round(messages) + " messages at the busiest PE");
                }
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    // ---------------------------------------------------------------- the report

    static String size(long bytes) {
        return bytes == 0 ? "-" : bytes >= 1024 ? (bytes >> 10) + " KiB" : bytes + " B";
    }

    /** The table, then per collective the fits of steps and busiest messages against log2 N and N, at N = 65,536. */
    static String report(List<Row> rows) {
        StringBuilder b = new StringBuilder("collective simulation (real core.coll code, counting transport; steps: on the critical path,"
                + " network messages / all hand-overs)\n");
        b.append(String.format("%6s %5s %-11s %7s %5s %5s %9s %10s %9s %9s%n", "N", "/node", "collective", "size", "net",
                "steps", "busy msgs", "busy bytes", "endpoints", "all msgs"));
        for (Row r : rows) {
            b.append(String.format("%6d %5d %-11s %7s %5d %5d %9d %10d %9d %9d%n", r.n, r.perNode, r.name, size(r.bytes), r.netRounds,
                    r.steps, r.busiestMessages, r.busiestBytes, r.busiestEndpoints, r.totalMessages));
        }
        Map<String, List<Row>> byKey = new LinkedHashMap<>();
        rows.forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        b.append("\nEXTRAPOLATION to N = 65,536 (least squares, a + b log2 N or a + b N, whichever fits better; not measured):\n");
        b.append(String.format("%-18s %-28s %-28s%n", "collective", "steps", "busiest PE's messages"));
        for (var e : byKey.entrySet()) {
            List<Row> rs = fitRows(e.getValue());
            int from = pastBufferFrom(e.getValue().get(0).name, e.getValue().get(0).bytes, e.getValue().get(0).perNode);
            if (rs.size() < 3) { // two points fit both models exactly
                if (from > 0) {
                    b.append(String.format("%-18s rounds past a push buffer from N = %d: too few sizes here, see %s 256 B%n", e.getKey(),
                            from, e.getValue().get(0).name));
                }
                continue;
            }
            double[] x = rs.stream().mapToDouble(r -> r.n).toArray();
            b.append(String.format("%-18s %-28s %-28s%s%n", e.getKey(), Fit.best(x, rs.stream().mapToDouble(r -> r.steps).toArray()),
                    Fit.best(x, rs.stream().mapToDouble(r -> r.busiestMessages).toArray()),
                    from > 0 ? " (from N = " + from + ")" : ""));
        }
        b.append(String.format("bounds at N = 65,536: steps <= %d, busiest PE's messages <= %d%n", ceilLog2(SIM_N) + 2,
                2 * ceilLog2(SIM_N) + 64));
        // A fit holds only while the algorithm stays the same: the gaps say from which N it does not.
        GAPS.forEach((key, from) -> b.append("known gap: ").append(key).append(" from N = ").append(from).append('\n'));
        return b.toString();
    }

    /** y = a + b f(N), f = log2 or identity: the better fit and its value at 65,536. */
    record Fit(String model, double a, double b, double residual) {
        static Fit fit(double[] n, double[] y, boolean log) {
            int k = n.length;
            double[] f = Arrays.stream(n).map(v -> log ? Math.log(v) / Math.log(2) : v).toArray();
            double mf = Arrays.stream(f).average().orElse(0);
            double my = Arrays.stream(y).average().orElse(0);
            double sxy = 0;
            double sxx = 0;
            for (int i = 0; i < k; i++) {
                sxy += (f[i] - mf) * (y[i] - my);
                sxx += (f[i] - mf) * (f[i] - mf);
            }
            double b = sxx == 0 ? 0 : sxy / sxx;
            double a = my - b * mf;
            double res = 0;
            for (int i = 0; i < k; i++) {
                double d = y[i] - (a + b * f[i]);
                res += d * d;
            }
            return new Fit(log ? "log2 N" : "N", a, b, res);
        }

        static Fit best(double[] n, double[] y) {
            Fit l = fit(n, y, true);
            Fit lin = fit(n, y, false);
            return lin.residual < l.residual - 1e-9 ? lin : l; // ties (e.g. constants): log
        }

        double at(double n) {
            return a + b * (model.equals("N") ? n : Math.log(n) / Math.log(2));
        }

        @Override
        public String toString() {
            return String.format("%.0f (%.2f + %.3g %s)", at(SIM_N), a, b, model);
        }
    }
}
