/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.dist;

import static io.jshmem.dist.Run.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The binary distribution, unpacked into a temporary directory, runs jobs from there: no source tree
 * on any class path and an empty home directory (no {@code ~/.m2}). Real processes: tar, bin/oshrun,
 * bin/oshjavac.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DistributionIT {
    private static final String VERSION = Unpacked.VERSION;

    private Path tmp;
    private Path dist;
    private Path home;

    @BeforeAll
    void unpack() throws Exception {
        tmp = Files.createTempDirectory("jshmem-dist-it");
        dist = Unpacked.unpack(tmp);
        home = Files.createDirectories(tmp.resolve("home"));
    }

    @AfterAll
    void removeUnpacked() throws IOException {
        Unpacked.delete(tmp);
    }

    @Test
    void layout() throws IOException {
        for (String f : List.of("bin/oshrun", "bin/shmem-info", "bin/oshjavac", "bin/shmem-report", "bin/jshmem-env.sh")) {
            assertTrue(Files.isExecutable(dist.resolve(f)), f + " is missing or not executable");
        }
        for (String f : List.of("LICENSE", "NOTICE", "README.md", "examples/jshmem-examples.jar",
                "examples/src/io/jshmem/examples/Hello.java", "apps/jshmem-apps.jar",
                "apps/src/io/jshmem/apps/Stencil.java", "starter/pom.xml",
                "starter/src/main/java/com/example/starter/Ring.java", "CHANGELOG.md", "docs/user-guide.md",
                "docs/mapping.md", "docs/settings.md", "docs/launching.md", "docs/design.md", "docs/benchmarks.md")) {
            assertTrue(Files.isRegularFile(dist.resolve(f)), f + " is missing");
        }
        List<String> lib;
        try (Stream<Path> s = Files.list(dist.resolve("lib"))) {
            lib = s.map(p -> p.getFileName().toString()).sorted().toList();
        }
        for (String module : List.of("shmem-api", "shmem-core", "shmem-spawn", "shmem-ucx", "shmem-report")) {
            assertTrue(lib.contains(module + "-" + VERSION + ".jar"), module + " jar missing from lib/: " + lib);
        }
        assertFalse(lib.stream().anyMatch(n -> n.contains("examples") || n.contains("apps") || n.contains("junit")
                        || n.contains("launcher") && !n.equals("launcher")),
                "lib/ holds only the library and its runtime dependencies: " + lib);
        // oshrun's launcher beside them, off the PEs' class path (lib/*.jar).
        assertTrue(Files.isRegularFile(dist.resolve("lib/launcher/shmem-launcher-" + VERSION + ".jar")), "lib/launcher/: " + lib);
        String license = Files.readString(dist.resolve("LICENSE"));
        assertTrue(license.contains("Apache License") && license.contains("Version 2.0, January 2004"));
    }

    /**
     * The repository README's Maven snippet is the starter's pom.xml and its @ShmemTest example the
     * starter's NeighbourTest, verbatim (imports included): so the invoker's build of the starter (with
     * Open MPI's oshrun first on the PATH) builds and runs exactly what the README shows. Both name this
     * version (the build overrides it for the starter's test). The starter's files are the shipped ones.
     */
    @Test
    void readmeSnippetsAreTheStartersFilesOfThisVersion() throws IOException {
        String starter = Files.readString(dist.resolve("starter/pom.xml"));
        assertTrue(starter.contains("<jshmem.version>" + VERSION + "</jshmem.version>"),
                "starter/pom.xml must name jshmem " + VERSION + " in <jshmem.version>");
        String readme = Files.readString(Path.of(System.getProperty("jshmem.repository.root")).resolve("README.md"));
        assertTrue(readme.contains("```xml\n" + starter + "```\n"), "README.md's Maven snippet must be starter/pom.xml verbatim");
        String test = Files.readString(dist.resolve("starter/src/test/java/com/example/starter/NeighbourTest.java"));
        assertTrue(test.contains("import io.jshmem.test.ShmemTest;"), test);
        assertTrue(readme.contains("```java\n" + test + "```\n"),
                "README.md's @ShmemTest snippet must be starter's NeighbourTest.java verbatim");
        // No Gradle build in the README: Gradle cannot be fetched where jshmem is tested (issue 33).
        assertFalse(readme.contains("```kotlin"), "README.md shows a Gradle build that nothing tests");
    }

    /**
     * The tarball's README is the binary users' (what is here, the commands, using the jars), not the
     * repository's (which builds from source); the command it shows first is the one helloRunsAtFourPes
     * runs; its relative links, and the examples' and starter's READMEs', resolve in the unpacked
     * directory (tools/check_links.py of the repository, GitHub's anchor rules).
     */
    @Test
    void shippedReadmeIsForBinaryUsers() throws Exception {
        String readme = Files.readString(dist.resolve("README.md"));
        assertTrue(readme.startsWith("# jshmem binary distribution\n"), "the shipped README.md is the binary users'");
        assertFalse(readme.contains("## Set up: two commands"), "the shipped README.md must not be the repository's");
        for (String s : List.of("bin/oshrun -np 4 -cp examples/jshmem-examples.jar io.jshmem.examples.Hello",
                "bin/shmem-info", "bin/shmem-report", "bin/oshjavac", "lib/", "docs/user-guide.md")) {
            assertTrue(readme.contains(s), "the shipped README.md must mention " + s);
        }
        Path checker = Path.of(System.getProperty("jshmem.repository.root")).resolve("tools/check_links.py");
        Run r = run(List.of("python3", "-B", checker.toString(), "README.md", "examples/README.md", "starter/README.md"),
                dist, Map.of(), 60);
        assertEquals(0, r.status(), r::describe);
    }

    @Test
    void versionIsTheBuilds() throws Exception {
        Run r = inDist(List.of("bin/oshrun", "--version"), Map.of());
        assertEquals(0, r.status(), r::describe);
        assertTrue(r.out().contains("jshmem " + VERSION), r::describe);
    }

    @Test
    void helloRunsAtFourPes() throws Exception {
        Run r = inDist(List.of("bin/oshrun", "-np", "4", "--timeout", "120", "-cp", "examples/jshmem-examples.jar",
                "io.jshmem.examples.Hello"), Map.of());
        assertEquals(0, r.status(), r::describe);
        for (int pe = 0; pe < 4; pe++) {
            assertTrue(r.out().contains("Hello from PE " + pe + " of 4 (jshmem " + VERSION), r::describe);
        }
    }

    /** oshrun --jfr --report and bin/shmem-report find the report tool in lib/. */
    @Test
    void jobReportIsWritten() throws Exception {
        Run r = inDist(List.of("bin/oshrun", "-np", "2", "--timeout", "120", "--jfr", "--jfr-dir", "report-jfr", "--report",
                "-cp", "examples/jshmem-examples.jar", "io.jshmem.examples.Hello"), Map.of());
        assertEquals(0, r.status(), r::describe);
        assertTrue(r.out().contains("shmem-report: " + dist.resolve("report-jfr") + "/"), r::describe);
        List<Path> pages;
        try (Stream<Path> s = Files.list(dist.resolve("report-jfr"))) {
            pages = s.filter(p -> p.toString().endsWith("-report.html")).toList();
        }
        assertEquals(1, pages.size(), r::describe);
        assertTrue(Files.readString(pages.get(0)).contains("\"npes\":2"), "the page's data");
        Run again = inDist(List.of("bin/shmem-report", "-o", "again.html", "report-jfr"), Map.of());
        assertEquals(0, again.status(), again::describe);
        assertTrue(Files.isRegularFile(dist.resolve("again.html")), again::describe);
    }

    @Test
    void userProgramCompiledWithOshjavacRunsAtTwoPes() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("user/src"));
        Files.writeString(src.resolve("Neighbours.java"), """
                import io.jshmem.*;

                public final class Neighbours {
                    public static void main(String[] args) {
                        try (Shmem shmem = Shmem.init()) {
                            int me = shmem.myPe(), n = shmem.nPes();
                            SymLongArray inbox = shmem.calloc(SymType.LONG, 1);
                            shmem.p(inbox, 0, 100L + me, (me + 1) % n);
                            shmem.barrierAll();
                            System.out.println("PE " + me + " got " + inbox.get(0));
                        }
                    }
                }
                """);
        Path classes = tmp.resolve("user/classes");

        Run showme = inDist(List.of("bin/oshjavac", "--showme", "-d", classes.toString(),
                src.resolve("Neighbours.java").toString()), Map.of());
        assertEquals(0, showme.status(), showme::describe);
        assertTrue(showme.out().contains(dist.resolve("lib").toString() + "/shmem-api-" + VERSION + ".jar"), showme::describe);
        assertFalse(showme.out().contains("target/classes"), "the source tree is not used: " + showme.out());

        Run javac = inDist(List.of("bin/oshjavac", "-d", classes.toString(), src.resolve("Neighbours.java").toString()),
                Map.of());
        assertEquals(0, javac.status(), javac::describe);
        assertTrue(Files.isRegularFile(classes.resolve("Neighbours.class")), javac::describe);

        Run job = inDist(List.of("bin/oshrun", "-np", "2", "--timeout", "120", "-cp", classes.toString(), "Neighbours"),
                Map.of());
        assertEquals(0, job.status(), job::describe);
        assertTrue(job.out().contains("PE 0 got 101"), job::describe);
        assertTrue(job.out().contains("PE 1 got 100"), job::describe);
    }

    /** A user jar that bundles an older jshmem than lib/: every PE stops at init naming both versions. */
    @Test
    void userJarBundlingAnotherJshmemIsReported() throws Exception {
        Path src = Files.createDirectories(tmp.resolve("fat/src"));
        Files.writeString(src.resolve("Fat.java"), """
                public final class Fat {
                    public static void main(String[] args) {
                        try (io.jshmem.Shmem shmem = io.jshmem.Shmem.init()) {
                            System.out.println("PE " + shmem.myPe() + " started");
                        }
                    }
                }
                """);
        Path classes = tmp.resolve("fat/classes");
        Run javac = inDist(List.of("bin/oshjavac", "-d", classes.toString(), src.resolve("Fat.java").toString()), Map.of());
        assertEquals(0, javac.status(), javac::describe);
        // The application's jar: its class plus a copy of shmem-api that says it is jshmem 0.0.1.
        Path fat = tmp.resolve("fat/app.jar");
        try (ZipFile api = new ZipFile(dist.resolve("lib/shmem-api-" + VERSION + ".jar").toFile());
             ZipOutputStream out = new ZipOutputStream(Files.newOutputStream(fat))) {
            for (ZipEntry e : java.util.Collections.list(api.entries())) {
                if (e.isDirectory() || e.getName().startsWith("META-INF/") || e.getName().equals("module-info.class")) {
                    continue;
                }
                out.putNextEntry(new ZipEntry(e.getName()));
                if (e.getName().equals("io/jshmem/jshmem-version.properties")) {
                    out.write("version=0.0.1\n".getBytes(StandardCharsets.UTF_8));
                } else {
                    try (var in = api.getInputStream(e)) {
                        in.transferTo(out);
                    }
                }
                out.closeEntry();
            }
            out.putNextEntry(new ZipEntry("Fat.class"));
            out.write(Files.readAllBytes(classes.resolve("Fat.class")));
            out.closeEntry();
        }
        Run r = inDist(List.of("bin/oshrun", "-np", "2", "--timeout", "120", "-cp", fat.toString(), "Fat"), Map.of());
        assertTrue(r.status() != 0, r::describe);
        String all = r.out() + r.err();
        assertTrue(all.contains("jshmem 0.0.1 in " + fat), r::describe);
        assertTrue(all.contains("jshmem " + VERSION + " in " + dist.resolve("lib/shmem-api-" + VERSION + ".jar")), r::describe);
        assertFalse(all.contains("started"), r::describe);
    }

    @Test
    void oshjavacWithoutJdk25SaysHowToGetOne() throws Exception {
        // A "JDK 17" first on the PATH, JAVA_HOME pointing at it, no JDK directory to search.
        Path fakeJdk = Files.createDirectories(tmp.resolve("fake-jdk17/bin"));
        Files.writeString(fakeJdk.getParent().resolve("release"), "JAVA_VERSION=\"17.0.15\"\n");
        Path java = fakeJdk.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"17.0.15\"' >&2\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Map<String, String> env = Map.of("JAVA_HOME", fakeJdk.getParent().toString(),
                "JSHMEM_JVM_DIR", Files.createDirectories(tmp.resolve("no-jdks")).toString(),
                "PATH", fakeJdk + ":/usr/bin:/bin");
        Run r = inDist(List.of("bin/oshjavac", "Foo.java"), env);
        assertEquals(2, r.status(), r::describe);
        List<String> lines = r.err().lines().filter(l -> !l.isBlank()).toList();
        assertEquals(1, lines.size(), r::describe);
        assertTrue(lines.get(0).startsWith("oshjavac: ") && lines.get(0).contains("JDK 25")
                && lines.get(0).contains("JAVA_HOME"), r::describe);
    }

    @Test
    void oshjavacHelp() throws Exception {
        Run r = inDist(List.of("bin/oshjavac", "--help"), Map.of());
        assertEquals(0, r.status(), r::describe);
        assertTrue(r.out().contains("--showme"), r::describe);
    }

    /** Runs a command in the unpacked distribution, with a clean environment and an empty home. */
    private Run inDist(List<String> command, Map<String, String> extraEnv) throws Exception {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        String javaHome = System.getProperty("java.home");
        env.put("JAVA_HOME", javaHome);
        env.putAll(extraEnv);
        List<String> cmd = new ArrayList<>(command);
        cmd.set(0, dist.resolve(cmd.get(0)).toString());
        return run(cmd, dist, env, 180);
    }
}
