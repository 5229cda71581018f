package io.jshmem.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/** A jshmem row and the OSHMEM row with the same key, either of which may be missing. */
record Comparison(Row.Key key, OptionalDouble jshmem, OptionalDouble oshmem, String unit, Optional<Target> target) {

    /** The outcome of the row's target check. */
    enum Status { MET, MISSED, MISSING, NO_TARGET }

    /** jshmem / oshmem, when both were measured. */
    OptionalDouble ratio() {
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
     * twice keeps its last value.
     */
    static List<Comparison> pair(List<Row> rows) {
        Map<Row.Key, Map<String, Double>> values = new LinkedHashMap<>();
        Map<Row.Key, String> units = new LinkedHashMap<>();
        for (Row r : rows) {
            values.computeIfAbsent(r.key(), k -> new LinkedHashMap<>()).put(r.impl(), r.value());
            units.putIfAbsent(r.key(), r.unit());
        }
        List<Comparison> out = new ArrayList<>();
        values.forEach((k, byImpl) -> out.add(new Comparison(k, get(byImpl, "jshmem"), get(byImpl, "oshmem"),
                units.get(k), Target.of(k))));
        out.sort(Comparator.comparing((Comparison c) -> !c.key.transport().equals("shm"))
                .thenComparing(c -> c.key.transport())
                .thenComparingInt(c -> c.key.pes()));
        return out;
    }

    private static OptionalDouble get(Map<String, Double> byImpl, String impl) {
        Double v = byImpl.get(impl);
        return v == null ? OptionalDouble.empty() : OptionalDouble.of(v);
    }
}
