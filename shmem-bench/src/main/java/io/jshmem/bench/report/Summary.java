package io.jshmem.bench.report;

import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/** Renders the comparisons as {@code summary.md}: the targets first, then every row, then the plots. */
final class Summary {
    private Summary() {
    }

    static String markdown(List<Comparison> rows, List<String> plots, String note) {
        StringBuilder md = new StringBuilder("# jshmem vs OSHMEM benchmark summary\n\n");
        if (!note.isEmpty()) {
            md.append(note).append("\n\n");
        }
        targets(md, rows);
        table(md, rows);
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
                .append("trips on PE 0).\n\n")
                .append("| op | bytes | metric | pes | transport | jshmem | oshmem | jshmem/oshmem | target | met? |\n")
                .append("|---|---:|---|---:|---|---:|---:|---:|---|---|\n");
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
                    .append(" | ").append(c.target().map(Target::describe).orElse(""))
                    .append(" | ").append(metCell(c))
                    .append(" |\n");
        }
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
