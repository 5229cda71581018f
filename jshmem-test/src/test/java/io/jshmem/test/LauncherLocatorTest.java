/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which oshrun the test jobs use: jshmem's, found through jshmem.home, $JSHMEM_HOME or the PATH, and
 * never another implementation's (Open MPI's, when installed: the real one, run for its --version).
 */
class LauncherLocatorTest {
    /** This checkout, whose bin/oshrun is jshmem's. */
    private static final Path HOME = Path.of(System.getProperty("jshmem.home", "..")).toAbsolutePath().normalize();

    /** Another implementation's oshrun on the PATH (Open MPI's), if any. */
    private static Path foreignOshrun() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path p = dir.isEmpty() ? null : Path.of(dir, "oshrun");
            if (p != null && Files.isExecutable(p) && !LauncherLocator.foreignReason(p).isEmpty()) {
                return p;
            }
        }
        return null;
    }

    @Test
    void jshmemHomeGivesItsLauncher() {
        assertEquals(HOME.resolve("bin/oshrun").toString(), LauncherLocator.oshrun("", HOME.toString(), null, "/usr/bin"));
        assertEquals(HOME.resolve("bin/oshrun").toString(), LauncherLocator.oshrun("", "${jshmem.home}", HOME.toString(), "/usr/bin"),
                "an unresolved Maven property falls back to $JSHMEM_HOME");
        assertEquals("/opt/my/oshrun", LauncherLocator.oshrun("/opt/my/oshrun", HOME.toString(), null, ""),
                "jshmem.test.oshrun is used as given");
    }

    @Test
    void jshmemFirstOnThePathIsUsed() {
        Path foreign = foreignOshrun();
        String path = HOME.resolve("bin") + (foreign == null ? "" : File.pathSeparator + foreign.getParent());
        assertEquals(HOME.resolve("bin/oshrun").toString(), LauncherLocator.oshrun("", "", "", path));
    }

    @Test
    void foreignOshrunOnThePathIsRefusedNamingJshmemHome() {
        Path foreign = foreignOshrun();
        assumeTrue(foreign != null, "no other implementation's oshrun (e.g. Open MPI's) on the PATH");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> LauncherLocator.oshrun("", "", "", foreign.getParent() + File.pathSeparator + HOME.resolve("bin")));
        String m = e.getMessage();
        assertTrue(m.contains(foreign.toString()) && m.contains("is not jshmem's launcher") && m.contains("the PATH")
                && m.contains("jshmem.home") && m.contains("$JSHMEM_HOME"), m);
        assertTrue(m.contains(LauncherLocator.foreignReason(foreign)), "names what it is (its --version): " + m);
    }

    @Test
    void homeThatHoldsAForeignOshrunIsRefused() {
        Path foreign = foreignOshrun();
        assumeTrue(foreign != null, "no other implementation's oshrun (e.g. Open MPI's) on the PATH");
        Path prefix = foreign.getParent().getParent();   // e.g. /usr for /usr/bin/oshrun
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> LauncherLocator.oshrun("", prefix.toString(), null, ""));
        assertTrue(e.getMessage().contains("jshmem.home (" + prefix + ")") && e.getMessage().contains("not jshmem's"),
                e.getMessage());
    }

    @Test
    void homeWithoutLauncherAndNoLauncherAtAllAreClear(@TempDir Path empty) throws IOException {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> LauncherLocator.oshrun("", "", empty.toString(), ""));
        assertTrue(e.getMessage().contains("$JSHMEM_HOME (" + empty + ")") && e.getMessage().contains("not executable"),
                e.getMessage());
        e = assertThrows(IllegalStateException.class, () -> LauncherLocator.oshrun("", "", "", empty.toString()));
        assertTrue(e.getMessage().contains("no oshrun") && e.getMessage().contains("jshmem.home"), e.getMessage());
        Path script = Files.writeString(Files.createDirectories(empty.resolve("x/bin")).resolve("oshrun"), "#!/bin/sh\necho other 1.0\n");
        assertTrue(script.toFile().setExecutable(true));
        assertEquals("\"other 1.0\"", LauncherLocator.foreignReason(script), "a script that is not jshmem's is run for its --version");
    }
}
