/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Log's decisions: which backend is the JDK's own, the levels jshmem's variables enable, the printed form. */
class LogTest {
    private static final String JUL = "sun.util.logging.internal.LoggingProviderImpl";

    @Test
    void theJdksUnconfiguredLoggingIsNoBackend() {
        assertTrue(Log.defaultBackend(JUL, null, null));
        assertTrue(Log.defaultBackend("jdk.internal.logger.DefaultLoggerFinder", null, null));
        assertFalse(Log.defaultBackend(JUL, "/etc/logging.properties", null), "a JUL configuration file");
        assertFalse(Log.defaultBackend(JUL, null, "com.example.LogSetup"), "a JUL configuration class");
        assertFalse(Log.defaultBackend("org.slf4j.jdk.platform.logging.SLF4JSystemLoggerFinder", null, null), "SLF4J's bridge");
    }

    @Test
    void jshmemsVariablesSetTheLevels() {
        Level none = Log.threshold(Map.of());
        assertTrue(Log.enabled(Level.ERROR, none) && Log.enabled(Level.WARNING, none));
        assertFalse(Log.enabled(Level.INFO, none) || Log.enabled(Level.DEBUG, none));
        for (String v : new String[] {"SHMEM_INFO", "SHMEM_VERSION"}) {
            Level info = Log.threshold(Map.of(v, "1"));
            assertTrue(Log.enabled(Level.INFO, info), v);
            assertFalse(Log.enabled(Level.DEBUG, info), v);
        }
        for (String off : new String[] {"off", "0", " No ", "false", ""}) {
            assertEquals(Level.WARNING, Log.threshold(Map.of("SHMEM_INFO", off, "SHMEM_DEBUG", off)), off);
            assertFalse(Config.flag(off), off);
        }
        assertEquals(Level.INFO, Log.threshold(Map.of("SHMEM_INFO", "on")), "any other value is on, as Config.flag says");
        Level debug = Log.threshold(Map.of("SHMEM_DEBUG", "yes"));
        assertTrue(Log.enabled(Level.DEBUG, debug) && Log.enabled(Level.TRACE, debug) && Log.enabled(Level.INFO, debug));
        assertFalse(Log.enabled(Level.OFF, debug));
    }

    @Test
    void withoutABackendAMessageIsPrintedAsIs() {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(sink, true, StandardCharsets.UTF_8);
        Log.print(err, "jshmem: PE 3: something {0} happened", null);
        Log.print(err, null, new IllegalStateException("boom"));
        String[] lines = sink.toString(StandardCharsets.UTF_8).split("\\R");
        assertEquals("jshmem: PE 3: something {0} happened", lines[0]);
        assertEquals("java.lang.IllegalStateException: boom", lines[1]);
        assertTrue(lines[2].startsWith("\tat "), lines[2]);
    }
}
