/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.Shmem;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher is its own module, which PEs never load: shmem-core's classes hold none of it, and
 * the PEs of a job bin/oshrun starts from the source tree have neither its jar nor its classes on
 * their class path (only the program's, here this module's test classes).
 */
class LauncherSeparationTest {
    @TempDir
    Path dir;

    /** Where the launcher's classes are (this module's target/classes, or its jar). */
    private static Path launcherLocation() throws Exception {
        return Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toAbsolutePath().normalize();
    }

    @Test
    void shmemCoreHoldsNoLauncherClass() throws Exception {
        Path classes = OshrunEndToEndTest.repositoryRoot().resolve("shmem-core/target/classes");
        assertTrue(Files.isRegularFile(classes.resolve("module-info.class")), "shmem-core is not built: " + classes);
        List<String> launcher = new ArrayList<>();
        try (Stream<Path> s = Files.walk(classes)) {
            s.map(p -> classes.relativize(p).toString().replace(File.separatorChar, '/'))
                    .filter(p -> p.startsWith("io/jshmem/launcher") || p.contains("/launcher/") || p.endsWith("/Launcher.class"))
                    .forEach(launcher::add);
        }
        assertEquals(List.of(), launcher, "launcher classes in shmem-core");
        assertFalse(launcherLocation().startsWith(classes), launcherLocation().toString());
    }

    /** The launcher's own default (no jshmem.classpath property): its class path without its own entry. */
    @Test
    void theDefaultPeClasspathLeavesTheLauncherOut() throws Exception {
        String own = launcherLocation().toString();
        assertEquals("/a.jar" + File.pathSeparator + "/b", Launcher.withoutLauncher(String.join(File.pathSeparator, "/a.jar", own, "/b")));
        assertEquals("/a.jar", Launcher.withoutLauncher("/a.jar"));
    }

    @Test
    void oshrunsPesDoNotSeeTheLauncher() throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        List<String> command = List.of(OshrunEndToEndTest.repositoryRoot().resolve("bin/oshrun").toString(), "-np", "2",
                "--timeout", "120", "-cp", Path.of("target/test-classes").toAbsolutePath().toString(), PeClasspath.class.getName());
        Process oshrun = OshrunEndToEndTest.start(command, out, err);
        if (!oshrun.waitFor(300, TimeUnit.SECONDS)) {
            oshrun.descendants().forEach(ProcessHandle::destroyForcibly);
            oshrun.destroyForcibly();
            throw new AssertionError("oshrun hung");
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String describe = "stdout:\n" + stdout + "stderr:\n" + Files.readString(err, StandardCharsets.UTF_8);
        assertEquals(0, oshrun.exitValue(), describe);
        List<String> paths = stdout.lines().filter(l -> l.startsWith("classpath ")).toList();
        assertEquals(2, paths.size(), describe);
        String launcher = launcherLocation().toString();
        for (String line : paths) {
            assertTrue(line.contains(" launcher-class absent "), describe);
            for (String entry : line.substring(line.indexOf(" cp ") + 4).split(File.pathSeparator)) {
                Path p = Path.of(entry).toAbsolutePath().normalize();
                assertFalse(p.toString().equals(launcher) || p.getFileName().toString().startsWith("shmem-launcher-"),
                        "the launcher on a PE's class path: " + entry + "\n" + describe);
            }
        }
    }

    /** A PE that prints its class path and whether the launcher's main class is visible to it. */
    public static final class PeClasspath {
        private PeClasspath() {
        }

        public static void main(String[] args) {
            String launcher;
            try {
                Class.forName("io.jshmem.launcher.Launcher", false, PeClasspath.class.getClassLoader());
                launcher = "present";
            } catch (ClassNotFoundException e) {
                launcher = "absent";
            }
            try (Shmem shmem = Shmem.init()) {
                System.out.println("classpath pe " + shmem.myPe() + " launcher-class " + launcher + " cp "
                        + System.getProperty("java.class.path"));
            }
        }
    }
}
