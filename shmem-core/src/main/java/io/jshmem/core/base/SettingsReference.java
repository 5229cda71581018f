/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The {@link Setting} table written out for people: the reference tables of docs/settings.md
 * (between {@link #BEGIN} and {@link #END}; the prose around them is written by hand) and the
 * settings part of oshrun's {@code --help}. {@code SettingsReferenceTest} fails when the checked-in
 * docs/settings.md differs from what {@link #main} writes:
 * {@code java -cp shmem-api/target/classes:shmem-core/target/classes io.jshmem.core.base.SettingsReference docs/settings.md}.
 */
public final class SettingsReference {
    public static final String BEGIN = "<!-- BEGIN settings table: generated from io.jshmem.core.base.Setting by SettingsReference; edit the table, not these lines -->";
    public static final String END = "<!-- END settings table -->";

    private SettingsReference() {
    }

    /** The default as the reference shows it, or null when the help already says it or there is none. */
    static String defaultText(Setting s) {
        if (s.defaultValue() == null || s.help().contains("default") || s.help().contains(s.defaultValue() + ":")) {
            return null;
        }
        return s.defaultValue();
    }

    /** The name as it is set: the variable, or {@code -Dproperty}. */
    static String name(Setting s) {
        return s.fromProperty() ? "-D" + s.key() : s.key();
    }

    /** The generated part of docs/settings.md: a table per category. */
    public static List<String> markdown() {
        List<String> out = new ArrayList<>();
        out.add(BEGIN);
        for (Setting.Category c : Setting.Category.values()) {
            out.add("");
            out.add("### " + Character.toUpperCase(c.title().charAt(0)) + c.title().substring(1));
            out.add("");
            out.add("| setting | type | default | meaning |");
            out.add("|---|---|---|---|");
            for (Setting s : Setting.values()) {
                if (s.category() != c) {
                    continue;
                }
                String type = s.kind() == Setting.Kind.CHOICE
                        ? String.join(", ", s.allowed().stream().map(v -> "`" + v + "`").toList()) : s.kind().label();
                String dflt = s.defaultValue() == null ? "none" : "`" + s.defaultValue() + "`";
                out.add("| `" + name(s) + "` | " + type + " | " + dflt + " | " + s.help().replace("|", "\\|") + " |");
            }
        }
        out.add("");
        out.add(END);
        return out;
    }

    /** {@code doc} with its generated part replaced by {@link #markdown()}. */
    public static String splice(String doc) {
        int begin = doc.indexOf(BEGIN);
        int end = doc.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new IllegalArgumentException("no " + BEGIN + " ... " + END + " block");
        }
        return doc.substring(0, begin) + String.join("\n", markdown()) + doc.substring(end + END.length());
    }

    /**
     * The settings {@code which} selects, as {@code --help} lists them: the name, then the help and
     * its default wrapped to {@code width} columns, indented.
     */
    public static List<String> helpLines(Predicate<Setting> which, int width) {
        int column = 26;
        List<String> out = new ArrayList<>();
        for (Setting s : Setting.values()) {
            if (s.fromProperty() || !which.test(s)) {
                continue;
            }
            String dflt = defaultText(s);
            String text = s.help() + (s.kind() == Setting.Kind.CHOICE && !s.allowed().stream().allMatch(s.help()::contains)
                    ? ": " + s.allowedText() : "") + (dflt == null ? "" : " (default " + dflt + ")");
            StringBuilder line = new StringBuilder("  " + s.key());
            if (line.length() >= column) {
                out.add(line.toString());
                line.setLength(0);
            }
            line.append(" ".repeat(column - line.length()));
            int start = line.length();
            for (String word : text.split(" ")) {
                if (line.length() > start && line.length() + 1 + word.length() > width) {
                    out.add(line.toString());
                    line.setLength(0);
                    line.append(" ".repeat(column));
                    start = column;
                }
                if (line.length() > start) {
                    line.append(' ');
                }
                line.append(word);
            }
            out.add(line.toString());
        }
        return out;
    }

    /** Rewrites the generated part of the file named by {@code args[0]} (docs/settings.md). */
    public static void main(String[] args) throws IOException {
        Path doc = Path.of(args.length > 0 ? args[0] : "docs/settings.md");
        Files.writeString(doc, splice(Files.readString(doc, StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
    }
}
