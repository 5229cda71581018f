/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShmemVersionTest {
    @Test
    void versionComesFromTheBuild() {
        String expected = System.getProperty("jshmem.expectedVersion");
        assertNotNull(expected, "surefire sets jshmem.expectedVersion to ${project.version}");
        assertEquals(expected, ShmemVersion.JSHMEM_VERSION);
        assertEquals("jshmem " + expected, ShmemVersion.VENDOR_STRING);
    }

    @Test
    void twoVersionsOnTheClassPathAreNamed(@TempDir Path tmp) throws Exception {
        try (URLClassLoader two = loader(tmp, "0.0.1", "0.1.0")) {
            ShmemException e = assertThrows(ShmemException.class, () -> ShmemVersion.checkSingleVersion(two));
            assertTrue(e.getMessage().contains("2 versions of jshmem: jshmem 0.0.1 in " + tmp.resolve("cp0")
                    + ", jshmem 0.1.0 in " + tmp.resolve("cp1")), e.getMessage());
        }
    }

    @Test
    void oneVersionTwiceIsFine(@TempDir Path tmp) throws Exception {
        try (URLClassLoader same = loader(tmp, "0.1.0", "0.1.0")) {
            ShmemVersion.checkSingleVersion(same);
            assertEquals(Map.of(tmp.resolve("cp0").toString(), "0.1.0", tmp.resolve("cp1").toString(), "0.1.0"),
                    ShmemVersion.copies(same));
        }
    }

    @Test
    void aClassPathIsReadDirectlyWithTheJarsItsManifestsName(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("classes");
        Files.createDirectories(dir.resolve("io/jshmem"));
        Files.writeString(dir.resolve("io/jshmem/" + ShmemVersion.RESOURCE), "version=0.1.0\n");
        Path lib = Files.createDirectories(tmp.resolve("lib"));
        Path inner = jar(lib.resolve("old jshmem.jar"), "0.0.2", null);
        Path app = jar(tmp.resolve("app.jar"), "0.0.1", "lib/old%20jshmem.jar missing.jar");
        Path plain = jar(tmp.resolve("plain.jar"), null, null);
        Map<String, String> copies = ShmemVersion.copies(List.of(dir, app, plain, tmp.resolve("absent.jar")));
        // In class path order, a manifest's entries right after its jar.
        assertEquals(List.of(dir.toString(), app.toString(), inner.toString()), List.copyOf(copies.keySet()));
        assertEquals(List.of("0.1.0", "0.0.1", "0.0.2"), List.copyOf(copies.values()));
    }

    @Test
    void thisTestsClassPathHoldsOneVersion() {
        // Surefire's class path: a jar whose manifest names the entries (or the entries themselves).
        Map<String, String> copies = ShmemVersion.copies(ShmemVersion.classPath(System.getProperty("java.class.path")));
        assertEquals(Set.of(System.getProperty("jshmem.expectedVersion")), Set.copyOf(copies.values()), copies.toString());
        ShmemVersion.checkSingleVersion(ClassLoader.getSystemClassLoader());
    }

    /** A jar holding the version resource (unless null) and a manifest Class-Path (unless null). */
    private static Path jar(Path file, String version, String classPath) throws Exception {
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (classPath != null) {
            m.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath);
        }
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(file), m)) {
            if (version != null) {
                out.putNextEntry(new JarEntry("io/jshmem/" + ShmemVersion.RESOURCE));
                out.write(("version=" + version + "\n").getBytes(StandardCharsets.UTF_8));
                out.closeEntry();
            }
        }
        return file;
    }

    /** A class loader over directories cp0, cp1, ... each holding the version resource with one version. */
    private static URLClassLoader loader(Path tmp, String... versions) throws Exception {
        URL[] urls = new URL[versions.length];
        for (int i = 0; i < versions.length; i++) {
            Path dir = tmp.resolve("cp" + i);
            Files.createDirectories(dir.resolve("io/jshmem"));
            Files.writeString(dir.resolve("io/jshmem/" + ShmemVersion.RESOURCE), "version=" + versions[i] + "\n");
            urls[i] = dir.toUri().toURL();
        }
        return new URLClassLoader(urls, null);
    }
}
