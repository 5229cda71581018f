/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/jshmem-env.sh in the source tree layout: the modules' jars in target/ when each is current
 * (so that oshrun can use the ahead-of-time cache there too, which holds classes from jars only),
 * else the classes directories. Runs the script itself on a fake tree (AotCacheIT makes and uses
 * real caches). The launcher's module is kept apart ($JSHMEM_LAUNCHER_CP): PEs never load it.
 */
class SourceTreeClasspathTest {
    /** The PEs' modules, in their order on the class path. */
    private static final List<String> MODULES = List.of("shmem-api", "shmem-core", "shmem-spawn", "shmem-ucx", "shmem-report");
    private static final String LAUNCHER = "shmem-launcher";
    private static final FileTime OLD = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
    private static final FileTime NEW = FileTime.fromMillis(System.currentTimeMillis() - 60_000);

    @TempDir
    Path tmp;
    /** The fake tree's root (tmp, or a directory in it). */
    private Path root;

    /** A built source tree: each module's classes (an hour old) and its jar (a minute old). */
    private void tree() throws IOException {
        tree(tmp);
    }

    private void tree(Path at) throws IOException {
        root = at;
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path script = Path.of(System.getProperty("user.dir")).resolveSibling("bin").resolve("jshmem-env.sh");
        Files.copy(script, bin.resolve("jshmem-env.sh"));
        for (String m : all()) {
            Path target = root.resolve(m).resolve("target");
            Path cls = Files.createDirectories(target.resolve("classes/io/jshmem/x"));
            Path f = Files.writeString(cls.resolve(m + ".class"), "x");
            Files.setLastModifiedTime(f, OLD);
            if (m.equals("shmem-core")) {
                Files.setLastModifiedTime(Files.writeString(target.resolve("classes/module-info.class"), "x"), OLD);
            }
            for (String jar : List.of(m + "-0.1.0-SNAPSHOT.jar", m + "-0.1.0-SNAPSHOT-sources.jar")) {
                Files.setLastModifiedTime(Files.writeString(target.resolve(jar), "x"), NEW);
            }
        }
    }

    private static List<String> all() {
        List<String> all = new ArrayList<>(MODULES);
        all.add(LAUNCHER);
        return all;
    }

    /**
     * What the script sets: JSHMEM_CP, the number of jars oshrun sees ($jars, which enables the
     * cache) and JSHMEM_LAUNCHER_CP.
     */
    private List<String> source() throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c",
                ". \"$0\" test && echo \"$JSHMEM_CP\" && echo \"${#jars[@]}\" && echo \"$JSHMEM_LAUNCHER_CP\"",
                root.resolve("bin/jshmem-env.sh").toString()).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out.lines().toList();
    }

    private List<String> expected(boolean jars) throws IOException {
        List<String> cp = new ArrayList<>();
        for (String m : MODULES) {
            cp.add(entry(m, jars));
        }
        return List.of(String.join(":", cp), jars ? "5" : "0", entry(LAUNCHER, jars));
    }

    private String entry(String module, boolean jar) throws IOException {
        Path target = root.toRealPath().resolve(module).resolve("target");
        return (jar ? target.resolve(module + "-0.1.0-SNAPSHOT.jar") : target.resolve("classes")).toString();
    }

    /** Without the launcher's module built, the PEs' class path is the same and the launcher's empty. */
    @Test
    void theLauncherIsNeverOnThePesClassPath() throws Exception {
        tree();
        List<String> withLauncher = source();
        assertFalse(withLauncher.get(0).contains(LAUNCHER), withLauncher.get(0));
        deleteTree(tmp.resolve(LAUNCHER));
        List<String> without = source();
        assertEquals(List.of(withLauncher.get(0), "5", ""), without);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @Test
    void currentJarsAreUsed() throws Exception {
        tree();
        assertEquals(expected(true), source());
    }

    /** After `mvn compile` (or an IDE's build) the jars are older than some classes: never run stale code. */
    @Test
    void aClassNewerThanItsJarMeansClassesDirectories() throws Exception {
        tree();
        Files.setLastModifiedTime(tmp.resolve("shmem-ucx/target/classes/io/jshmem/x/shmem-ucx.class"),
                FileTime.fromMillis(System.currentTimeMillis()));
        assertEquals(expected(false), source());
    }

    /** A class newer than another module's jar is fine: modules are built one after the other. */
    @Test
    void onlyAModulesOwnJarCounts() throws Exception {
        tree();
        Files.setLastModifiedTime(tmp.resolve("shmem-api/target/shmem-api-0.1.0-SNAPSHOT.jar"), OLD);
        Files.setLastModifiedTime(tmp.resolve("shmem-core/target/classes/io/jshmem/x/shmem-core.class"),
                FileTime.fromMillis(NEW.toMillis() - 1000));
        Files.setLastModifiedTime(tmp.resolve("shmem-api/target/classes/io/jshmem/x/shmem-api.class"),
                FileTime.fromMillis(OLD.toMillis() - 1000));
        assertEquals(expected(true), source());
    }

    @Test
    void aModuleWithoutItsJarMeansClassesDirectories() throws Exception {
        tree();
        Files.delete(tmp.resolve("shmem-spawn/target/shmem-spawn-0.1.0-SNAPSHOT.jar"));
        assertEquals(expected(false), source());
    }

    /** find -path takes a pattern: under a directory whose name has pattern characters, the classes. */
    @Test
    void aRootWithPatternCharactersMeansClassesDirectories() throws Exception {
        tree(Files.createDirectories(tmp.resolve("a[1]*")));
        assertEquals(expected(false), source());
    }

    /** Only compiled (no jar at all, e.g. `mvn compile`): the classes directories, as before. */
    @Test
    void noJarsMeansClassesDirectories() throws Exception {
        tree();
        for (String m : all()) {
            Files.delete(tmp.resolve(m).resolve("target").resolve(m + "-0.1.0-SNAPSHOT.jar"));
        }
        assertEquals(expected(false), source());
    }
}
