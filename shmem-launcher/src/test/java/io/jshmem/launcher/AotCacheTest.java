/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AotCache}'s names and its checks of what is current, without training (the distribution's
 * AotCacheIT makes and uses real caches through bin/oshrun).
 */
class AotCacheTest {
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path tmp;

    /** bin/oshrun names the launcher's cache with its fnv1a function: the launcher must find the same name. */
    @Test
    void launcherCacheNameIsWhatOshrunComputes() throws Exception {
        Path oshrun = Path.of(System.getProperty("user.dir")).resolveSibling("bin").resolve("oshrun");
        for (String classpath : List.of("/opt/jshmem/lib/a.jar:/opt/jshmem/lib/b.jar", "/tmp/x y/lib/c.jar",
                "/l/" + "x".repeat(300) + ".jar", "")) {
            // oshrun's own function, not a copy of it.
            Process p = new ProcessBuilder("bash", "-c",
                    "eval \"$(sed -n '/^fnv1a() {/,/^}/p' \"$0\")\" && fnv1a \"$1\" && echo \"$REPLY\"",
                    oshrun.toString(), JAVA + "|" + classpath).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertTrue(out.matches("[0-9]+"), "bin/oshrun's fnv1a printed: " + out);
            assertEquals("launcher-" + out + ".aot", AotCache.launcherName(JAVA, classpath), classpath);
        }
        assertNotEquals(AotCache.launcherName(JAVA, "/a.jar"), AotCache.launcherName(JAVA, "/b.jar"));
    }

    /** The cache is made with the options bin/oshrun starts the launcher with: the JVM uses it only then. */
    @Test
    void oshrunStartsTheLauncherWithTheOptionsTheCacheIsMadeWith() throws IOException {
        Path oshrun = Path.of(System.getProperty("user.dir")).resolveSibling("bin").resolve("oshrun");
        String exec = Files.readAllLines(oshrun, StandardCharsets.UTF_8).stream()
                .filter(l -> l.startsWith("exec \"$JAVA\"")).findFirst().orElseThrow();
        assertEquals("exec \"$JAVA\" " + String.join(" ", AotCache.LAUNCHER_JVM_OPTIONS) + " \"${launcher_cache[@]}\" \\",
                exec);
    }

    @Test
    void cachesAreNamedAndCheckedForTheseJarsAndThisJdk() throws IOException {
        Path a = Files.writeString(tmp.resolve("a.jar"), "a");
        Path b = Files.writeString(tmp.resolve("b.jar"), "b");
        Path dir = tmp.resolve("cache");
        String classpath = a + File.pathSeparator + b;
        Map<String, String> env = Map.of("JSHMEM_CACHE_DIR", dir.toString());

        AotCache cache = AotCache.of(JAVA, classpath, env);
        assertNotNull(cache);
        assertTrue(cache.file().getFileName().toString().matches("pe-[0-9a-f]{16}\\.aot"), cache.file().toString());
        assertEquals(dir.resolve(AotCache.launcherName(JAVA, classpath)), cache.launcherFile());
        assertEquals(cache.file(), AotCache.of(JAVA, classpath, env).file(), "the same name every time");
        assertTrue(cache.missing());
        assertEquals(List.of(), cache.jvmOptions(), "no cache yet: the PEs start without");

        // Made: the PE cache, the launcher's, and the key naming what the launcher's was made for.
        Files.createDirectories(dir);
        Files.writeString(cache.file(), "pe cache");
        assertTrue(cache.missing(), "the launcher's is still missing");
        Files.writeString(cache.launcherFile(), "launcher cache");
        Path key = dir.resolve(cache.launcherFile().getFileName().toString().replace(".aot", ".key"));
        String peKey = cache.file().getFileName().toString().replaceAll("pe-|\\.aot", "");
        Files.writeString(key, peKey);
        assertTrue(cache.launcherCurrent());
        assertFalse(cache.missing());
        assertEquals(List.of("-XX:AOTCache=" + cache.file(), "-Xlog:aot=off", "-Xlog:cds=off"), cache.jvmOptions());

        // A jar changed in place: a new PE cache name, and the launcher's (same name) is stale.
        Files.setLastModifiedTime(b, FileTime.fromMillis(Files.getLastModifiedTime(b).toMillis() - 60_000));
        AotCache changed = AotCache.of(JAVA, classpath, env);
        assertNotEquals(cache.file(), changed.file());
        assertEquals(cache.launcherFile(), changed.launcherFile());
        assertFalse(changed.launcherCurrent(), "the launcher's cache was made for the old jar");
        assertTrue(changed.missing());

        // A key file without its cache.
        Files.delete(cache.launcherFile());
        assertFalse(cache.launcherCurrent());
        assertTrue(cache.missing());
    }

    /**
     * A cache is code the PEs and the launcher run: a cache directory other users can write to is
     * not used (nor filled), nor a cache file others can write, and bin/oshrun starts the launcher
     * only from a directory and a file of the user's own.
     */
    @Test
    void cachesOthersCanWriteAreNotUsed() throws IOException {
        Path jar = Files.writeString(tmp.resolve("a.jar"), "a");
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, java.nio.file.attribute.PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals(null, AotCache.of(JAVA, jar.toString(), Map.of("JSHMEM_CACHE_DIR", open.toString())));

        Path own = Files.createDirectory(tmp.resolve("own"));
        AotCache cache = AotCache.of(JAVA, jar.toString(), Map.of("JSHMEM_CACHE_DIR", own.toString()));
        Files.writeString(cache.file(), "pe cache");
        assertTrue(cache.present());
        Files.setPosixFilePermissions(cache.file(), java.nio.file.attribute.PosixFilePermissions.fromString("rw-rw-rw-"));
        assertFalse(cache.present(), "a cache file others can write is not used");
        assertEquals(List.of(), cache.jvmOptions());

        String oshrun = Files.readString(Path.of(System.getProperty("user.dir")).resolveSibling("bin").resolve("oshrun"));
        assertTrue(oshrun.contains("[[ -d $cache_dir && -O $cache_dir ]]") && oshrun.contains("[[ -f $launcher_aot && -O $launcher_aot ]]"),
                "bin/oshrun checks the launcher cache's owner");
    }

    /** Training PEs record classes without method profiles, and in a way a JDK without the flag still accepts. */
    @Test
    void trainingPesRecordWithoutProfiles() throws IOException {
        Path jar = Files.writeString(tmp.resolve("a.jar"), "a");
        System.setProperty(AotCache.RECORD_PROPERTY, tmp.resolve("pe-%p.conf").toString());
        try {
            AotCache training = AotCache.of(JAVA, jar.toString(), Map.of("JSHMEM_AOT", "off"));
            List<String> options = training.jvmOptions();
            assertEquals(List.of("-XX:AOTMode=record", "-XX:AOTConfiguration=" + tmp.resolve("pe-%p.conf"),
                    "-XX:+UnlockDiagnosticVMOptions", "-XX:+IgnoreUnrecognizedVMOptions", "-XX:-AOTRecordTraining",
                    "-Xlog:aot=off", "-Xlog:cds=off"), options);
            assertFalse(training.missing(), "a training job's launcher makes no cache");
        } finally {
            System.clearProperty(AotCache.RECORD_PROPERTY);
        }
    }

    @Test
    void noCacheForClassDirectoriesOrWhenTurnedOff() throws IOException {
        Path jar = Files.writeString(tmp.resolve("a.jar"), "a");
        Path classes = Files.createDirectory(tmp.resolve("classes"));
        Map<String, String> env = Map.of("JSHMEM_CACHE_DIR", tmp.resolve("cache").toString());
        assertNull(AotCache.of(JAVA, jar + File.pathSeparator + classes, env), "class directories cannot be archived");
        assertNull(AotCache.of(JAVA, "", env));
        for (String off : List.of("off", "0", "false", "NO")) {
            assertNull(AotCache.of(JAVA, jar.toString(), Map.of("JSHMEM_CACHE_DIR", tmp.toString(), "JSHMEM_AOT", off)), off);
        }
        assertNotNull(AotCache.of(JAVA, jar.toString(), Map.of("JSHMEM_CACHE_DIR", tmp.toString(), "JSHMEM_AOT", "auto")));
        assertEquals(tmp.resolve("xdg/jshmem"), AotCache.of(JAVA, jar.toString(),
                Map.of("XDG_CACHE_HOME", tmp.resolve("xdg").toString())).file().getParent());
        assertEquals(tmp.resolve("home/.cache/jshmem"), AotCache.of(JAVA, jar.toString(),
                Map.of("HOME", tmp.resolve("home").toString())).file().getParent());
    }
}
