/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.launcher.LaunchOptions.UsageException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PeCommandTest {
    @TempDir
    Path dir;

    private static List<String> build(Map<String, String> env, String... args) throws UsageException {
        return PeCommand.build(LaunchOptions.parse(List.of(args), env), "/jdk/bin/java", "/jshmem/classes", env, null);
    }

    @Test
    void defaultCommand() throws UsageException {
        assertEquals(List.of("/jdk/bin/java", "-XX:+UseSerialGC", PeCommand.JIT_THRESHOLDS, "--enable-native-access=ALL-UNNAMED",
                        "-cp", ".:/jshmem/classes", "app.Main", "a1", "a2"),
                build(Map.of(), "-np", "2", "app.Main", "a1", "a2"));
    }

    @Test
    void moduleRunsOnTheModulePathAfterJshmemsModules() throws UsageException {
        String modules = "io.jshmem.core,io.jshmem.ucx,io.jshmem.spawn";
        assertEquals(List.of("/jdk/bin/java", "-XX:+UseSerialGC", PeCommand.JIT_THRESHOLDS,
                        "--enable-native-access=" + modules + ",ALL-UNNAMED",
                        "-Xmx1g", "--module-path", "/jshmem/classes:/app/mods", "--add-modules", modules,
                        "-m", "app/app.Main", "a1"),
                build(Map.of("CLASSPATH", "/ignored"), "-np", "2", "--jvm-opt", "-Xmx1g", "-p", "/app/mods",
                        "-m", "app/app.Main", "a1"));
        List<String> withClassPath = build(Map.of(), "-np", "1", "-cp", "/libs/x.jar", "-m", "app");
        assertEquals(List.of("--module-path", "/jshmem/classes", "--add-modules", modules, "-cp", "/libs/x.jar", "-m", "app"),
                withClassPath.subList(4, withClassPath.size()));
    }

    /** --jfr: JFR's chunks, while the recording runs, go to a private directory in the recordings' one, not java.io.tmpdir. */
    @Test
    void jfrRecordsIntoItsOwnDirectory() throws UsageException {
        List<String> command = build(Map.of(), "-np", "1", "--jfr", "--jfr-dir", "/rec", "--jvm-opt", "-Xmx1g", "M");
        assertEquals(List.of(PeCommand.JIT_THRESHOLDS, "-XX:FlightRecorderOptions:repository=/rec/" + PeCommand.JFR_REPOSITORY,
                "--enable-native-access=ALL-UNNAMED", "-Xmx1g"), command.subList(2, 6), "the user's options come after");
        assertTrue(build(Map.of(), "-np", "1", "--jfr", "--jfr-dir", "/a,b", "M").stream()
                .noneMatch(o -> o.startsWith("-XX:FlightRecorderOptions")), "a comma would split the option");
        assertTrue(build(Map.of(), "-np", "1", "M").stream().noneMatch(o -> o.startsWith("-XX:FlightRecorderOptions")));
    }

    @Test
    void programClassPathComesFromOptionElseClasspathVariable() throws UsageException {
        assertEquals("/env/cp:/jshmem/classes", classpathOf(build(Map.of("CLASSPATH", "/env/cp"), "-np", "1", "M")));
        assertEquals("/opt/cp:/jshmem/classes",
                classpathOf(build(Map.of("CLASSPATH", "/env/cp"), "-np", "1", "-cp", "/opt/cp", "M")));
    }

    @Test
    void jvmOptionsThenJavaOptsVariable() throws UsageException {
        List<String> command = build(Map.of("JSHMEM_JAVA_OPTS", "  -Xss2m\t -ea "),
                "-np", "1", "--jvm-opt", "-Xmx1g", "M");
        assertEquals(List.of("-XX:+UseSerialGC", PeCommand.JIT_THRESHOLDS, "--enable-native-access=ALL-UNNAMED",
                "-Xmx1g", "-Xss2m", "-ea"), command.subList(1, 7));
    }

    @Test
    void choosingACollectorDropsTheDefaultOne() throws UsageException {
        List<String> command = build(Map.of("JSHMEM_JAVA_OPTS", "-XX:+UseZGC"), "-np", "1", "M");
        assertTrue(command.contains("-XX:+UseZGC"));
        assertTrue(!command.contains("-XX:+UseSerialGC"));
    }

    @Test
    void jarSuppliesTheMainClassAndLeadsTheClassPath() throws Exception {
        Path jar = jar("app.Main");
        List<String> command = build(Map.of("CLASSPATH", "/ignored"), "-np", "1", "-cp", "/extra", "-jar",
                jar.toString(), "arg");
        assertEquals(jar + ":/extra:/jshmem/classes", classpathOf(command));
        assertEquals(List.of("app.Main", "arg"), command.subList(command.size() - 2, command.size()));
    }

    @Test
    void unusableJarsAreUsageErrors() throws Exception {
        Path noMain = jar(null);
        String message = assertThrows(UsageException.class,
                () -> build(Map.of(), "-np", "1", "-jar", noMain.toString())).getMessage();
        assertTrue(message.contains("has no Main-Class"), message);
        message = assertThrows(UsageException.class,
                () -> build(Map.of(), "-np", "1", "-jar", dir.resolve("missing.jar").toString())).getMessage();
        assertTrue(message.contains("cannot read jar"), message);
    }

    private static String classpathOf(List<String> command) {
        return command.get(command.indexOf("-cp") + 1);
    }

    private Path jar(String mainClass) throws IOException {
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        if (mainClass != null) {
            manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, mainClass);
        }
        Path jar = dir.resolve(mainClass == null ? "nomain.jar" : "app.jar");
        new JarOutputStream(Files.newOutputStream(jar), manifest).close();
        return jar;
    }
}
