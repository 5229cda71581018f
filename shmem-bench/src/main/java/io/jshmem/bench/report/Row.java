/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import io.jshmem.bench.Metric;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One line of {@code bench/results/latest.csv}: a value measured in one round of a run (the rounds
 * interleave both implementations; files without the {@code round} column are one round).
 */
record Row(String impl, Key key, double value, String unit, int round) {
    static final String HEADER = "impl,transport,pes,op,bytes,metric,value,unit,round";
    /** The header of files written before runs had rounds. */
    static final String HEADER_ONE_ROUND = "impl,transport,pes,op,bytes,metric,value,unit";

    /** What a jshmem row and an OSHMEM row must share to be compared. */
    record Key(String transport, int pes, String op, long bytes, Metric metric) {
    }

    /** Parses a CSV line; throws {@link IllegalArgumentException} naming the line if it is malformed. */
    static Row parse(String line) {
        String[] f = line.split(",", -1);
        if (f.length != 8 && f.length != 9) {
            throw new IllegalArgumentException("expected 8 or 9 fields: " + line);
        }
        try {
            Key key = new Key(f[1], Integer.parseInt(f[2]), f[3], Long.parseLong(f[4]), Metric.of(f[5]));
            int round = f.length == 9 ? Integer.parseInt(f[8]) : 1;
            if (round < 1) {
                throw new IllegalArgumentException("round must be >= 1");
            }
            return new Row(f[0], key, Double.parseDouble(f[6]), f[7], round);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad row (" + e.getMessage() + "): " + line, e);
        }
    }

    /** Reads a results file: the header, then rows; blank lines are skipped. */
    static List<Row> readAll(Path csv) {
        List<String> lines;
        try {
            lines = Files.readAllLines(csv);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String header = lines.isEmpty() ? "" : lines.getFirst().strip();
        if (!header.equals(HEADER) && !header.equals(HEADER_ONE_ROUND)) {
            throw new IllegalArgumentException(csv + ": the first line must be " + HEADER);
        }
        List<Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (!line.isBlank()) {
                rows.add(parse(line.strip()));
            }
        }
        return rows;
    }
}
