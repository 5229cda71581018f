/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import io.jshmem.bench.Metric;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.FieldPosition;
import java.text.NumberFormat;
import java.text.ParsePosition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Log-log plots of latency and bandwidth against message size, jshmem and OSHMEM on one chart:
 * {@code put_lat_2pe.png}, {@code get_bw_4pe.png}, ... (with a {@code _TRANSPORT} suffix for
 * transports other than shm); then {@link BarCharts}' bar charts (collectives, barrier and
 * ping-pong, start-up, time to steady state). Needs no display (run with {@code -Djava.awt.headless=true}).
 */
final class Charts {
    private static final int WIDTH = 900;
    private static final int HEIGHT = 560;
    static final Color JSHMEM = new Color(0xD6, 0x27, 0x28);
    static final Color OSHMEM = new Color(0x1F, 0x77, 0xB4);

    private Charts() {
    }

    /** Writes every chart there is data for into {@code dir}; returns the file names written. */
    static List<String> write(List<Row> rows, Path dir) {
        Set<String> groups = new LinkedHashSet<>(); // "transport,pes", in file order
        for (Row r : rows) {
            groups.add(r.key().transport() + "," + r.key().pes());
        }
        List<String> written = new ArrayList<>();
        for (String group : groups) {
            String transport = group.substring(0, group.indexOf(','));
            int pes = Integer.parseInt(group.substring(group.indexOf(',') + 1));
            for (Metric metric : List.of(Metric.LATENCY, Metric.BANDWIDTH)) {
                for (String op : List.of("put", "get")) {
                    XYSeriesCollection data = series(rows, transport, pes, op, metric);
                    if (data.getSeriesCount() > 0) {
                        String name = "%s_%s_%dpe%s.png".formatted(op, metric == Metric.LATENCY ? "lat" : "bw", pes,
                                transport.equals("shm") ? "" : "_" + transport);
                        save(chart(data, op, metric, pes, transport), dir.resolve(name));
                        written.add(name);
                    }
                }
            }
        }
        written.addAll(BarCharts.write(Comparison.pair(rows), dir));
        return written;
    }

    /** One series per implementation that has rows for this op and metric over message sizes (medians of the rounds). */
    private static XYSeriesCollection series(List<Row> rows, String transport, int pes, String op, Metric metric) {
        XYSeriesCollection data = new XYSeriesCollection();
        XYSeries jshmem = new XYSeries("jshmem");
        XYSeries oshmem = new XYSeries("oshmem");
        for (Comparison c : Comparison.pair(rows)) {
            Row.Key k = c.key();
            if (k.transport().equals(transport) && k.pes() == pes && k.op().equals(op) && k.metric() == metric
                    && k.bytes() > 0) {
                add(jshmem, k.bytes(), c.jshmem());
                add(oshmem, k.bytes(), c.oshmem());
            }
        }
        for (XYSeries s : List.of(jshmem, oshmem)) {
            if (s.getItemCount() > 0) {
                data.addSeries(s);
            }
        }
        return data;
    }

    private static void add(XYSeries s, long bytes, OptionalDouble v) {
        if (v.isPresent() && v.getAsDouble() > 0) {
            s.addOrUpdate(bytes, v.getAsDouble());
        }
    }

    private static JFreeChart chart(XYSeriesCollection data, String op, Metric metric, int pes, String transport) {
        boolean latency = metric == Metric.LATENCY;
        String title = "%s %s, %d PEs, %s".formatted(op, latency ? "latency" : "bandwidth (nbi, window 64)", pes,
                transport);

        LogAxis x = new LogAxis("message size");
        x.setBase(2);
        x.setTickUnit(new NumberTickUnit(2)); // every 4x: 4 B, 16 B, ... 1 MiB
        x.setNumberFormatOverride(new BytesFormat());
        x.setRange(4, 2 * 1048576);
        x.setMinorTickMarksVisible(true);

        LogAxis y = decades(latency ? "latency (µs, lower is better)" : "bandwidth (MB/s, higher is better)", min(data),
                max(data));

        XYLineAndShapeRenderer lines = new XYLineAndShapeRenderer(true, true);
        for (int i = 0; i < data.getSeriesCount(); i++) {
            lines.setSeriesPaint(i, data.getSeriesKey(i).equals("jshmem") ? JSHMEM : OSHMEM);
            lines.setSeriesStroke(i, new BasicStroke(2.5f));
        }

        XYPlot plot = new XYPlot(data, x, y, lines);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeMinorGridlinesVisible(true); // a line per 2x, 3x, ... within a decade, to read values
        plot.setRangeMinorGridlinePaint(new Color(0xE6, 0xE6, 0xE6));
        plot.setRangeMinorGridlineStroke(new BasicStroke(1f));
        JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 18), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        return chart;
    }

    /** A base-10 log axis labelled on whole decades, its range widened to the decades around {@code min..max}. */
    static LogAxis decades(String label, double min, double max) {
        LogAxis y = new LogAxis(label);
        y.setBase(10);
        // Labels on whole decades only (automatic ticks land on 10^0.1 steps: 1.585, 2.512, ...),
        // with the range widened to whole decades so that there are always at least two.
        DecimalFormat plain = new DecimalFormat("0.###");
        y.setTickUnit(new NumberTickUnit(1, plain, 9)); // 9 minor ticks: 2x, 3x, ... 9x in each decade
        // (1% margins: a tick computed a rounding error outside the range would not be drawn.)
        y.setRange(0.99 * Math.pow(10, Math.floor(Math.log10(min))), 1.01 * Math.pow(10, Math.ceil(Math.log10(max) + 1e-9)));
        y.setNumberFormatOverride(plain);
        y.setMinorTickMarksVisible(true);
        return y;
    }

    private static double min(XYSeriesCollection data) {
        double m = Double.POSITIVE_INFINITY;
        for (int i = 0; i < data.getSeriesCount(); i++) {
            m = Math.min(m, data.getSeries(i).getMinY());
        }
        return m;
    }

    private static double max(XYSeriesCollection data) {
        double m = 0;
        for (int i = 0; i < data.getSeriesCount(); i++) {
            m = Math.max(m, data.getSeries(i).getMaxY());
        }
        return m;
    }

    static void save(JFreeChart chart, Path file) {
        save(chart, file, HEIGHT);
    }

    static void save(JFreeChart chart, Path file, int height) {
        try {
            ChartUtils.saveChartAsPNG(file.toFile(), chart, WIDTH, height);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Axis labels for byte counts that are powers of two: 8 B, 4 KiB, 1 MiB. */
    static final class BytesFormat extends NumberFormat {
        @Override
        public StringBuffer format(double number, StringBuffer to, FieldPosition pos) {
            return format(Math.round(number), to, pos);
        }

        @Override
        public StringBuffer format(long n, StringBuffer to, FieldPosition pos) {
            if (n >= 1 << 20 && n % (1 << 20) == 0) {
                return to.append(n >> 20).append(" MiB");
            }
            if (n >= 1 << 10 && n % (1 << 10) == 0) {
                return to.append(n >> 10).append(" KiB");
            }
            return to.append(n).append(" B");
        }

        @Override
        public Number parse(String source, ParsePosition pos) {
            throw new UnsupportedOperationException("axis labels are never parsed");
        }
    }
}
