/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.util.Locale;

/** Durations and sizes as people read them (the page's summary and the command's output). */
final class Units {
    private Units() {
    }

    /** "4.1 s", "12.3 ms", "850 µs". */
    static String seconds(long nanos) {
        if (nanos >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
        }
        if (nanos >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.0f µs", nanos / 1e3);
    }

    /** "1.5 MiB", "512 B". */
    static String bytes(long n) {
        String[] units = {"B", "KiB", "MiB", "GiB", "TiB"};
        double v = n;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? n + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
    }
}
