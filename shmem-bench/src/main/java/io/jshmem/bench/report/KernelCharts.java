/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.CombinedDomainCategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.LegendTitle;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The plots of {@code bench/kernels.sh}: per transport, {@code kernels_<transport>.png}, one panel per
 * kernel (its own time axis: ISx takes a hundred times a stencil iteration), the PE counts along it,
 * the C original on OSHMEM (blue) and the Java port on jshmem (red) side by side: the median over the
 * rounds of the kernel's own time per iteration, counting only runs that verified, as in the script's
 * summary.md.
 *
 * <pre>{@code
 * java -Djava.awt.headless=true -cp <shmem-bench classes and jfreechart> io.jshmem.bench.report.KernelCharts \
 *     --csv RUN/results.csv [--out RUN]
 * }</pre>
 */
public final class KernelCharts {
    /** The columns of kernels.sh's results.csv that this reads. */
    private static final List<String> COLUMNS = List.of("kernel", "pes", "transport", "impl", "verified", "time_s");

    private KernelCharts() {
    }

    /** One run of one side: a row of results.csv. */
    record Run(String kernel, int pes, String transport, String impl, boolean verified, double seconds) {
    }

    public static void main(String[] args) throws IOException {
        Path csv = null;
        Path out = null;
        for (int i = 0; i < args.length; i++) {
            if (i + 1 >= args.length) {
                usage(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--csv" -> csv = Path.of(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                default -> usage("unknown argument: " + args[i]);
            }
        }
        if (csv == null) {
            usage("--csv is required");
        }
        if (out == null) {
            out = csv.toAbsolutePath().getParent();
        }
        Files.createDirectories(out);
        List<String> written = write(read(csv), out);
        System.out.println("wrote " + written.size() + " kernel plots: " + String.join(", ", written));
    }

    private static void usage(String problem) {
        System.err.println("KernelCharts: " + problem + "\nusage: KernelCharts --csv RUN/results.csv [--out DIR]");
        System.exit(2);
    }

    /** The runs of a kernels.sh results.csv; a file without the columns is an error naming the missing one. */
    static List<Run> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty()) {
            throw new IOException(csv + " is empty");
        }
        List<String> header = Arrays.asList(lines.get(0).split(","));
        int[] at = new int[COLUMNS.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = header.indexOf(COLUMNS.get(i));
            if (at[i] < 0) {
                throw new IOException(csv + " has no column " + COLUMNS.get(i) + " (not a kernels.sh results.csv?)");
            }
        }
        List<Run> runs = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", -1);
            String time = f[at[5]];
            runs.add(new Run(f[at[0]], Integer.parseInt(f[at[1]]), f[at[2]], f[at[3]], f[at[4]].equals("1"),
                    time.isEmpty() ? Double.NaN : Double.parseDouble(time)));
        }
        return runs;
    }

    /** The median of the verified runs' times of one side of one row; NaN when none verified. */
    static double median(List<Run> runs, String kernel, int pes, String transport, String impl) {
        double[] t = runs.stream()
                .filter(r -> r.verified() && r.kernel().equals(kernel) && r.pes() == pes && r.transport().equals(transport)
                        && r.impl().equals(impl) && !Double.isNaN(r.seconds()))
                .mapToDouble(Run::seconds).sorted().toArray();
        if (t.length == 0) {
            return Double.NaN;
        }
        return t.length % 2 == 1 ? t[t.length / 2] : (t[t.length / 2 - 1] + t[t.length / 2]) / 2;
    }

    /** Writes a chart per transport into {@code dir}; returns the file names. */
    static List<String> write(List<Run> runs, Path dir) {
        Set<String> transports = new LinkedHashSet<>();
        Map<String, Set<String>> kernels = new LinkedHashMap<>(); // per transport, in file order
        for (Run r : runs) {
            transports.add(r.transport());
            kernels.computeIfAbsent(r.transport(), t -> new LinkedHashSet<>()).add(r.kernel());
        }
        List<String> written = new ArrayList<>();
        for (String transport : transports) {
            CombinedDomainCategoryPlot panels = new CombinedDomainCategoryPlot(new CategoryAxis("PEs"));
            panels.setGap(12);
            CategoryPlot first = null;
            for (String kernel : kernels.get(transport)) {
                CategoryPlot p = panel(runs, kernel, transport);
                if (p != null) {
                    panels.add(p);
                    first = first == null ? p : first;
                }
            }
            if (first == null) {
                continue;
            }
            JFreeChart chart = new JFreeChart("kernels, " + transport + ": time per iteration (median of rounds, lower is better)",
                    new Font(Font.SANS_SERIF, Font.BOLD, 15), panels, false);
            LegendTitle legend = new LegendTitle(first); // every panel has the same two series: name them once
            legend.setPosition(RectangleEdge.BOTTOM);
            chart.addLegend(legend);
            chart.setBackgroundPaint(Color.WHITE);
            String name = "kernels_" + transport + ".png";
            Charts.save(chart, dir.resolve(name), 220 * panels.getSubplots().size() + 120);
            written.add(name);
        }
        return written;
    }

    private static CategoryPlot panel(List<Run> runs, String kernel, String transport) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        Set<Integer> pes = new TreeSet<>();
        runs.stream().filter(r -> r.kernel().equals(kernel) && r.transport().equals(transport)).forEach(r -> pes.add(r.pes()));
        boolean any = false;
        double max = 0;
        for (String impl : List.of("c", "java")) {
            String series = impl.equals("c") ? "C original on OSHMEM" : "Java port on jshmem";
            for (int n : pes) {
                double ms = median(runs, kernel, n, transport, impl) * 1e3;
                data.addValue(Double.isNaN(ms) ? null : ms, series, n + (n == 1 ? " PE" : " PEs"));
                if (!Double.isNaN(ms)) {
                    any = true;
                    max = Math.max(max, ms);
                }
            }
        }
        if (!any) {
            return null;
        }
        NumberAxis y = new NumberAxis(kernel + " (ms)");
        y.setRange(0, max * 1.25); // room for the value labels
        BarRenderer bars = new BarRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setSeriesPaint(0, Charts.OSHMEM);
        bars.setSeriesPaint(1, Charts.JSHMEM);
        bars.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat("0.##")));
        bars.setDefaultItemLabelsVisible(true);
        CategoryPlot plot = new CategoryPlot(data, null, y, bars);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        return plot;
    }
}
