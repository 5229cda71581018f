/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import io.jshmem.bench.Metric;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;

/**
 * Renders the comparisons as {@code summary.md}: the targets first, then every row, then the jobs
 * (wall time, CPU-seconds, load, binding), then the plots.
 */
final class Summary {
    private Summary() {
    }

    static String markdown(List<Comparison> rows, List<String> plots, String note) {
        StringBuilder md = new StringBuilder("# jshmem vs OSHMEM benchmark summary\n\n");
        if (!note.isEmpty()) {
            md.append(note).append("\n\n");
        }
        targets(md, rows);
        table(md, rows.stream().filter(c -> !c.key().metric().perJob()).toList());
        jobs(md, rows.stream().filter(c -> c.key().metric().perJob()).toList());
        md.append("\n## Plots\n\n");
        for (String png : plots) {
            md.append("![").append(png).append("](").append(png).append(")\n\n");
        }
        return md.toString();
    }

    private static void targets(StringBuilder md, List<Comparison> rows) {
        List<Comparison> withTarget = rows.stream().filter(c -> c.target().isPresent()).toList();
        long met = withTarget.stream().filter(c -> c.status() == Comparison.Status.MET).count();
        md.append("## Targets\n\n")
                .append(met).append(" of ").append(withTarget.size()).append(" targets met.\n\n");
        for (Comparison c : withTarget) {
            if (c.status() != Comparison.Status.MET) {
                md.append("* **missed**: ").append(name(c)).append(": ").append(reason(c)).append('\n');
            }
        }
        md.append('\n');
    }

    private static String reason(Comparison c) {
        return switch (c.status()) {
            case MISSING -> "no " + (c.jshmem().isEmpty() ? "jshmem" : "OSHMEM") + " measurement";
            default -> "jshmem/oshmem = " + ratio(c.ratio().getAsDouble()) + ", target " + c.target().get().describe();
        };
    }

    private static String name(Comparison c) {
        Row.Key k = c.key();
        String size = k.bytes() > 0 ? " " + k.bytes() + " B" : "";
        return k.op() + size + " " + k.metric().label() + " at " + k.pes() + " PEs on " + k.transport();
    }

    private static void table(StringBuilder md, List<Comparison> rows) {
        md.append("## All rows\n\n")
                .append("Latency (`lat_us`): lower is better, so a ratio below 1 means jshmem is faster. ")
                .append("Bandwidth (`bw_MBps`, MB = 10^6 B) and rate (`rate_Mops`): higher is better, so a ratio ")
                .append("above 1 means jshmem is faster. `lat_us` is the loop average; for the operations ")
                .append("that wait, `lat_p50_us` and `lat_p99_us` are the median and 99th percentile of ")
                .append("per-call times (every call timed on its own, all PEs pooled; ping-pong: half round ")
                .append("trips on PE 0). Values are medians over the rounds; the ratio is the median of the ")
                .append("rounds' ratios (each round ran both implementations back to back), with their range.\n\n")
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
    private static void jobs(StringBuilder md, List<Comparison> rows) {
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
                    .append(" | ").append(cpuCell(cpu))
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
