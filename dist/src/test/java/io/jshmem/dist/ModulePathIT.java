/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.dist;

import static io.jshmem.dist.Run.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.jshmem.test.ShmemTest;
import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * jshmem on the module path, from the unpacked distribution: the library jars' module descriptors
 * export only the API, and a program that is a named module runs as a job of PEs started by
 * {@code bin/oshrun -p ... -m ...}, with the runtime and the UCX transport found as services and
 * their internals out of reach; plain {@code java} without {@code --enable-native-access} gets a
 * message naming the flag.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ModulePathIT {
    private static final String VERSION = Unpacked.VERSION;
    private static final Path JDK_BIN = Path.of(System.getProperty("java.home"), "bin");

    private Path tmp;
    private Path dist;
    private Path home;
    /** The compiled module {@code app} (directory {@code mods/app}). */
    private Path mods;

    @BeforeAll
    void unpackAndCompile() throws Exception {
        tmp = Files.createTempDirectory("jshmem-module-it");
        dist = Unpacked.unpack(tmp);
        home = Files.createDirectories(tmp.resolve("home"));
        Path src = Files.createDirectories(tmp.resolve("src/app/app"));
        Files.writeString(src.getParent().resolve("module-info.java"),
                "module app { requires io.jshmem; requires io.jshmem.spawn; }\n");
        Files.writeString(src.resolve("Main.java"), """
                package app;

                import io.jshmem.HeapExhaustedException;
                import io.jshmem.Shmem;
                import io.jshmem.SymLongArray;
                import io.jshmem.SymType;
                import io.jshmem.spawn.Spawn;
                import io.jshmem.spawn.Subprocess;
                import java.lang.ProcessBuilder.Redirect;
                import java.nio.charset.StandardCharsets;
                
                public final class Main {
                    public static void main(String[] args) throws Exception {
                        try (Shmem s = Shmem.init()) {
                            int me = s.myPe();
                            SymLongArray sum = s.calloc(SymType.LONG, 1);
                            s.atomicAdd(sum, 0, me + 1, 0);
                            s.barrierAll();
                            long total = s.g(sum, 0, 0);
                            String heap;
                            try {
                                s.malloc(SymType.LONG, Long.MAX_VALUE / 2);
                                heap = "no exception";
                            } catch (HeapExhaustedException e) {
                                heap = "HeapExhaustedException";
                            }
                            String internals;
                            try {
                                s.getClass().getMethod("myPe").invoke(s);
                                internals = "reachable";
                            } catch (IllegalAccessException e) {
                                internals = "encapsulated";
                            }
                            String marker;
                            try (Subprocess p = Spawn.command("sh", "-c", "echo \\"$JSHMEM_SPAWNED_BY\\"")
                                    .stdout(Redirect.PIPE).start()) {
                                marker = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8).strip();
                                p.waitFor();
                            }
                            s.barrierAll();
                            System.out.println("PE " + me + " of " + s.nPes() + ": module " + Main.class.getModule().getName()
                                    + ", runtime " + s.getClass().getModule().getName() + ", sum " + total + ", " + heap
                                    + ", internals " + internals + ", child marked " + marker.contains("pe=" + me));
                        }
                    }
                }
                """);
        mods = tmp.resolve("mods");
        // oshjavac puts the API modules on the module path when it compiles a module-info.java.
        Run javac = inDist(List.of("bin/oshjavac", "-d", mods.resolve("app").toString(),
                src.getParent().resolve("module-info.java").toString(), src.resolve("Main.java").toString()), Map.of());
        assertEquals(0, javac.status(), javac::describe);
    }

    @AfterAll
    void removeUnpacked() throws IOException {
        Unpacked.delete(tmp);
    }

    /** {@code jar --describe-module} of each library jar: only io.jshmem, io.jshmem.spawn and io.jshmem.test are exported (io.jshmem.spi to jshmem's modules). */
    @Test
    void libraryJarsExportOnlyTheApi() throws Exception {
        Descriptor api = describe(dist.resolve("lib/shmem-api-" + VERSION + ".jar"), "io.jshmem");
        assertEquals(List.of("io.jshmem"), api.exports(), api.text);
        // The SPI only to the modules that provide or look up its services.
        assertEquals(List.of("qualified exports io.jshmem.spi to io.jshmem.core io.jshmem.spawn"), api.qualifiedExports(),
                api.text);
        assertTrue(api.has("uses io.jshmem.spi.ShmemProvider"), api.text);

        Descriptor core = describe(dist.resolve("lib/shmem-core-" + VERSION + ".jar"), "io.jshmem.core");
        assertEquals(List.of(), core.exports(), core.text);
        assertFalse(core.qualifiedExports().isEmpty(), core.text);
        // ... and the per-PE log file handler to java.logging, which instantiates it by reflection
        // (a JUL configuration names io.jshmem.logging.PeFileHandler).
        assertTrue(core.qualifiedExports().stream().allMatch(l -> l.endsWith(" to io.jshmem.ucx")
                        || l.endsWith(" to io.jshmem.launcher io.jshmem.ucx")
                        || l.equals("qualified exports io.jshmem.logging to java.logging")),
                "the runtime's packages are exported to the UCX module only:\n" + core.text);
        // ... and to oshrun's launcher only the settings and the bootstrap protocol.
        assertEquals(List.of("qualified exports io.jshmem.core.base to io.jshmem.launcher io.jshmem.ucx",
                        "qualified exports io.jshmem.core.bootstrap to io.jshmem.launcher io.jshmem.ucx"),
                core.qualifiedExports().stream().filter(l -> l.contains("io.jshmem.launcher")).toList(), core.text);
        assertTrue(core.has("qualified exports io.jshmem.logging to java.logging"), core.text);
        assertTrue(core.has("provides io.jshmem.spi.ShmemProvider with io.jshmem.core.runtime.ShmemProviderImpl"), core.text);
        assertTrue(core.has("provides io.jshmem.spi.SubprocessSupport with "), core.text);
        assertTrue(core.has("uses io.jshmem.core.transport.TransportProvider"), core.text);

        Descriptor ucx = describe(dist.resolve("lib/shmem-ucx-" + VERSION + ".jar"), "io.jshmem.ucx");
        assertEquals(List.of(), ucx.exports(), ucx.text);
        assertEquals(List.of(), ucx.qualifiedExports(), ucx.text);
        assertTrue(ucx.has("provides io.jshmem.core.transport.TransportProvider with io.jshmem.ucx.UcxTransportProvider"),
                ucx.text);

        Descriptor spawn = describe(dist.resolve("lib/shmem-spawn-" + VERSION + ".jar"), "io.jshmem.spawn");
        assertEquals(List.of("io.jshmem.spawn"), spawn.exports(), spawn.text);
        assertEquals(List.of(), spawn.qualifiedExports(), spawn.text);
        assertFalse(spawn.has("requires io.jshmem.core"), "spawn reaches the runtime through the SPI:\n" + spawn.text);
        assertTrue(spawn.has("uses io.jshmem.spi.SubprocessSupport"), spawn.text);

        Path testJar = jarOf(ShmemTest.class);
        Descriptor test = describe(testJar, "io.jshmem.test");
        assertEquals(List.of("io.jshmem.test"), test.exports(), test.text);
        assertEquals(List.of(), test.qualifiedExports(), test.text);
        assertFalse(test.has("requires io.jshmem.core"), test.text);
    }

    /** A job of 4 PEs whose program is the named module app, on the module path with the distribution's modules. */
    @Test
    void jobOnTheModulePath() throws Exception {
        Run r = inDist(List.of("bin/oshrun", "-np", "4", "--timeout", "120", "-p", mods.toString(), "-m", "app/app.Main"),
                Map.of());
        assertEquals(0, r.status(), r::describe);
        for (int pe = 0; pe < 4; pe++) {
            assertTrue(r.out().contains("PE " + pe + " of 4: module app, runtime io.jshmem.core, sum 10,"
                    + " HeapExhaustedException, internals encapsulated, child marked true"), r::describe);
        }
    }

    /** The same program across the UCX transport (SHMEM_TRANSPORT=ucx): io.jshmem.ucx is found as the runtime's service. */
    @Test
    void jobOnTheModulePathOverUcx() throws Exception {
        Run ldconfig = run(List.of("/sbin/ldconfig", "-p"), tmp, Map.of(), 30);
        assumeTrue(ldconfig.out().contains("libucp.so"), "libucp (libucx0) is not installed");
        Run r = inDist(List.of("bin/oshrun", "-np", "2", "--timeout", "120", "-x", "SHMEM_TRANSPORT=ucx",
                "-p", mods.toString(), "-m", "app/app.Main"), Map.of());
        assertEquals(0, r.status(), r::describe);
        for (int pe = 0; pe < 2; pe++) {
            assertTrue(r.out().contains("PE " + pe + " of 2: module app, runtime io.jshmem.core, sum 3,"), r::describe);
        }
    }

    /** Plain java, one PE, the flag given: works. Without it, init says which flag to add (also when the JDK denies native access). */
    @Test
    void plainJavaNeedsTheNativeAccessFlag() throws Exception {
        String modulePath = dist.resolve("lib") + File.pathSeparator + mods;
        Map<String, String> env = Map.of("HOME", home.toString(), "PATH", "/usr/bin:/bin");
        Run ok = run(List.of(JDK_BIN.resolve("java").toString(), "--module-path", modulePath,
                "--enable-native-access=io.jshmem.core,io.jshmem.ucx,io.jshmem.spawn", "-m", "app/app.Main"), tmp, env, 120);
        assertEquals(0, ok.status(), ok::describe);
        assertTrue(ok.out().contains("PE 0 of 1: module app, runtime io.jshmem.core, sum 1,"), ok::describe);
        assertFalse(ok.err().contains("WARNING"), ok::describe);

        for (List<String> flags : List.of(List.<String>of(), List.of("--illegal-native-access=deny"))) {
            List<String> cmd = new ArrayList<>(List.of(JDK_BIN.resolve("java").toString()));
            cmd.addAll(flags);
            cmd.addAll(List.of("--module-path", modulePath, "-m", "app/app.Main"));
            Run r = run(cmd, tmp, env, 120);
            assertNotEquals(0, r.status(), r::describe);
            assertTrue(r.err().contains("io.jshmem.ShmemException: jshmem's runtime (module io.jshmem.core) calls native code"
                    + " through the FFM API, but the JVM was not started with native access for it: add"
                    + " --enable-native-access=io.jshmem.core,io.jshmem.ucx,io.jshmem.spawn to the java command"), r::describe);
            assertFalse(r.err().contains("IllegalCallerException"), r::describe);
        }
    }

    /** oshrun's usage errors for the module options. */
    @Test
    void modulePathWithoutModuleIsAUsageError() throws Exception {
        Run r = inDist(List.of("bin/oshrun", "-np", "2", "-p", mods.toString(), "app.Main"), Map.of());
        assertEquals(2, r.status(), r::describe);
        assertTrue(r.err().contains("--module-path is for a modular program: give its module with -m module[/class]"),
                r::describe);
    }

    private record Descriptor(String text) {
        List<String> exports() {
            return text.lines().filter(l -> l.startsWith("exports ")).map(l -> l.substring(8).strip()).sorted().toList();
        }

        List<String> qualifiedExports() {
            return text.lines().filter(l -> l.startsWith("qualified exports ")).toList();
        }

        boolean has(String linePrefix) {
            return text.lines().anyMatch(l -> l.startsWith(linePrefix));
        }
    }

    private Descriptor describe(Path jar, String module) throws Exception {
        Run r = run(List.of(JDK_BIN.resolve("jar").toString(), "--describe-module", "--file", jar.toString()), tmp, Map.of(), 60);
        assertEquals(0, r.status(), r::describe);
        assertTrue(r.out().startsWith(module + "@" + VERSION + " "), "not the named module " + module + ": " + r.describe());
        assertFalse(r.out().lines().findFirst().orElse("").contains("automatic"), r::describe);
        return new Descriptor(r.out());
    }

    private static Path jarOf(Class<?> c) throws URISyntaxException {
        Path p = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(p.toString().endsWith(".jar"), c.getName() + " comes from " + p + ", not a jar: run the build's package phase");
        return p;
    }

    /** Runs a command of the unpacked distribution, with a clean environment and an empty home. */
    private Run inDist(List<String> command, Map<String, String> extraEnv) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.putAll(extraEnv);
        List<String> cmd = new ArrayList<>(command);
        cmd.set(0, dist.resolve(cmd.get(0)).toString());
        return run(cmd, tmp, env, 180);
    }
}
