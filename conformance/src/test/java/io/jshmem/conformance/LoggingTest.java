/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jshmem's diagnostics go through System.Logger: a job whose PEs are given a JUL configuration
 * (-Djava.util.logging.config.file) that sends {@code io.jshmem} to files gets the SHMEM_INFO
 * report and a collective mismatch there, with the logger names and levels, and not on stderr;
 * the same job without it prints them on stderr as jshmem always did (4 PEs through the real
 * launcher, {@link MismatchScenarios}).
 */
class LoggingTest {
    private static final String SCENARIOS = "io.jshmem.conformance.MismatchScenarios";
    private static final String VERSION_LINE = "jshmem " + ShmemVersion.JSHMEM_VERSION + " (OpenSHMEM";
    private static final String MISMATCH = "jshmem: PE \\d+: collective calls do not match on SHMEM_TEAM_WORLD.*";

    @Test
    void aJulConfigurationRoutesTheDiagnosticsToItsFiles(@TempDir Path dir) throws Exception {
        Path config = julConfiguration(dir, "java.util.logging.FileHandler", "pe%u.log",
                "io.jshmem.level=ALL", "java.util.logging.FileHandler.level=ALL",
                // A PE that opens its handler after another PE ended reuses that PE's file (%u is
                // only unique among open files): append rather than truncate it.
                "java.util.logging.FileHandler.append=true");
        Oshrun.Result r = Oshrun.run(4, List.of("-x", "SHMEM_INFO=1", "--jvm-opt", "-Djava.util.logging.config.file=" + config),
                Oshrun.conformanceClasses(), SCENARIOS, "reduce-vs-barrier");
        assertNotEquals(0, r.exitCode(), r.tail());
        List<String> logged = logLines(dir);
        assertTrue(logged.contains("io.jshmem.core|INFO|" + VERSION_LINE + " " + ShmemVersion.SPEC_MAJOR + "." + ShmemVersion.SPEC_MINOR + ")"),
                "the SHMEM_INFO report is not in the log files at INFO from io.jshmem.core: " + logged + r.tail());
        assertTrue(logged.stream().anyMatch(l -> l.startsWith("  SHMEM_DEBUG:")),
                "the SHMEM_INFO report's lines are not in the log files: " + logged + r.tail());
        assertTrue(logged.stream().anyMatch(l -> l.matches("io\\.jshmem\\.core\\|SEVERE\\|" + MISMATCH)),
                "the mismatch is not in the log files at SEVERE (ERROR) from io.jshmem.core: " + logged + r.tail());
        assertFalse(r.stderr().lines().anyMatch(l -> l.startsWith(VERSION_LINE) || l.matches(MISMATCH)),
                "a diagnostic routed to the files is on stderr too" + r.tail());
        // The launcher's own report is unchanged.
        assertTrue(r.stderr().lines().anyMatch(l -> l.startsWith("oshrun:") && l.contains("collective calls do not match")), r.tail());
    }

    /**
     * The per-PE pattern of docs/user-guide.md: io.jshmem.logging.PeFileHandler replaces %p by the PE number, so PE
     * k's messages (and only they) are in jshmem-pek.log; PE 0's SHMEM_INFO report only in PE 0's.
     */
    @Test
    void thePeFileHandlerWritesEachPesMessagesToItsOwnFile(@TempDir Path dir) throws Exception {
        Path config = julConfiguration(dir, "io.jshmem.logging.PeFileHandler", "jshmem-pe%p.log");
        int npes = 4;
        Oshrun.Result r = Oshrun.run(npes, List.of("-x", "SHMEM_INFO=1", "--jvm-opt", "-Djava.util.logging.config.file=" + config),
                Oshrun.conformanceClasses(), "io.jshmem.conformance.LoggingScenario");
        assertTrue(r.exitCode() == 0, r.tail());
        for (int pe = 0; pe < npes; pe++) {
            Path file = dir.resolve("jshmem-pe" + pe + ".log");
            assertTrue(Files.isRegularFile(file), file + " is missing" + r.tail());
            List<String> lines = Files.readAllLines(file);
            for (int other = 0; other < npes; other++) {
                boolean has = lines.contains("io.jshmem.conformance.logging|WARNING|logged by PE " + other + " of " + npes);
                assertTrue(has == (other == pe), file + " should hold the message of PE " + pe + " only: " + lines + r.tail());
            }
            assertTrue(lines.stream().anyMatch(l -> l.startsWith("io.jshmem.core|INFO|" + VERSION_LINE)) == (pe == 0),
                    "the SHMEM_INFO report (PE 0's) in " + file + ": " + lines + r.tail());
        }
        assertFalse(r.stderr().contains("logged by PE"), "a message routed to the files is on stderr too" + r.tail());
    }

    @Test
    void withoutAConfigurationTheDiagnosticsAreLinesOnStderr() throws Exception {
        Oshrun.Result r = Oshrun.run(4, List.of("-x", "SHMEM_INFO=1"), Oshrun.conformanceClasses(), SCENARIOS, "reduce-vs-barrier");
        assertNotEquals(0, r.exitCode(), r.tail());
        List<String> err = r.stderr().lines().toList();
        assertTrue(err.stream().anyMatch(l -> l.startsWith(VERSION_LINE)), "no version line on stderr" + r.tail());
        assertTrue(err.stream().anyMatch(l -> l.startsWith("  SHMEM_DEBUG:")), "no SHMEM_INFO report on stderr" + r.tail());
        assertTrue(err.stream().anyMatch(l -> l.matches(MISMATCH)), "no mismatch line on stderr" + r.tail());
        assertFalse(err.stream().anyMatch(l -> l.contains("io.jshmem.core") || l.startsWith("SEVERE") || l.startsWith("INFO:")),
                "the default output is not jshmem's plain lines" + r.tail());
    }

    /**
     * dir/logging.properties: jshmem's loggers to {@code handler} only, writing files named by
     * {@code pattern} in dir as "logger|level|message" lines, with {@code more} properties.
     */
    private static Path julConfiguration(Path dir, String handler, String pattern, String... more) throws IOException {
        List<String> lines = new ArrayList<>(List.of("io.jshmem.handlers=" + handler, "io.jshmem.useParentHandlers=false",
                handler + ".pattern=" + dir + "/" + pattern, handler + ".formatter=java.util.logging.SimpleFormatter",
                "java.util.logging.SimpleFormatter.format=%3$s|%4$s|%5$s%n"));
        lines.addAll(List.of(more));
        lines.add("");
        return Files.writeString(dir.resolve("logging.properties"), String.join("\n", lines));
    }

    /** The lines of every PE's log file (pe0.log ... without the lock files). */
    private static List<String> logLines(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().matches("pe\\d+\\.log")).sorted().toList()) {
                lines.addAll(Files.readAllLines(f));
            }
        }
        return lines;
    }
}
