/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The real {@code bin/shmem-info}: its readable report and {@code --all --parsable} say the same things. */
class ShmemInfoTest {
    private record Run(int status, List<String> out, String err) {
    }

    @Test
    void parsableHasOneLinePerSettingTransportDeviceAndFinding() throws Exception {
        Map<String, String> env = Map.of("SHMEM_SYMMETRIC_SIZE", "1g", "JSHMEM_SHM_PREALLOCATE", "1", "SHMEM_TRANSPORT", "shm",
                "JAVA_TOOL_OPTIONS", "-Djshmem.bootstrap.orphanGraceMillis=5");
        Run all = run(env, "--all", "--parsable");
        assertEquals(0, all.status(), all.err());
        for (String line : all.out()) {
            assertTrue(line.matches("[a-z_]+:[A-Za-z0-9_.]+:.*"), "not section:key:value: " + line);
        }
        // Where each value comes from (issue 33), and where jshmem is installed.
        assertTrue(all.out().contains("setting_source:SHMEM_SYMMETRIC_SIZE:environment"), all.out().toString());
        assertTrue(all.out().contains("setting_source:SHMEM_DEBUG:default"), all.out().toString());
        assertTrue(all.out().contains("setting_source:jshmem.bootstrap.orphanGraceMillis:property"), all.out().toString());
        assertTrue(all.out().contains("setting:jshmem.bootstrap.orphanGraceMillis:5"), all.out().toString());
        assertTrue(all.out().stream().anyMatch(l -> l.matches("path:prefix:/.+") && Files.isExecutable(
                Path.of(l.substring("path:prefix:".length()), "bin", "shmem-info"))), all.out().toString());
        for (io.jshmem.core.base.Setting s : io.jshmem.core.base.Setting.values()) {
            if (s.category() != io.jshmem.core.base.Setting.Category.JOB && s != io.jshmem.core.base.Setting.INSTALL_PREFIX) {
                assertEquals(1, all.out().stream().filter(l -> l.startsWith("setting_source:" + s.key() + ":")).count(), s.key());
            }
        }
        assertTrue(all.out().contains("setting:SHMEM_SYMMETRIC_SIZE:1073741824"), all.out().toString());
        assertTrue(all.out().contains("setting:JSHMEM_SHM_PREALLOCATE:true"), all.out().toString());
        assertTrue(all.out().contains("setting:SHMEM_TRANSPORT:shm"), all.out().toString());
        assertTrue(all.out().contains("transport:shm:available:true"), all.out().toString());
        assertTrue(all.out().stream().anyMatch(l -> l.matches("version:jshmem:\\S+")), all.out().toString());

        Run readable = run(env);
        assertEquals(0, readable.status(), readable.err());
        // Every setting the readable report names has its line.
        for (String line : readable.out()) {
            var m = java.util.regex.Pattern.compile("^ +((?:J?SHMEM)_[A-Z0-9_]+):").matcher(line);
            if (m.find()) {
                String name = m.group(1);
                assertTrue(all.out().stream().anyMatch(l -> l.startsWith("setting:" + name + ":")), "no line for " + name);
            }
        }
        // One line per fork-safety finding, and per device the readable report lists.
        long findings = readable.out().stream().filter(l -> l.matches(".*\\[(safe|risk|neutral)\\].*")).count();
        assertEquals(findings, all.out().stream().filter(l -> l.startsWith("forksafety:finding:")).count(), all.out().toString());
        long devices = readable.out().stream().filter(l -> l.matches("\\s+\\w+:\\s{3}\\S+ on .*")).count();
        assertEquals(devices, all.out().stream().filter(l -> l.matches("transport:\\w+:device:.*")).count(), all.out().toString());

        Run brief = run(env, "--parsable");
        assertFalse(brief.out().stream().anyMatch(l -> l.startsWith("forksafety:") || l.contains(":device:")), brief.out().toString());
        assertEquals(2, run(env, "--bogus").status());
    }

    @Test
    void versionPrintsOneLineLikeOshruns() throws Exception {
        for (String option : List.of("--version", "-V")) {
            Run v = run(Map.of(), option);
            assertEquals(0, v.status(), v.err());
            assertEquals(List.of("shmem-info (jshmem " + io.jshmem.ShmemVersion.JSHMEM_VERSION + "), OpenSHMEM "
                    + io.jshmem.ShmemVersion.SPEC_MAJOR + "." + io.jshmem.ShmemVersion.SPEC_MINOR), v.out());
        }
    }

    private static Run run(Map<String, String> env, String... args) throws Exception {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isExecutable(root.resolve("bin/shmem-info"))) {
            root = root.getParent();
        }
        List<String> command = new java.util.ArrayList<>(List.of(root.resolve("bin/shmem-info").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        return new Run(p.exitValue(), out.lines().toList(), err);
    }
}
