/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import io.jshmem.bench.Metric;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.function.DoubleFunction;

/**
 * Renders the comparisons as {@code summary.md}: the targets first, then every row, then the jobs
 * (wall time, CPU-seconds, load, binding), then the plots.
 */
final class Summary {
    private Summary() {
    }

    /** The line a quick run's summary gives instead of ratios and targets. */
    static final String QUICK = "quick mode: no ratios, too few repetitions to judge";

    static String markdown(List<Comparison> rows, List<String> plots, String note) {
        return markdown(rows, plots, note, false);
    }

    /**
     * @param quick a {@code --quick} run: its values are listed, but no ratio and no target (3
     *              repetitions of ~2 ms after a warm-up that fits them are too few to judge by)
     */
    static String markdown(List<Comparison> rows, List<String> plots, String note, boolean quick) {
        StringBuilder md = new StringBuilder("# jshmem vs OSHMEM benchmark summary\n\n");
        if (!note.isEmpty()) {
            md.append(note).append("\n\n");
        }
        if (quick) {
            md.append("## Targets\n\n").append(QUICK).append(".\n\n");
        } else {
            targets(md, rows);
        }
        table(md, rows.stream().filter(c -> !c.key().metric().perJob()).toList(), quick);
        jobs(md, rows.stream().filter(c -> c.key().metric().perJob()).toList(), quick);
        md.append("\n## Plots\n\n");
        for (String png : plots) {
            md.append("![").append(png).append("](").append(png).append(")\n\n");
        }
        return md.toString();
    }

    /**
     * The targets table: one line per row that has a target, judged on the per-call median and on
     * the p99 (both must be met); the loop mean's ratio is shown beside them and decides nothing.
     * Then the UCX jobs' CPU-seconds targets, and every miss with its numbers.
     */
    private static void targets(StringBuilder md, List<Comparison> rows) {
        Map<Row.Key, Comparison> byKey = new LinkedHashMap<>();
        Set<Row.Key> subjects = new LinkedHashSet<>(); // the median keys of the rows with a target
        for (Comparison c : rows) {
            byKey.put(c.key(), c);
            Row.Key k = c.key();
            Target.medianOf(k.metric()).ifPresent(m -> {
                if (Target.base(k).isPresent()) {
                    subjects.add(withMetric(k, m));
                }
            });
        }
        List<Comparison> jobTargets = rows.stream()
                .filter(c -> c.key().metric().perJob() && c.target().isPresent()).toList();
        long met = 0;
        StringBuilder table = new StringBuilder();
        StringBuilder missed = new StringBuilder();
        for (Row.Key s : subjects) {
            Comparison p50 = byKey.get(s);
            Comparison p99 = byKey.get(withMetric(s, Target.tailOf(s.metric())));
            Comparison mean = Target.meanOf(s.metric()).map(m -> byKey.get(withMetric(s, m))).orElse(null);
            boolean ok = judged(p50) == Comparison.Status.MET && judged(p99) == Comparison.Status.MET;
            met += ok ? 1 : 0;
            String size = s.bytes() > 0 ? " " + s.bytes() + " B" : "";
            table.append("| ").append(s.op()).append(size)
                    .append(" | ").append(family(s.metric()))
                    .append(" | ").append(s.pes())
                    .append(" | ").append(s.transport())
                    .append(" | ").append(quantileCells(p50, withMetric(s, s.metric()), missed))
                    .append(" | ").append(quantileCells(p99, withMetric(s, Target.tailOf(s.metric())), missed))
                    .append(" | ").append(mean == null || mean.ratio().isEmpty() ? "" : ratio(mean.ratio().getAsDouble()))
                    .append(" | ").append(ok ? "yes" : "**NO**")
                    .append(" |\n");
        }
        long jobsMet = jobTargets.stream().filter(c -> c.status() == Comparison.Status.MET).count();
        for (Comparison c : jobTargets) {
            if (c.status() != Comparison.Status.MET) {
                missed.append("* **missed**: ").append(name(c)).append(": ").append(reason(c)).append('\n');
            }
        }
        md.append("## Targets\n\n")
                .append(met).append(" of ").append(subjects.size())
                .append(" rows meet their targets on both the median (p50) and the p99")
                .append(jobTargets.isEmpty() ? "" : "; " + jobsMet + " of " + jobTargets.size()
                        + " UCX jobs meet the CPU-seconds target")
                .append(".\n\n")
                .append("Every target is judged on per-call times (start-up: on the runs), never on the loop mean: ")
                .append("the median's ratio jshmem/oshmem against the row's bound, and jshmem's p99 at most ")
                .append(Target.P99_BOUND).append("x OSHMEM's p99 (bandwidth: at least 1/")
                .append(Target.P99_BOUND).append(" of it). The loop mean's ratio is shown and decides nothing. ")
                .append("A quantile that one side did not measure is missed.\n\n");
        if (!subjects.isEmpty()) {
            md.append("| row | kind | pes | transport | p50 jshmem / oshmem | p50 ratio | p50 target | p50 met? ")
                    .append("| p99 jshmem / oshmem | p99 ratio | p99 target | p99 met? | loop mean ratio (not judged) ")
                    .append("| met? |\n")
                    .append("|---|---|---:|---|---:|---:|---|---|---:|---:|---|---|---:|---|\n")
                    .append(table).append('\n');
        }
        md.append(missed).append('\n');
    }

    private static Row.Key withMetric(Row.Key k, Metric m) {
        return new Row.Key(k.transport(), k.pes(), k.op(), k.bytes(), m);
    }

    private static Comparison.Status judged(Comparison c) {
        return c == null ? Comparison.Status.MISSING : c.status();
    }

    private static String family(Metric median) {
        return switch (median) {
            case BW_P50 -> "bandwidth";
            case CPU_P50 -> "CPU-seconds";
            default -> "latency";
        };
    }

    /** Values, ratio, target and verdict of one quantile of a targets row; a miss goes to {@code missed}. */
    private static String quantileCells(Comparison c, Row.Key key, StringBuilder missed) {
        if (c == null) {
            Target t = Target.of(key).orElseThrow();
            missed.append("* **missed**: ").append(keyName(key)).append(": measured by neither side\n");
            return "missing / missing |  | " + t.describe() + " | **NO** (not measured)";
        }
        if (c.status() != Comparison.Status.MET) {
            missed.append("* **missed**: ").append(name(c)).append(": ").append(reason(c)).append('\n');
        }
        return value(c.jshmem()) + " / " + value(c.oshmem()) + " | "
                + (c.ratio().isPresent() ? ratio(c.ratio().getAsDouble()) : "") + " | "
                + c.target().map(Target::describe).orElse("") + " | " + metCell(c);
    }

    private static String reason(Comparison c) {
        return switch (c.status()) {
            case MISSING -> "no " + (c.jshmem().isEmpty() ? "jshmem" : "OSHMEM") + " measurement";
            default -> "jshmem/oshmem = " + ratio(c.ratio().getAsDouble()) + ", target " + c.target().get().describe();
        };
    }

    private static String name(Comparison c) {
        return keyName(c.key());
    }

    private static String keyName(Row.Key k) {
        String size = k.bytes() > 0 ? " " + k.bytes() + " B" : "";
        return k.op() + size + " " + k.metric().label() + " at " + k.pes() + " PEs on " + k.transport();
    }

    private static void table(StringBuilder md, List<Comparison> rows, boolean quick) {
        if (quick) {
            md.append("## All rows\n\n").append(QUICK).append(": each side's value only. Values are medians ")
                    .append("over the rounds.\n\n")
                    .append("| op | bytes | metric | pes | transport | jshmem | oshmem |\n")
                    .append("|---|---:|---|---:|---|---:|---:|\n");
            for (Comparison c : rows) {
                Row.Key k = c.key();
                md.append("| ").append(k.op()).append(" | ").append(k.bytes()).append(" | ").append(k.metric().label())
                        .append(" | ").append(k.pes()).append(" | ").append(k.transport())
                        .append(" | ").append(value(c.jshmem())).append(" | ").append(value(c.oshmem())).append(" |\n");
            }
            return;
        }
        md.append("## All rows\n\n")
                .append("Latency (`lat_us`): lower is better, so a ratio below 1 means jshmem is faster. ")
                .append("Bandwidth (`bw_MBps`, MB = 10^6 B) and rate (`rate_Mops`): higher is better, so a ratio ")
                .append("above 1 means jshmem is faster. `lat_us` is the loop average; for the operations ")
                .append("that wait, `lat_p50_us` and `lat_p99_us` are the median and 99th percentile of ")
                .append("per-call times (every call timed on its own, all PEs pooled; ping-pong: half round ")
                .append("trips on PE 0). `bw_p50_MBps`/`bw_p99_MBps`: the bandwidth of the median and of the ")
                .append("99th-percentile (slow) window. Targets are on the p50 and p99 rows only; the loop mean has ")
                .append("none. Time to steady state (`first1000_us`, `first100_p50_us`, `steady_p50_us`, ")
                .append("`calls_to_steady`): the first calls after init, see bench/README.md. Values are medians over ")
                .append("the rounds; the ratio is the median of the rounds' ratios (each round ran both ")
                .append("implementations back to back), with their range.\n\n")
                .append("| op | bytes | metric | pes | transport | jshmem | oshmem | jshmem/oshmem | rounds: ratio range ")
                .append("| target | met? |\n")
                .append("|---|---:|---|---:|---|---:|---:|---:|---|---|---|\n");
        for (Comparison c : rows) {
            Row.Key k = c.key();
            String jshmem = value(c.jshmem());
            md.append("| ").append(k.op())
                    .append(" | ").append(k.bytes())
                    .append(" | ").append(k.metric().label())
                    .append(" | ").append(k.pes())
                    .append(" | ").append(k.transport())
                    .append(" | ").append(jshmem)
                    .append(" | ").append(value(c.oshmem()))
                    .append(" | ").append(ratioCell(c))
                    .append(" | ").append(rangeCell(c))
                    .append(" | ").append(c.target().map(Target::describe).orElse(""))
                    .append(" | ").append(metCell(c))
                    .append(" |\n");
        }
    }

    /**
     * One line per job (benchmark program, transport, PE count): binding, wall time, CPU-seconds
     * of the launcher and all PEs, the load average at its start and the cores other processes
     * kept busy meanwhile, for both implementations.
     */
    private static void jobs(StringBuilder md, List<Comparison> rows, boolean quick) {
        if (rows.isEmpty()) {
            return;
        }
        Map<String, Map<Metric, Comparison>> byJob = new LinkedHashMap<>();
        for (Comparison c : rows) {
            Row.Key k = c.key();
            byJob.computeIfAbsent(k.op() + "|" + k.pes() + "|" + k.transport(), x -> new EnumMap<>(Metric.class))
                    .put(k.metric(), c);
        }
        md.append("\n## Jobs\n\n")
                .append("Per job (one program at one PE count and transport; `startup`: the median of the ")
                .append("hello-world runs): whether the PEs were bound to cores, wall time, CPU-seconds ")
                .append("(user + system of the launcher and every PE), the 1-minute load average at its ")
                .append("start (which includes the benchmark's own previous jobs) and the cores that other ")
                .append("processes kept busy during it (from /proc/stat). Values are jshmem / OSHMEM.\n\n")
                .append("| job | pes | transport | bound to cores | wall s | CPU s | CPU jshmem/oshmem | load avg | ")
                .append("other busy cores |\n")
                .append("|---|---:|---|---|---:|---:|---:|---:|---:|\n");
        byJob.forEach((job, m) -> {
            String[] f = job.split("\\|");
            Comparison cpu = m.get(Metric.CPU);
            md.append("| ").append(f[0].replaceFirst("^job_", ""))
                    .append(" | ").append(f[1])
                    .append(" | ").append(f[2])
                    .append(" | ").append(pair(m.get(Metric.BIND), Summary::bound))
                    .append(" | ").append(pair(m.get(Metric.WALL), Summary::num))
                    .append(" | ").append(pair(cpu, Summary::num))
                    .append(" | ").append(quick ? "-" : cpuCell(cpu))
                    .append(" | ").append(pair(m.get(Metric.LOAD), Summary::num))
                    .append(" | ").append(pair(m.get(Metric.OTHER_CPU), Summary::num))
                    .append(" |\n");
        });
    }

    /** The CPU ratio, with its target where the job has one (UCX jobs): "1.42 (≤ 1.50: met)". */
    private static String cpuCell(Comparison cpu) {
        if (cpu == null || cpu.ratio().isEmpty()) {
            return "";
        }
        String r = ratio(cpu.ratio().getAsDouble());
        return cpu.target().map(t -> r + " (" + t.describe() + ": "
                + (cpu.status() == Comparison.Status.MET ? "met" : "**missed**") + ")").orElse(r);
    }

    /** "jshmem / oshmem", "-" for a side without the value. */
    private static String pair(Comparison c, DoubleFunction<String> format) {
        if (c == null) {
            return "";
        }
        return side(c.jshmem(), format) + " / " + side(c.oshmem(), format);
    }

    private static String side(OptionalDouble v, DoubleFunction<String> format) {
        return v.isPresent() ? format.apply(v.getAsDouble()) : "-";
    }

    private static String bound(double flag) {
        return flag != 0 ? "yes" : "no";
    }

    private static String num(double x) {
        return String.format(Locale.ROOT, x >= 100 ? "%.0f" : x >= 10 ? "%.1f" : "%.2f", x);
    }

    private static String ratioCell(Comparison c) {
        OptionalDouble r = c.ratio();
        if (r.isEmpty()) {
            return "";
        }
        double v = r.getAsDouble();
        boolean faster = c.key().metric().higherIsBetter() ? v > 1 : v < 1;
        return ratio(v) + (Math.abs(v - 1) < 0.005 ? " (same)" : faster ? " (faster)" : " (slower)");
    }

    /** "3: 0.31-0.42": how many rounds had both values, and the lowest and highest of their ratios. */
    private static String rangeCell(Comparison c) {
        double[] r = c.roundRatios();
        if (r.length == 0) {
            return "";
        }
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (double x : r) {
            lo = Math.min(lo, x);
            hi = Math.max(hi, x);
        }
        return r.length + (r.length == 1 ? "" : ": " + ratio(lo) + "-" + ratio(hi));
    }

    private static String metCell(Comparison c) {
        return switch (c.status()) {
            case MET -> "yes";
            case MISSED -> "**NO**";
            case MISSING -> "**NO** (not measured)";
            case NO_TARGET -> "";
        };
    }

    /** Two decimals, or two significant digits below 0.1 (atomics can be 100x apart). */
    private static String ratio(double v) {
        return String.format(Locale.ROOT, v >= 0.1 ? "%.2f" : "%.2g", v);
    }

    /** About three or four significant digits (two below 0.01). */
    private static String value(OptionalDouble v) {
        if (v.isEmpty()) {
            return "missing";
        }
        double x = v.getAsDouble();
        String format = x >= 1000 ? "%.0f" : x >= 100 ? "%.1f" : x >= 1 ? "%.2f" : x >= 0.01 || x == 0 ? "%.3f" : "%.2g";
        return String.format(Locale.ROOT, format, x);
    }
}
