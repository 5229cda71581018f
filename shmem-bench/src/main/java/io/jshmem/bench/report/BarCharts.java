/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import io.jshmem.bench.Metric;
import java.awt.Color;
import java.awt.Font;
import java.nio.file.Path;
import java.math.BigDecimal;
import java.math.MathContext;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.plot.Plot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * Grouped bar charts, jshmem (red) and OSHMEM (blue) side by side, the second quantity of each pair
 * (p99, steady state) in a lighter tint, the value written on each bar; from the same medians over
 * the rounds as the summary. Per transport and PE count: {@code coll_8B_4pe.png}, {@code
 * coll_64KiB_4pe.png} (every collective at that size, alone and {@code +barrier_all}: p50 and p99)
 * and {@code steady_2pe.png} (time to steady state); per transport {@code barrier_pingpong.png}
 * (p50 and p99 at each PE count); and {@code startup.png} (wall time and CPU-seconds, both
 * layouts). Transports other than shm add a {@code _TRANSPORT} suffix. A chart without data is not
 * written; a bar without its row is left out.
 */
final class BarCharts {
    /** The collectives' ops (as coll.c and CollBench name them), alone or followed by a barrier. */
    private static final Pattern COLLECTIVE = Pattern.compile("(broadcast|\\w*reduce|f?collect|alltoalls?)(\\+barrier_all)?");
    private static final String WITH_BARRIER = "+barrier_all";

    private BarCharts() {
    }

    /** One group of bars: its label and the rows of its first and second quantity (null: none), times {@code scale}. */
    private record Bar(String label, Row.Key first, Row.Key second, double scale) {
        Bar(String label, Row.Key first, Row.Key second) {
            this(label, first, second, 1);
        }
    }

    static List<String> write(List<Comparison> pairs, Path dir) {
        Map<Row.Key, Comparison> byKey = new LinkedHashMap<>();
        pairs.forEach(c -> byKey.put(c.key(), c));
        Set<String> groups = new LinkedHashSet<>(); // "transport,pes", shm first (Comparison.pair's order)
        Set<String> transports = new LinkedHashSet<>();
        for (Comparison c : pairs) {
            groups.add(c.key().transport() + "," + c.key().pes());
            transports.add(c.key().transport());
        }
        List<String> written = new ArrayList<>();
        for (String group : groups) {
            String transport = group.substring(0, group.indexOf(','));
            int pes = Integer.parseInt(group.substring(group.indexOf(',') + 1));
            String where = "%d PEs, %s".formatted(pes, transport);
            String suffix = "_%dpe%s".formatted(pes, suffix(transport));
            for (long bytes : collectiveSizes(byKey, transport, pes)) {
                String size = new Charts.BytesFormat().format(bytes);
                List<Bar> bars = collectives(byKey, transport, pes, bytes);
                CategoryPlot plot = plot(byKey, bars, "p50", "p99", "latency per call (µs, lower is better)");
                save(plot, "collectives, " + size + ", " + where,
                        "coll_" + size.replace(" ", "") + suffix + ".png", dir, written);
            }
            steady(byKey, transport, pes, where, "steady" + suffix + ".png", dir, written);
        }
        for (String transport : transports) {
            List<Bar> bars = new ArrayList<>();
            for (String op : List.of("barrier_all", "pingpong")) {
                for (String group : groups) {
                    if (group.startsWith(transport + ",")) {
                        int pes = Integer.parseInt(group.substring(group.indexOf(',') + 1));
                        byKey.keySet().stream()
                                .filter(k -> k.transport().equals(transport) && k.pes() == pes && k.op().equals(op)
                                        && k.metric() == Metric.LATENCY_P50)
                                .forEach(k -> bars.add(new Bar((op.equals("pingpong") ? "ping-pong (half round trip)"
                                        : op) + ", " + pes + " PEs", k, with(k, Metric.LATENCY_P99))));
                    }
                }
            }
            save(plot(byKey, bars, "p50", "p99", "latency per call (µs, lower is better)"),
                    "barrier_all and ping-pong, " + transport, "barrier_pingpong" + suffix(transport) + ".png", dir,
                    written);
        }
        startup(byKey, dir, written);
        return written;
    }

    private static String suffix(String transport) {
        return transport.equals("shm") ? "" : "_" + transport;
    }

    private static Row.Key with(Row.Key k, Metric m) {
        return new Row.Key(k.transport(), k.pes(), k.op(), k.bytes(), m);
    }

    private static Set<Long> collectiveSizes(Map<Row.Key, Comparison> byKey, String transport, int pes) {
        Set<Long> sizes = new TreeSet<>();
        for (Row.Key k : byKey.keySet()) {
            if (k.transport().equals(transport) && k.pes() == pes && k.metric() == Metric.LATENCY_P50 && k.bytes() > 0
                    && COLLECTIVE.matcher(k.op()).matches()) {
                sizes.add(k.bytes());
            }
        }
        return sizes;
    }

    /** Every collective at this size, each op followed by its {@code +barrier_all} row. */
    private static List<Bar> collectives(Map<Row.Key, Comparison> byKey, String transport, int pes, long bytes) {
        List<String> bases = new ArrayList<>(); // the ops without the suffix, in file order
        List<Row.Key> keys = new ArrayList<>();
        for (Row.Key k : byKey.keySet()) {
            if (k.transport().equals(transport) && k.pes() == pes && k.bytes() == bytes && k.metric() == Metric.LATENCY_P50
                    && COLLECTIVE.matcher(k.op()).matches()) {
                String base = k.op().replace(WITH_BARRIER, "");
                if (!bases.contains(base)) {
                    bases.add(base);
                }
                keys.add(k);
            }
        }
        keys.sort(Comparator.comparingInt((Row.Key k) -> bases.indexOf(k.op().replace(WITH_BARRIER, "")))
                .thenComparing(k -> k.op().endsWith(WITH_BARRIER)));
        // "+barrier_all" on a line of its own (the axis wraps labels at spaces).
        return keys.stream().map(k -> new Bar(k.op().replace(WITH_BARRIER, " " + WITH_BARRIER), k,
                with(k, Metric.LATENCY_P99))).toList();
    }

    /** Time to steady state: the first 100 calls' median against the steady median, above the first 1,000 calls' time. */
    private static void steady(Map<Row.Key, Comparison> byKey, String transport, int pes, String where, String name,
            Path dir, List<String> written) {
        List<Bar> medians = new ArrayList<>();
        List<Bar> first1000 = new ArrayList<>();
        for (Row.Key k : byKey.keySet()) {
            if (k.transport().equals(transport) && k.pes() == pes && k.metric() == Metric.FIRST1000) {
                String label = k.op() + (k.bytes() > 0 ? " " + new Charts.BytesFormat().format(k.bytes()) : "");
                medians.add(new Bar(label, with(k, Metric.FIRST100_P50), with(k, Metric.STEADY_P50)));
                first1000.add(new Bar(label, k, null, 1e-3));
            }
        }
        CategoryPlot top = plot(byKey, medians, "first 100 calls: median", "steady state: median",
                "latency per call (µs)");
        CategoryPlot bottom = plot(byKey, first1000, "first 1,000 calls", "", "first 1,000 calls (ms)");
        if (top == null && bottom == null) {
            return;
        }
        CombinedDomainCategoryPlot both = new CombinedDomainCategoryPlot(new CategoryAxis());
        both.setGap(16);
        for (CategoryPlot p : new CategoryPlot[] {top, bottom}) {
            if (p != null) {
                both.add(p);
            }
        }
        both.getDomainAxis().setTickLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        save(both, "time to steady state after init, " + where, name, dir, written);
    }

    /** Start-up of a 4-PE hello world: wall time and CPU-seconds, each layout; older files: the medians only. */
    private static void startup(Map<Row.Key, Comparison> byKey, Path dir, List<String> written) {
        List<Bar> bars = new ArrayList<>();
        for (String quantity : List.of("wall time", "CPU-seconds")) {
            for (String op : List.of("startup", "startup_src")) {
                Row.Key p50 = new Row.Key("shm", 4, op, 0, quantity.equals("wall time") ? Metric.LATENCY_P50 : Metric.CPU_P50);
                Row.Key p99 = with(p50, quantity.equals("wall time") ? Metric.LATENCY_P99 : Metric.CPU_P99);
                if (!byKey.containsKey(p50)) { // files from before the quantile rows: lat_us and the job's cpu_s, medians too
                    p50 = quantity.equals("wall time") ? with(p50, Metric.LATENCY)
                            : new Row.Key("shm", 4, "job_" + op, 0, Metric.CPU);
                }
                double scale = quantity.equals("wall time") ? 1e-6 : 1;
                bars.add(new Bar(quantity + ", " + (op.equals("startup") ? "distribution" : "source tree"), p50, p99,
                        scale));
            }
        }
        CategoryPlot plot = plot(byKey, bars, "median", "p99 (slowest of 7)", "seconds (lower is better)");
        if (plot != null) {
            NumberAxis y = new NumberAxis(plot.getRangeAxis().getLabel()); // from 0: the values are close
            y.setUpperMargin(0.15); // room for the labels
            plot.setRangeAxis(y);
        }
        save(plot, "start-up of a 4-PE hello world (launch, init, finalize), shm", "startup.png", dir, written);
    }

    /**
     * Bars for each implementation and each of the two quantities ({@code second} may be ""), on a
     * log axis; series without any value are left out, and so are bars without any. Null if nothing.
     */
    private static CategoryPlot plot(Map<Row.Key, Comparison> byKey, List<Bar> bars, String first, String second,
            String yLabel) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        List<Color> paints = new ArrayList<>();
        double min = Double.POSITIVE_INFINITY;
        double max = 0;
        for (int q = 0; q < 2; q++) {
            for (String impl : List.of("jshmem", "OSHMEM")) {
                List<Double> values = new ArrayList<>();
                for (Bar b : bars) {
                    Comparison c = byKey.get(q == 0 ? b.first() : b.second());
                    OptionalDouble v = c == null ? OptionalDouble.empty() : impl.equals("jshmem") ? c.jshmem() : c.oshmem();
                    values.add(v.isPresent() && v.getAsDouble() > 0 ? v.getAsDouble() * b.scale() : null);
                }
                if (values.stream().allMatch(v -> v == null)) {
                    continue;
                }
                String series = impl + (q == 0 ? first.isEmpty() ? "" : " " + first : " " + second);
                for (int i = 0; i < bars.size(); i++) {
                    Double v = values.get(i);
                    data.addValue(v, series, bars.get(i).label());
                    if (v != null) {
                        min = Math.min(min, v);
                        max = Math.max(max, v);
                    }
                }
                Color c = impl.equals("jshmem") ? Charts.JSHMEM : Charts.OSHMEM;
                paints.add(q == 0 ? c : tint(c));
            }
        }
        // A bar label with no value in any series (a row that neither side measured) is dropped.
        for (Bar b : bars) {
            int column = data.getColumnIndex(b.label());
            if (column >= 0 && IntStream.range(0, data.getRowCount()).allMatch(s -> data.getValue(s, column) == null)) {
                data.removeColumn(column);
            }
        }
        if (data.getColumnCount() == 0) {
            return null;
        }
        BarRenderer r = new BarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setItemMargin(0.04);
        for (int i = 0; i < paints.size(); i++) {
            r.setSeriesPaint(i, paints.get(i));
        }
        r.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new Significant()));
        r.setDefaultItemLabelsVisible(true);
        r.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
        r.setDefaultPositiveItemLabelPosition(new ItemLabelPosition(ItemLabelAnchor.OUTSIDE12, TextAnchor.CENTER_LEFT,
                TextAnchor.CENTER_LEFT, -Math.PI / 2));
        CategoryAxis x = new CategoryAxis();
        x.setTickLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        x.setMaximumCategoryLabelLines(3);
        x.setMaximumCategoryLabelWidthRatio(1.4f); // "+barrier_all" whole on its line, not cut
        x.setCategoryMargin(0.25);
        ValueAxis y = Charts.decades(yLabel, min, max * 3); // room above the tallest bar for its label
        CategoryPlot plot = new CategoryPlot(data, x, y, r);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeMinorGridlinesVisible(true);
        plot.setRangeMinorGridlinePaint(new Color(0xE6, 0xE6, 0xE6));
        return plot;
    }

    /** The colour mixed half with white: the second quantity of a pair. */
    private static Color tint(Color c) {
        return new Color((c.getRed() + 255) / 2, (c.getGreen() + 255) / 2, (c.getBlue() + 255) / 2);
    }

    /** A bar's value to 3 significant digits, without trailing zeros: 0.191, 11.2, 115, 2470. */
    private static final class Significant extends NumberFormat {
        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            return to.append(new BigDecimal(number).round(new MathContext(3)).stripTrailingZeros().toPlainString());
        }

        @Override
        public StringBuffer format(long number, StringBuffer to, FieldPosition pos) {
            return format((double) number, to, pos);
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            throw new UnsupportedOperationException("labels are never parsed");
        }
    }

    private static void save(Plot plot, String title, String name, Path dir, List<String> written) {
        if (plot == null) {
            return;
        }
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        Charts.save(chart, dir.resolve(name), plot instanceof CombinedDomainCategoryPlot ? 800 : 560);
        written.add(name);
    }
}
