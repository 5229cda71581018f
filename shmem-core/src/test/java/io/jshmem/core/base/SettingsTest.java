/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import io.jshmem.core.forksafety.ForkPolicy;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The settings table: its rows, the one reader of the environment, and the documents made from it. */
class SettingsTest {
    /** Modules whose main sources read settings only through {@link Settings}. */
    private static final List<String> MODULES = List.of("shmem-core", "shmem-ucx", "shmem-launcher");
    /** JDK properties (not jshmem's settings) that may be read where they are needed. */
    private static final Pattern JDK_PROPERTY = Pattern.compile("System\\.getProperty\\(\"(java|os|user)\\.[a-z.]+\"");
    private static final Pattern READ = Pattern.compile(
            "System\\.getenv|System\\.getProperty\\(|Integer\\.getInteger\\(|Long\\.getLong\\(|Boolean\\.getBoolean\\(");
    private static final Pattern NAME = Pattern.compile("\"(J?SHMEM_[A-Z0-9_]+)\"");
    /** Names that look like settings but are not: OpenSHMEM's team constants. */
    private static final Set<String> NOT_SETTINGS = Set.of("SHMEM_TEAM_WORLD", "SHMEM_TEAM_SHARED");

    @Test
    void everyRowIsComplete() {
        Set<String> keys = new HashSet<>();
        for (Setting s : Setting.values()) {
            assertTrue(keys.add(s.key()), "two rows for " + s.key());
            assertFalse(s.help().isBlank(), s + " has no help");
            assertFalse(s.help().contains("\n"), s + ": the help is one line");
            assertTrue(s.fromProperty() ? s.key().startsWith("jshmem.") : s.key().matches("J?SHMEM_[A-Z0-9_]+"), s.key());
            assertEquals(s.kind() == Setting.Kind.CHOICE, !s.allowed().isEmpty(), s + ": values allowed exactly for a choice");
            if (s.kind() == Setting.Kind.CHOICE) {
                assertTrue(s.allowed().contains(s.defaultValue()), s + ": the default is allowed");
            }
            assertEquals(s, Setting.byKey(s.key()));
        }
        assertEquals(null, Setting.byKey("SHMEM_NONSENSE"));
    }

    @Test
    void choicesAreEnumsWithTheTablesValues() {
        assertEquals(List.of("auto", "shm", "ucx"), Setting.SHMEM_TRANSPORT.allowed());
        assertEquals(Config.Transport.class, Setting.SHMEM_TRANSPORT.choices());
        assertEquals(Setting.JSHMEM_FORK_POLICY.allowed(),
                Arrays.stream(ForkPolicy.values()).map(p -> p.name().toLowerCase(Locale.ROOT)).toList(),
                "ForkPolicy's constants are the table's values");
        Config c = Config.fromEnvironment(Map.of("JSHMEM_COLL_ALGORITHM", " Pull ", "JSHMEM_BARRIER_ALGORITHM", "central",
                "SHMEM_ATOMICS", "CPU", "SHMEM_TRANSPORT", "ucx"));
        assertEquals(Config.CollAlgorithm.PULL, c.collAlgorithm());
        assertEquals(Config.BarrierAlgorithm.CENTRAL, c.barrierAlgorithm());
        assertEquals(Config.Atomics.CPU, c.atomics());
        assertFalse(c.directOnNode());
        Config forced = Config.fromEnvironment(Map.of("JSHMEM_ALLTOALL_ALGORITHM", "Push-Bruck", "JSHMEM_FCOLLECT_ALGORITHM", "push-gather-at-0"));
        assertEquals(Config.AlltoallAlgorithm.PUSH_BRUCK, forced.alltoallAlgorithm(), "a row name: '-' for the constant's '_'");
        assertEquals(Config.FcollectAlgorithm.PUSH_GATHER_AT_0, forced.fcollectAlgorithm());
        assertEquals(ForkPolicy.REFUSE, ForkPolicy.parse("Refuse"));
    }

    @Test
    void aBadChoiceNamesTheVariableAndEveryValue() {
        for (Setting s : Setting.values()) {
            if (s.kind() != Setting.Kind.CHOICE) {
                continue;
            }
            ShmemException e = assertThrows(ShmemException.class, () -> Config.value(Settings.of(Map.of(s.key(), "bogus")), s));
            assertEquals(s.key() + "=bogus is not valid: use " + s.allowedText(), e.getMessage());
            for (String v : s.allowed()) {
                assertTrue(e.getMessage().contains(v), e.getMessage());
            }
        }
        assertEquals("use auto, push, tree or pull", assertThrows(ShmemException.class,
                () -> Config.fromEnvironment(Map.of("JSHMEM_COLL_ALGORITHM", "bogus"))).getMessage().replaceAll(".*: ", ""));
    }

    @Test
    void everyDefaultParsesAndSourcesAreReported() {
        Settings none = Settings.of(Map.of(), Map.of());
        for (Setting s : Setting.values()) {
            assertNotNull(Config.value(none, s), s.key());
            assertEquals(Settings.Source.DEFAULT, none.source(s), s.key());
        }
        Settings some = Settings.of(Map.of("SHMEM_SYMMETRIC_SIZE", "1g", "SHMEM_DEBUG", " "),
                Map.of("jshmem.bootstrap.orphanGraceMillis", "5"));
        assertEquals(Settings.Source.ENVIRONMENT, some.source(Setting.SHMEM_SYMMETRIC_SIZE));
        assertEquals(Settings.Source.DEFAULT, some.source(Setting.SHMEM_DEBUG), "blank is unset");
        assertEquals(Settings.Source.PROPERTY, some.source(Setting.ORPHAN_GRACE_MILLIS));
        assertEquals("1073741824", Config.value(some, Setting.SHMEM_SYMMETRIC_SIZE));
        assertEquals("5", Config.value(some, Setting.ORPHAN_GRACE_MILLIS));
        assertEquals("auto", Config.value(none, Setting.JSHMEM_WAIT_SPIN_US));
        assertEquals("/dev/shm", Config.value(none, Setting.JSHMEM_SHM_DIR), "a text setting's default");
        assertEquals("none", Config.value(none, Setting.JSHMEM_PMI2_LIBRARY));
        assertEquals("1000", Config.value(none, Setting.JSHMEM_WAIT_YIELD_US));
        assertEquals("auto", Config.value(none, Setting.JSHMEM_AOT));
        assertEquals("false", Config.value(Settings.of(Map.of("JSHMEM_AOT", "off")), Setting.JSHMEM_AOT));
        assertTrue(Settings.of(Map.of("JSHMEM_AOT", " ")).on(Setting.JSHMEM_AOT), "blank: the default, auto");
        assertEquals(Config.DEFAULT_SYMMETRIC_SIZE, Config.fromEnvironment(Map.of()).symmetricSize());
    }

    @Test
    void theVariablesOshrunSetsAreTheJobRows() throws IllegalAccessException {
        Set<String> launchEnv = new TreeSet<>();
        for (Field f : LaunchEnv.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == String.class && !f.getName().equals("JAVA_OPTS")) {
                launchEnv.add((String) f.get(null));
            }
        }
        Set<String> job = new TreeSet<>();
        for (Setting s : Setting.values()) {
            if (s.category() == Setting.Category.JOB) {
                job.add(s.key());
            }
        }
        assertEquals(job, launchEnv);
        assertEquals(Setting.JSHMEM_JAVA_OPTS.key(), LaunchEnv.JAVA_OPTS);
    }

    /**
     * The table is the only reader: no other class of shmem-core, shmem-ucx or shmem-launcher reads
     * the environment or a system property (but the JDK's own java.*, os.*, user.* properties), and
     * every SHMEM_* or JSHMEM_* name they spell is a row of the table.
     */
    @Test
    void settingsAreReadOnlyThroughTheTable() throws IOException {
        Path root = root();
        List<String> reads = new ArrayList<>();
        List<String> unknown = new ArrayList<>();
        for (String module : MODULES) {
            List<Path> files;
            try (Stream<Path> s = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
            }
            assertFalse(files.isEmpty(), module);
            for (Path file : files) {
                List<String> lines = Files.readAllLines(file);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    String where = root.relativize(file) + ":" + (i + 1) + ": " + line.strip();
                    if (!file.getFileName().toString().equals("Settings.java")
                            && READ.matcher(JDK_PROPERTY.matcher(line).replaceAll("")).find()) {
                        reads.add(where);
                    }
                    Matcher m = NAME.matcher(line);
                    while (m.find()) {
                        if (Setting.byKey(m.group(1)) == null && !NOT_SETTINGS.contains(m.group(1))) {
                            unknown.add(where);
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), reads, "read the environment and jshmem's properties through io.jshmem.core.base.Settings");
        assertEquals(List.of(), unknown, "names that are not in the settings table (io.jshmem.core.base.Setting)");
    }

    /** docs/settings.md's tables are what the table generates, and its prose names no setting the table lacks. */
    @Test
    void theSettingsReferenceIsGeneratedFromTheTable() throws IOException {
        Path doc = root().resolve("docs/settings.md");
        String text = Files.readString(doc);
        assertEquals(SettingsReference.splice(text), text, "docs/settings.md is not what the table gives: run "
                + "java -cp shmem-api/target/classes:shmem-core/target/classes io.jshmem.core.base.SettingsReference docs/settings.md");
        Matcher m = Pattern.compile("\\bJ?SHMEM_[A-Z0-9_]*[A-Z0-9]\\b").matcher(text);
        Set<String> stale = new TreeSet<>();
        while (m.find()) {
            if (Setting.byKey(m.group()) == null) {
                stale.add(m.group());
            }
        }
        assertEquals(Set.of(), stale, "docs/settings.md names settings the table does not have");
        for (Setting s : Setting.values()) {
            assertTrue(text.contains("| `" + SettingsReference.name(s) + "` |"), s.key() + " has no row");
        }
    }

    private static Path root() {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(root.resolve("shmem-core")) || !Files.isDirectory(root.resolve("docs"))) {
            root = root.getParent();
        }
        return root;
    }
}
