/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.util.Locale;

/**
 * The little JSON the page's data needs, written straight into a StringBuilder. Strings escape
 * {@code <} too: the data sits in a script element, which {@code </script>} in a value would end.
 */
final class Json {
    private final StringBuilder out;
    private boolean first = true;

    Json(StringBuilder out) {
        this.out = out;
    }

    Json open(char bracket) {
        comma();
        out.append(bracket);
        first = true;
        return this;
    }

    Json close(char bracket) {
        out.append(bracket);
        first = false;
        return this;
    }

    Json key(String k) {
        comma();
        string(k);
        out.append(':');
        first = true;
        return this;
    }

    Json value(String s) {
        comma();
        if (s == null) {
            out.append("null");
        } else {
            string(s);
        }
        return this;
    }

    Json value(long n) {
        comma();
        out.append(n);
        return this;
    }

    /** Nanoseconds as microseconds with at most one decimal: the page's time unit. */
    Json micros(long nanos) {
        comma();
        long tenths = Math.round(nanos / 100.0);
        out.append(tenths / 10);
        if (tenths % 10 != 0) {
            out.append('.').append(Math.abs(tenths % 10));
        }
        return this;
    }

    Json value(double d) {
        comma();
        out.append(String.format(Locale.ROOT, "%.4g", d));
        return this;
    }

    private void comma() {
        if (!first) {
            out.append(',');
        }
        first = false;
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
