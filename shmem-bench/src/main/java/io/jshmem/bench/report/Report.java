/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the benchmark CSV and writes {@code summary.md} (every row with its jshmem/oshmem ratio and
 * target) and the PNG plots next to it.
 *
 * <pre>{@code
 * java -Djava.awt.headless=true -cp <shmem-bench classes and jfreechart> io.jshmem.bench.report.Report \
 *     [--csv bench/results/latest.csv] [--out bench/results] [--note TEXT] [--quick]
 * }</pre>
 *
 * <p>{@code --quick} (a quick run's CSV): the summary lists the values but no ratios and no targets.
 */
public final class Report {
    private Report() {
    }

    public static void main(String[] args) throws IOException {
        Path csv = Path.of("bench/results/latest.csv");
        Path out = null;
        String note = "";
        boolean quick = false;
        for (int i = 0; i < args.length; i++) {
            boolean hasValue = i + 1 < args.length;
            switch (args[i]) {
                case "--csv" -> csv = Path.of(value(args, ++i, hasValue));
                case "--out" -> out = Path.of(value(args, ++i, hasValue));
                case "--note" -> note = value(args, ++i, hasValue);
                case "--quick" -> quick = true;
                default -> usage("unknown argument: " + args[i]);
            }
        }
        if (out == null) {
            out = csv.toAbsolutePath().getParent(); // next to the CSV
        }
        List<Row> rows = Row.readAll(csv);
        Files.createDirectories(out);
        List<String> plots = Charts.write(rows, out);
        Path summary = out.resolve("summary.md");
        Files.writeString(summary, Summary.markdown(Comparison.pair(rows), plots, note, quick));
        System.out.println("wrote " + summary + " and " + plots.size() + " plots");
    }

    private static String value(String[] args, int i, boolean present) {
        if (!present) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println("Report: " + problem
                + "\nusage: Report [--csv FILE] [--out DIR] [--note TEXT] [--quick]  (default --csv bench/results/latest.csv,"
                + " --out: the CSV's directory)");
        System.exit(2);
    }
}
