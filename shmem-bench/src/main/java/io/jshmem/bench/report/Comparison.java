/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * A jshmem row and the OSHMEM row with the same key, either of which may be missing: each side's
 * median over the run's rounds, and the ratio of every round in which both were measured.
 *
 * @param roundRatios jshmem/oshmem of each round that has both values, in round order
 */
record Comparison(Row.Key key, OptionalDouble jshmem, OptionalDouble oshmem, String unit, Optional<Target> target,
        double[] roundRatios) {

    /** The outcome of the row's target check. */
    enum Status { MET, MISSED, MISSING, NO_TARGET }

    /**
     * jshmem / oshmem: the median of the per-round ratios (each round's two jobs ran back to back,
     * so a machine that changes speed between rounds moves both), else the ratio of the medians.
     */
    OptionalDouble ratio() {
        if (roundRatios.length > 0) {
            return OptionalDouble.of(median(roundRatios));
        }
        return jshmem.isPresent() && oshmem.isPresent() && oshmem.getAsDouble() > 0
                ? OptionalDouble.of(jshmem.getAsDouble() / oshmem.getAsDouble())
                : OptionalDouble.empty();
    }

    Status status() {
        if (target.isEmpty()) {
            return Status.NO_TARGET;
        }
        OptionalDouble r = ratio();
        if (r.isEmpty()) {
            return Status.MISSING;
        }
        return target.get().met(r.getAsDouble()) ? Status.MET : Status.MISSED;
    }

    /**
     * Pairs the rows by key: grouped by transport (shm first) and PE count, and within a group in
     * the order the keys first appear in the file (the benchmarks' own order). A key measured
     * twice in one round keeps its last value.
     */
    static List<Comparison> pair(List<Row> rows) {
        // key -> impl -> round -> value
        Map<Row.Key, Map<String, TreeMap<Integer, Double>>> values = new LinkedHashMap<>();
        Map<Row.Key, String> units = new LinkedHashMap<>();
        for (Row r : rows) {
            values.computeIfAbsent(r.key(), k -> new LinkedHashMap<>())
                    .computeIfAbsent(r.impl(), i -> new TreeMap<>()).put(r.round(), r.value());
            units.putIfAbsent(r.key(), r.unit());
        }
        List<Comparison> out = new ArrayList<>();
        values.forEach((k, byImpl) -> {
            TreeMap<Integer, Double> j = byImpl.getOrDefault("jshmem", new TreeMap<>());
            TreeMap<Integer, Double> o = byImpl.getOrDefault("oshmem", new TreeMap<>());
            double[] ratios = j.entrySet().stream()
                    .filter(e -> o.containsKey(e.getKey()) && o.get(e.getKey()) > 0)
                    .mapToDouble(e -> e.getValue() / o.get(e.getKey())).toArray();
            out.add(new Comparison(k, median(j), median(o), units.get(k), Target.of(k), ratios));
        });
        out.sort(Comparator.comparing((Comparison c) -> !c.key.transport().equals("shm"))
                .thenComparing(c -> c.key.transport())
                .thenComparingInt(c -> c.key.pes()));
        return out;
    }

    private static OptionalDouble median(TreeMap<Integer, Double> byRound) {
        return byRound.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(median(byRound.values().stream().mapToDouble(Double::doubleValue).toArray()));
    }

    /** The median; of an even count, the mean of the middle two. */
    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
