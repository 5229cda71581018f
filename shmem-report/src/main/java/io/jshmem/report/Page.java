/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The HTML page: the template (resource page.html, with its script and style inline, so that the
 * page needs no network) with the job's data as JSON in a script element.
 */
final class Page {
    /** Buckets of the "late PE over the run" chart. */
    static final int LATE_BUCKETS = 120;
    /** The instances listed in the "worst waits" table. */
    static final int WORST = 50;
    private static final String DATA_MARK = "/*DATA*/";

    private final Recordings.Job job;
    private final LateArrivals late;
    private final Traffic traffic;
    private final List<RoutineStats.Row> routines;
    private final List<List<Timeline.Block>> lanes;
    private final List<String> strings = new ArrayList<>();
    private final Map<String, Integer> stringIndex = new HashMap<>();

    Page(Recordings.Job job) {
        this.job = job;
        this.late = new LateArrivals(job);
        this.traffic = new Traffic(job);
        this.routines = RoutineStats.of(job);
        this.lanes = Timeline.of(job);
    }

    LateArrivals late() {
        return late;
    }

    Traffic traffic() {
        return traffic;
    }

    List<RoutineStats.Row> routines() {
        return routines;
    }

    String html() throws IOException {
        String template;
        try (InputStream in = Page.class.getResourceAsStream("page.html")) {
            if (in == null) {
                throw new IOException("the page template io/jshmem/report/page.html is missing from the class path");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        int at = template.indexOf(DATA_MARK);
        return template.substring(0, at) + data() + template.substring(at + DATA_MARK.length());
    }

    /** The page's data object (see page.html for how each part is drawn). */
    String data() {
        StringBuilder sb = new StringBuilder(1 << 20);
        Json j = new Json(sb);
        j.open('{');
        j.key("job").value(job.id());
        j.key("npes").value(job.pes().size());
        j.key("span").micros(job.spanNanos());
        j.key("start").value(job.startEpochNanos() / 1_000_000);
        j.key("summary").value(late.summary());
        j.key("notes").open('[');
        for (String n : job.notes()) {
            j.value(n);
        }
        j.close(']');
        List<String> nodes = Recordings.nodes(job);
        j.key("nodes").open('[');
        for (String n : nodes) {
            j.value(n);
        }
        j.close(']');
        j.key("peNode").open('[');
        for (PeRecording p : job.pes()) {
            j.value(nodes.indexOf(p.node()));
        }
        j.close(']');
        j.key("settings").open('{');
        for (var e : job.pes().get(0).env().entrySet()) {
            j.key(e.getKey()).value(e.getValue());
        }
        j.close('}');
        // team -> the algorithms its events name (PE 0's view: every member chooses alike)
        java.util.Map<String, java.util.Set<String>> algorithms = new java.util.TreeMap<>();
        for (Op o : job.pes().get(0).ops()) {
            if (o.algorithm() != null && o.team() != null) {
                algorithms.computeIfAbsent(o.team(), k -> new java.util.TreeSet<>()).add(o.kind().label() + ": " + o.algorithm());
            }
        }
        j.key("algorithms").open('{');
        for (var e : algorithms.entrySet()) {
            j.key(e.getKey()).value(String.join(", ", e.getValue()));
        }
        j.close('}');
        j.key("kinds").open('[');
        for (Kind k : Kind.values()) {
            j.value(k.label());
        }
        j.close(']');
        lanes(j);
        lateArrivals(j);
        traffic(j);
        routines(j);
        // last: the strings the lanes and tables refer to by index
        j.key("strings").open('[');
        for (String s : strings) {
            j.value(s);
        }
        j.close(']');
        j.close('}');
        return sb.toString();
    }

    private void lanes(Json j) {
        // Per lane a flat array, 10 numbers a block: kind, routine, team (string indexes, -1 none),
        // start and duration (µs), count, busy time (µs), bytes, target PE, team sequence.
        j.key("lanes").open('[');
        for (List<Timeline.Block> lane : lanes) {
            j.open('[');
            for (Timeline.Block b : lane) {
                j.value(b.kind().ordinal()).value(index(b.routine())).value(index(b.team()))
                        .micros(b.start()).micros(b.end() - b.start()).value(b.count()).micros(b.busy()).value(b.bytes())
                        .value(b.count() == 1 ? b.op().target() : -1).value(b.count() == 1 ? b.op().sequence() : 0);
            }
            j.close(']');
        }
        j.close(']');
    }

    private void lateArrivals(Json j) {
        int n = job.pes().size();
        j.key("late").open('{');
        j.key("syncs").value(late.syncs);
        j.key("collectives").value(late.collectives);
        array(j, "lastSyncs", late.lastSyncs);
        array(j, "lastCollectives", late.lastCollectives);
        j.key("waitedFor").open('[');
        for (long w : late.waitedFor) {
            j.micros(w);
        }
        j.close(']');
        // Over the run: per time bucket, how often each PE was last.
        long bucket = Math.max(1, (job.spanNanos() + LATE_BUCKETS - 1) / LATE_BUCKETS);
        int[][] counts = new int[LATE_BUCKETS][n];
        for (LateArrivals.Instance i : late.instances) {
            counts[(int) Math.min(LATE_BUCKETS - 1, i.time() / bucket)][i.late()]++;
        }
        j.key("bucket").micros(bucket);
        j.key("buckets").open('[');
        for (int[] c : counts) {
            j.open('[');
            for (int x : c) {
                j.value(x);
            }
            j.close(']');
        }
        j.close(']');
        List<LateArrivals.Instance> worst = new ArrayList<>(late.instances);
        worst.sort(Comparator.comparingLong(LateArrivals.Instance::waited).reversed());
        j.key("worst").open('[');
        for (LateArrivals.Instance i : worst.subList(0, Math.min(WORST, worst.size()))) {
            j.open('[').value(i.routine()).value(i.team()).value(i.sequence()).micros(i.time()).value(i.members())
                    .value(i.late()).micros(i.margin()).micros(i.waited()).close(']');
        }
        j.close(']');
        j.close('}');
    }

    private void traffic(Json j) {
        j.key("traffic").open('{');
        matrix(j, "bytes", traffic.bytes);
        matrix(j, "ops", traffic.ops);
        matrix(j, "put", traffic.putBytes);
        matrix(j, "get", traffic.getBytes);
        j.close('}');
    }

    private void routines(Json j) {
        j.key("routines").open('[');
        for (RoutineStats.Row r : routines) {
            j.open('[').value(r.kind()).value(r.routine()).value(r.pe()).value(r.count()).micros(r.total())
                    .micros(r.p50()).micros(r.p99()).micros(r.max()).close(']');
        }
        j.close(']');
    }

    private static void array(Json j, String key, int[] values) {
        j.key(key).open('[');
        for (int v : values) {
            j.value(v);
        }
        j.close(']');
    }

    private static void matrix(Json j, String key, long[][] m) {
        j.key(key).open('[');
        for (long[] row : m) {
            j.open('[');
            for (long v : row) {
                j.value(v);
            }
            j.close(']');
        }
        j.close(']');
    }

    private int index(String s) {
        if (s == null) {
            return -1;
        }
        return stringIndex.computeIfAbsent(s, k -> {
            strings.add(k);
            return strings.size() - 1;
        });
    }
}
