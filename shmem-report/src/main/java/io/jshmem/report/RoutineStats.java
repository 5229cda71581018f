/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Per routine and PE: count, total time, p50 and p99 of its events' durations. */
final class RoutineStats {
    /** One row of the table; {@code pe} -1 for all PEs together. */
    record Row(String kind, String routine, int pe, long count, long total, long p50, long p99, long max) {
    }

    private RoutineStats() {
    }

    static List<Row> of(Recordings.Job job) {
        // kind/routine -> per PE durations (grown arrays: millions of events stay compact)
        Map<String, long[][]> durations = new TreeMap<>();
        Map<String, int[]> counts = new TreeMap<>();
        int n = job.pes().size();
        for (PeRecording p : job.pes()) {
            Map<Kind, Map<String, String>> keys = new java.util.EnumMap<>(Kind.class); // one key string per kind and routine
            for (Op o : p.ops()) {
                String key = keys.computeIfAbsent(o.kind(), k -> new java.util.HashMap<>())
                        .computeIfAbsent(o.routine(), r -> o.kind().label() + '\u0000' + r);
                long[][] d = durations.computeIfAbsent(key, k -> new long[n][]);
                int[] c = counts.computeIfAbsent(key, k -> new int[n]);
                if (d[p.pe()] == null) {
                    d[p.pe()] = new long[16];
                } else if (c[p.pe()] == d[p.pe()].length) {
                    d[p.pe()] = Arrays.copyOf(d[p.pe()], c[p.pe()] * 2);
                }
                d[p.pe()][c[p.pe()]++] = o.duration();
            }
        }
        List<Row> rows = new java.util.ArrayList<>();
        for (var e : durations.entrySet()) {
            String[] kr = e.getKey().split("\u0000", 2);
            int[] c = counts.get(e.getKey());
            long[] all = new long[Arrays.stream(c).sum()];
            int at = 0;
            for (int pe = 0; pe < n; pe++) {
                if (c[pe] > 0) {
                    long[] d = Arrays.copyOf(e.getValue()[pe], c[pe]);
                    System.arraycopy(d, 0, all, at, d.length);
                    at += d.length;
                    rows.add(row(kr, pe, d));
                }
            }
            rows.add(rows.size() - countPes(c), row(kr, -1, all));
        }
        return rows;
    }

    private static int countPes(int[] c) {
        return (int) Arrays.stream(c).filter(x -> x > 0).count();
    }

    private static Row row(String[] kindRoutine, int pe, long[] d) {
        Arrays.sort(d);
        long total = 0;
        for (long x : d) {
            total += x;
        }
        return new Row(kindRoutine[0], kindRoutine[1], pe, d.length, total, percentile(d, 0.50), percentile(d, 0.99),
                d[d.length - 1]);
    }

    /** The nearest-rank percentile of sorted durations. */
    static long percentile(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
