/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.dist;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The ahead-of-time caches of the PEs and of oshrun's launcher JVM, from the unpacked distribution
 * (jshmem in jars): the first job makes them, later jobs use them (also for what only launched PEs
 * load, and over UCX what the UCX transport loads), and a corrupt, stale or missing cache or
 * JSHMEM_AOT=off changes nothing but speed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AotCacheIT {
    private Path tmp;
    private Path dist;
    private Path cache;

    @BeforeAll
    void unpack() throws Exception {
        tmp = Files.createTempDirectory("jshmem-aot-it");
        dist = Unpacked.unpack(tmp);
        cache = tmp.resolve("cache");
    }

    @AfterAll
    void remove() throws IOException {
        Unpacked.delete(tmp);
    }

    @Test
    void firstJobMakesTheCacheLaterJobsUseItAndACorruptOneIsIgnored() throws Exception {
        Result first = hello(Map.of());
        assertHello(first);
        assertEquals(1, notices(first), "the first job says once that it makes the cache" + first.describe());
        List<Path> files = cacheFiles();
        assertEquals(3, files.size(), "the PEs' cache, the launcher's and its key after the first job, no temporary files: "
                + files + first.describe());
        Path launcherFile = files.get(0);
        Path launcherKey = files.get(1);
        Path file = files.get(2);
        assertTrue(file.getFileName().toString().matches("pe-[0-9a-f]{16}\\.aot"), file.toString());
        assertTrue(launcherFile.getFileName().toString().matches("launcher-[0-9]+\\.aot"), launcherFile.toString());
        assertEquals(launcherFile.getFileName().toString().replace(".aot", ".key"), launcherKey.getFileName().toString());
        String key = file.getFileName().toString().replaceAll("pe-|\\.aot", "");
        assertEquals(key, Files.readString(launcherKey), "the launcher's cache is for these jars");
        assertTrue(Files.size(file) > 1_000_000, "a real cache, not an empty file: " + Files.size(file) + " bytes");
        assertTrue(Files.size(launcherFile) > 1_000_000, "a real cache, not an empty file: " + Files.size(launcherFile) + " bytes");

        Result second = hello(Map.of("SHMEM_INFO", "1"));
        assertHello(second);
        assertEquals(0, notices(second), "nothing to make: no notice" + second.describe());
        assertTrue(second.stderr.contains("start-up cache:       " + file), "the PEs use the cache" + second.describe());
        assertTrue(second.stderr.contains("oshrun: launcher start-up cache: " + launcherFile), "oshrun uses its cache" + second.describe());
        assertLauncherFromCache(true);

        // The training ran as a launched job: the bootstrap's socket classes come from the cache,
        // and so do jshmem's lambdas (the cache's module graph matches the PEs' native access).
        assertFromCache(List.of(), List.of("io.jshmem.core.bootstrap.TcpBootstrap$Identity", "sun.nio.ch.SocketChannelImpl",
                "io.jshmem.core.runtime.ShmemRuntime$$Lambda/"));
        if (libucpInstalled()) {
            assertFromCache(List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self"),
                    List.of("io.jshmem.ucx.Ucp", "jdk.internal.foreign.abi.DowncallLinker"));
        }

        // The launcher's cache corrupt and made for other jars: ignored, and made again after the job.
        Files.writeString(launcherFile, "not an AOT cache");
        Files.writeString(launcherKey, "0123456789abcdef");
        Result stale = hello(Map.of());
        assertHello(stale);
        assertQuiet(stale);
        assertEquals(1, notices(stale), "made again: says so" + stale.describe());
        assertEquals(key, Files.readString(launcherKey), "the launcher's cache is made again" + stale.describe());
        assertTrue(Files.size(launcherFile) > 1_000_000, "the launcher's cache is made again" + stale.describe());
        assertLauncherFromCache(true);
        // Missing: made again too.
        Files.delete(launcherFile);
        Result missing = hello(Map.of("SHMEM_INFO", "1"));
        assertHello(missing);
        assertTrue(missing.stderr.contains("oshrun: launcher start-up cache: none"), missing.describe());
        assertTrue(Files.size(launcherFile) > 1_000_000, "the launcher's cache is made again" + missing.describe());
        assertEquals(3, cacheFiles().size(), "no temporary files: " + cacheFiles());

        Files.writeString(file, "not an AOT cache");
        Result corrupt = hello(Map.of());
        assertHello(corrupt);
        assertQuiet(corrupt);

        Result off = hello(Map.of("JSHMEM_AOT", "off", "SHMEM_INFO", "1"));
        assertHello(off);
        assertTrue(off.stderr.contains("start-up cache:       none"), "JSHMEM_AOT=off uses no cache" + off.describe());
        assertTrue(off.stderr.contains("oshrun: launcher start-up cache: none"), "JSHMEM_AOT=off: not for oshrun either" + off.describe());
        assertLauncherFromCache(false);
    }

    /** Without JSHMEM_CACHE_DIR (bin/oshrun runs with set -u): the caches go to $XDG_CACHE_HOME/jshmem. */
    @Test
    void cachesGoToTheXdgCacheDirectoryWithoutJshmemCacheDir() throws Exception {
        Path xdg = tmp.resolve("xdg");
        List<String> hello = List.of(dist.resolve("bin/oshrun").toString(), "-np", "2", "--timeout", "120",
                "-cp", dist.resolve("examples/jshmem-examples.jar").toString(), "io.jshmem.examples.Hello");
        assertHello(run(hello, Map.of("XDG_CACHE_HOME", xdg.toString())));
        List<String> names;
        try (Stream<Path> s = Files.list(xdg.resolve("jshmem"))) {
            names = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertEquals(3, names.size(), names.toString());
        assertTrue(names.get(0).matches("launcher-[0-9]+\\.aot") && names.get(2).matches("pe-[0-9a-f]{16}\\.aot"), names.toString());
        Result second = run(hello, Map.of("XDG_CACHE_HOME", xdg.toString(), "SHMEM_INFO", "1"));
        assertHello(second);
        assertTrue(second.stderr.contains("oshrun: launcher start-up cache: " + xdg.resolve("jshmem").resolve(names.get(0))),
                second.describe());
    }

    /** How many times oshrun said it makes the start-up cache. */
    private static long notices(Result r) {
        return r.stderr.lines().filter(l -> l.startsWith("oshrun: the job is done; making this installation's start-up cache"))
                .count();
    }

    /** Nothing from the JVM about a cache it ignores (oshrun's own notice that it makes one aside). */
    private static void assertQuiet(Result r) {
        String all = (r.stdout + r.stderr.lines().filter(l -> !l.startsWith("oshrun: the job is done; making"))
                .map(l -> l + "\n").collect(Collectors.joining())).toLowerCase(Locale.ROOT);
        assertFalse(all.contains("aot") || all.contains("shared spaces") || all.contains("cds"),
                "a corrupt cache is ignored silently" + r.describe());
    }

    /** Whether a 2-PE hello's launcher JVM loads its own classes from its cache (JSHMEM_AOT=off when not). */
    private void assertLauncherFromCache(boolean expected) throws Exception {
        Path logs = Files.createTempDirectory(tmp, "launcher-class-load");
        Map<String, String> env = new HashMap<>(Map.of("JAVA_TOOL_OPTIONS", "-Xlog:class+load:file=" + logs.resolve("jvm-%p.txt")));
        if (!expected) {
            env.put("JSHMEM_AOT", "off");
        }
        Result r = hello(env);
        assertHello(r);
        List<String> loads = new ArrayList<>();
        try (Stream<Path> s = Files.list(logs)) {
            for (Path f : s.toList()) {
                Files.readAllLines(f, StandardCharsets.UTF_8).stream()
                        .filter(l -> l.contains("] io.jshmem.launcher.Launcher ")).forEach(loads::add);
            }
        }
        assertEquals(1, loads.size(), "the launcher JVM's class-loading log: " + loads + r.describe());
        assertEquals(expected, loads.get(0).endsWith("source: shared objects file"), loads.get(0));
    }

    private Result hello(Map<String, String> extra) throws Exception {
        Map<String, String> env = new HashMap<>(extra);
        env.put("JSHMEM_CACHE_DIR", cache.toString());
        return run(List.of(dist.resolve("bin/oshrun").toString(), "-np", "2", "--timeout", "120",
                "-cp", dist.resolve("examples/jshmem-examples.jar").toString(), "io.jshmem.examples.Hello"), env);
    }

    /** A 2-PE hello with these options loads each of these classes (a name, or a prefix ending in '/') from the cache. */
    private void assertFromCache(List<String> options, List<String> classes) throws Exception {
        Path logs = Files.createTempDirectory(tmp, "class-load");
        List<String> command = new ArrayList<>(List.of(dist.resolve("bin/oshrun").toString(), "-np", "2", "--timeout", "120"));
        command.addAll(options);
        command.addAll(List.of("--jvm-opt=-Xlog:class+load:file=" + logs.resolve("pe-%p.txt"),
                "-cp", dist.resolve("examples/jshmem-examples.jar").toString(), "io.jshmem.examples.Hello"));
        Result r = run(command, Map.of("JSHMEM_CACHE_DIR", cache.toString()));
        assertHello(r);
        List<Path> files;
        try (Stream<Path> s = Files.list(logs)) {
            files = s.sorted().toList();
        }
        assertEquals(2, files.size(), "one class-loading log per PE: " + files + r.describe());
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            for (String c : classes) {
                String name = c.endsWith("/") ? c : c + " ";
                List<String> loads = lines.stream().filter(l -> l.contains("] " + name)).toList();
                assertFalse(loads.isEmpty(), c + " loaded by " + f + r.describe());
                assertTrue(loads.stream().allMatch(l -> l.endsWith("source: shared objects file")),
                        c + " from the AOT cache " + options + ": " + loads);
            }
        }
    }

    private boolean libucpInstalled() throws Exception {
        return run(List.of("/sbin/ldconfig", "-p"), Map.of()).stdout.contains("libucp.so");
    }

    private static void assertHello(Result r) {
        assertEquals(0, r.status, r.describe());
        assertEquals(2, r.stdout.lines().filter(l -> l.startsWith("Hello from PE ")).count(), r.describe());
    }

    private List<Path> cacheFiles() throws IOException {
        try (Stream<Path> s = Files.list(cache)) {
            return s.sorted().toList();
        }
    }

    private record Result(int status, String stdout, String stderr, List<String> command) {
        String describe() {
            return "\n  command: " + String.join(" ", command) + "\n  status: " + status + "\n  stdout:\n" + stdout
                    + "\n  stderr:\n" + stderr;
        }
    }

    private Result run(List<String> command, Map<String, String> extra) throws Exception {
        Path out = Files.createTempFile(tmp, "out", ".txt");
        Path err = Files.createTempFile(tmp, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command));
        pb.environment().keySet().removeIf(k -> k.startsWith("JSHMEM_") || k.startsWith("SHMEM_") || k.equals("JAVA_TOOL_OPTIONS"));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().putAll(extra);
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (!p.waitFor(240, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("did not end within 240 s: " + command);
        }
        return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), command);
    }
}
