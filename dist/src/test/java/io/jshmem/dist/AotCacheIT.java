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
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The PEs' ahead-of-time cache, from the unpacked distribution (jshmem in jars): the first job
 * makes it, later jobs use it (also for what only launched PEs load, and over UCX what the UCX
 * transport loads), and a corrupt cache or JSHMEM_AOT=off changes nothing but speed.
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
        List<Path> files = cacheFiles();
        assertEquals(1, files.size(), "one cache file after the first job, no temporary ones: " + files + first.describe());
        Path file = files.get(0);
        assertTrue(file.getFileName().toString().matches("pe-[0-9a-f]{16}\\.aot"), file.toString());
        assertTrue(Files.size(file) > 1_000_000, "a real cache, not an empty file: " + Files.size(file) + " bytes");

        Result second = hello(Map.of("SHMEM_INFO", "1"));
        assertHello(second);
        assertTrue(second.stderr.contains("start-up cache:       " + file), "the PEs use the cache" + second.describe());

        // The training ran as a launched job: the bootstrap's socket classes come from the cache,
        // and so do jshmem's lambdas (the cache's module graph matches the PEs' native access).
        assertFromCache(List.of(), List.of("io.jshmem.core.bootstrap.TcpBootstrap$Identity", "sun.nio.ch.SocketChannelImpl",
                "io.jshmem.core.ShmemRuntime$$Lambda/"));
        if (libucpInstalled()) {
            assertFromCache(List.of("-x", "SHMEM_TRANSPORT=ucx", "-x", "UCX_TLS=tcp,self"),
                    List.of("io.jshmem.ucx.Ucp", "jdk.internal.foreign.abi.DowncallLinker"));
        }

        Files.writeString(file, "not an AOT cache");
        Result corrupt = hello(Map.of());
        assertHello(corrupt);
        String all = (corrupt.stdout + corrupt.stderr).toLowerCase(Locale.ROOT);
        assertFalse(all.contains("aot") || all.contains("shared spaces") || all.contains("cds"),
                "a corrupt cache is ignored silently" + corrupt.describe());

        Result off = hello(Map.of("JSHMEM_AOT", "off", "SHMEM_INFO", "1"));
        assertHello(off);
        assertTrue(off.stderr.contains("start-up cache:       none"), "JSHMEM_AOT=off uses no cache" + off.describe());
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
        pb.environment().keySet().removeIf(k -> k.startsWith("JSHMEM_") || k.startsWith("SHMEM_"));
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
