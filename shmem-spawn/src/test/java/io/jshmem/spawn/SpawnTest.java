/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.spawn.Spawn.Mechanism;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link Spawn} in this JVM, through both mechanisms: ProcessBuilder (posix_spawn of jspawnhelper)
 * and posix_spawnp through FFM. The PE-related parts (identity stripped, child refused) are tested
 * in real jobs by the conformance module (io.jshmem.conformance.spawn).
 */
class SpawnTest {
    @TempDir
    Path dir;

    private static String read(java.io.InputStream in) throws IOException {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(value = Mechanism.class, names = {"PROCESS_BUILDER", "POSIX_SPAWN"})
    void pipesAndExitStatus(Mechanism m) throws Exception {
        try (Subprocess p = Spawn.command("sh", "-c", "echo out:$(cat); echo err >&2; exit 7").mechanism(m).start()) {
            assertTrue(p.pid() > 0);
            p.stdin().write("in".getBytes(StandardCharsets.UTF_8));
            p.stdin().close();
            assertEquals("out:in\n", read(p.stdout()));
            assertEquals("err\n", read(p.stderr()));
            assertEquals(7, p.waitFor());
            assertEquals(7, p.exitValue());
            assertEquals(7, p.exitStatus().orElseThrow());
            assertFalse(p.isAlive());
            assertEquals(m == Mechanism.POSIX_SPAWN ? "posix_spawnp (FFM)"
                    : "ProcessBuilder (launch mechanism POSIX_SPAWN: posix_spawn of jspawnhelper)", p.mechanism());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Mechanism.class, names = {"PROCESS_BUILDER", "POSIX_SPAWN"})
    void mergedErrorStream(Mechanism m) throws Exception {
        try (Subprocess p = Spawn.command("sh", "-c", "echo a; echo b >&2").stdin(Redirect.INHERIT)
                .redirectErrorStream(true).mechanism(m).start()) {
            assertEquals("a\nb\n", read(p.stdout()));
            assertThrows(IllegalStateException.class, p::stderr);
            assertEquals(0, p.waitFor());
        }
    }

    @ParameterizedTest
    @EnumSource(value = Mechanism.class, names = {"PROCESS_BUILDER", "POSIX_SPAWN"})
    void filesAndInherit(Mechanism m) throws Exception {
        Path in = Files.writeString(dir.resolve("in.txt"), "from a file\n");
        Path out = dir.resolve("out.txt");
        Path log = Files.writeString(dir.resolve("log.txt"), "first\n");
        Subprocess p = Spawn.command("sh", "-c", "cat; echo appended >&2").mechanism(m)
                .stdin(Redirect.from(in.toFile())).stdout(Redirect.to(out.toFile())).stderr(Redirect.appendTo(log.toFile())).start();
        assertEquals(0, p.waitFor());
        assertEquals("from a file\n", Files.readString(out));
        assertEquals("first\nappended\n", Files.readString(log));
        assertThrows(IllegalStateException.class, p::stdin);
        assertThrows(IllegalStateException.class, p::stdout);
        assertThrows(IllegalStateException.class, p::stderr);
        // Truncated when written again; DISCARD and INHERIT work.
        assertEquals(0, Spawn.command("echo", "x").mechanism(m).stdin(Redirect.INHERIT).stdout(Redirect.to(out.toFile()))
                .start().waitFor());
        assertEquals("x\n", Files.readString(out));
        assertEquals(0, Spawn.command("echo", "discarded").mechanism(m).stdout(Redirect.DISCARD).inheritIO()
                .stdout(Redirect.DISCARD).start().waitFor());
    }

    @ParameterizedTest
    @EnumSource(value = Mechanism.class, names = {"PROCESS_BUILDER", "POSIX_SPAWN"})
    void environmentAndDirectory(Mechanism m) throws Exception {
        Spawn s = Spawn.command("sh", "-c", "echo $GREETING; pwd; echo ${HOME+home-set}").mechanism(m).directory(dir)
                .env("GREETING", "hi there");
        s.environment().remove("HOME");
        try (Subprocess p = s.start()) {
            assertEquals("hi there\n" + dir.toRealPath() + "\n\n", read(p.stdout()));
            assertEquals(0, p.waitFor());
        }
        // This test JVM is no PE: nothing to strip, no marker.
        try (Subprocess p = Spawn.command("env").mechanism(m).start()) {
            String env = read(p.stdout());
            assertFalse(env.contains("JSHMEM_SPAWNED_BY="), env);
            assertTrue(env.contains("PATH="), env);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Mechanism.class, names = {"PROCESS_BUILDER", "POSIX_SPAWN"})
    void startingFailuresNameTheCommand(Mechanism m) throws Exception {
        SpawnException notFound = assertThrows(SpawnException.class, () -> Spawn.command("no-such-command-xyz", "a").mechanism(m).start());
        assertTrue(notFound.getMessage().startsWith("spawn: cannot spawn no-such-command-xyz a: command \"no-such-command-xyz\" not found on PATH ("),
                notFound.getMessage());
        assertTrue(notFound.getCause() instanceof IOException);
        SpawnException noFile = assertThrows(SpawnException.class, () -> Spawn.command(dir + "/missing").mechanism(m).start());
        assertTrue(noFile.getMessage().endsWith("no such file: " + dir + "/missing"), noFile.getMessage());
        Path notExec = Files.writeString(dir.resolve("script"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(notExec, PosixFilePermissions.fromString("rw-------"));
        SpawnException denied = assertThrows(SpawnException.class, () -> Spawn.command(notExec.toString()).mechanism(m).start());
        assertTrue(denied.getMessage().endsWith(notExec + " is not executable (permission denied)"), denied.getMessage());
        SpawnException badDir = assertThrows(SpawnException.class,
                () -> Spawn.command("true").directory(dir.resolve("nope")).mechanism(m).start());
        assertTrue(badDir.getMessage().contains("working directory " + dir.resolve("nope") + " does not exist"), badDir.getMessage());
        SpawnException badIn = assertThrows(SpawnException.class,
                () -> Spawn.command("cat").stdin(Redirect.from(dir.resolve("absent").toFile())).mechanism(m).start());
        assertTrue(badIn.getMessage().contains("stdin file"), badIn.getMessage());
        assertNoZombies();
    }

    @ParameterizedTest
    @EnumSource(value = Mechanism.class, names = {"PROCESS_BUILDER", "POSIX_SPAWN"})
    void destroyWaitAndReap(Mechanism m) throws Exception {
        Subprocess term = Spawn.command("sleep", "60").mechanism(m).start();
        assertTrue(term.isAlive());
        assertTrue(term.exitStatus().isEmpty());
        assertThrows(IllegalStateException.class, term::exitValue);
        assertFalse(term.waitFor(10, TimeUnit.MILLISECONDS));
        term.destroy();
        assertEquals(128 + 15, term.waitFor());
        term.destroy(); // after exit: nothing happens
        Subprocess kill = Spawn.command("sleep", "60").mechanism(m).start();
        kill.destroyForcibly();
        assertTrue(kill.waitFor(60, TimeUnit.SECONDS));
        assertEquals(128 + 9, kill.exitValue());
        assertEquals(kill, kill.onExit().get());
        // Nobody waits for these: they are reaped anyway.
        List<Subprocess> unwaited = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            unwaited.add(Spawn.command("true").mechanism(m).stdin(Redirect.INHERIT).stdout(Redirect.DISCARD)
                    .stderr(Redirect.DISCARD).start());
        }
        for (Subprocess p : unwaited) {
            p.process().onExit().get(60, TimeUnit.SECONDS);
        }
        assertNoZombies();
    }

    @ParameterizedTest
    @EnumSource(value = Mechanism.class, names = {"PROCESS_BUILDER", "POSIX_SPAWN"})
    void onlyStandardDescriptorsReachTheChild(Mechanism m) throws Exception {
        try (OutputStream held = Files.newOutputStream(dir.resolve("held")); // a descriptor open in this JVM
             Subprocess p = Spawn.command("ls", "/proc/self/fd").mechanism(m).start()) {
            held.write(1);
            Set<String> fds = new TreeSet<>(List.of(read(p.stdout()).split("\\s+")));
            p.waitFor();
            fds.remove("3"); // ls's own directory handle
            assertEquals(Set.of("0", "1", "2"), fds);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Mechanism.class, names = {"PROCESS_BUILDER", "POSIX_SPAWN"})
    void closeWaits(Mechanism m) throws Exception {
        Subprocess p;
        try (Subprocess q = Spawn.command("sh", "-c", "exit 4").mechanism(m).start()) {
            p = q;
        }
        assertFalse(p.isAlive());
        assertEquals(4, p.exitValue());
    }

    @Test
    void manyThreadsBothMechanisms() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                int n = i;
                results.add(pool.submit(() -> {
                    try (Subprocess p = Spawn.command("echo", "n" + n).stdin(Redirect.INHERIT)
                            .mechanism(n % 2 == 0 ? Mechanism.POSIX_SPAWN : Mechanism.PROCESS_BUILDER).start()) {
                        String out = read(p.stdout()).strip();
                        return p.waitFor() + " " + out;
                    }
                }));
            }
            for (int i = 0; i < results.size(); i++) {
                assertEquals("0 n" + i, results.get(i).get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        assertNoZombies();
    }

    @Test
    void builderChecks() {
        assertThrows(IllegalArgumentException.class, () -> Spawn.command(new String[0]));
        assertThrows(IllegalArgumentException.class, () -> Spawn.command("cat").stdin(Redirect.to(new File("x"))));
        assertThrows(IllegalArgumentException.class, () -> Spawn.command("cat").stdout(Redirect.from(new File("x"))));
        assertThrows(IllegalArgumentException.class, () -> Spawn.command("cat").stderr(Redirect.from(new File("x"))));
        assertEquals(List.of("ls", "-l", "/"), Spawn.command("ls").arguments("-l", "/").command());
        assertEquals(Mechanism.PROCESS_BUILDER, Spawn.defaultMechanism(), "this JVM uses POSIX_SPAWN");
    }

    /** A JVM started with -Djdk.lang.Process.launchMechanism=FORK: Spawn switches to posix_spawnp, and refuses ProcessBuilder when fork is unsafe. */
    @Test
    void forkingJvm() throws Exception {
        Path ib = Files.createDirectories(dir.resolve("fake-infiniband").resolve("mlx5_0")).getParent();
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Djdk.lang.Process.launchMechanism=FORK",
                "-Djshmem.forksafety.simulate=kernel=5.4.0,infiniband=" + ib + ",ibverbs=disabled,transport=ucx",
                "-cp", testClassPath(), ForkingJvmMain.class.getName());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("UCX_IB_FORK_INIT", "no");
        Process p = pb.start();
        String out = read(p.getInputStream());
        assertEquals(0, p.waitFor(), out);
        assertTrue(out.contains("default POSIX_SPAWN\n"), out);
        assertTrue(out.contains("auto posix_spawnp (FFM) hello\n"), out);
        assertTrue(out.contains("refused PROCESS_BUILDER: spawn: the JVM's launch mechanism is FORK, so ProcessBuilder would fork this process, and fork is not safe here"), out);
        // Fork safe (no simulation): ProcessBuilder is allowed, and really forks.
        List<String> safeCmd = new ArrayList<>(cmd);
        safeCmd.removeIf(s -> s.startsWith("-Djshmem.forksafety.simulate"));
        Process q = new ProcessBuilder(safeCmd).redirectErrorStream(true).start();
        String safeOut = read(q.getInputStream());
        assertEquals(0, q.waitFor(), safeOut);
        assertTrue(safeOut.contains("forced ProcessBuilder (launch mechanism FORK) hello\n"), safeOut);
    }

    /** The test class path as Maven gives it (surefire's property; java.class.path is its booter jar, which also works). */
    static String testClassPath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    /** No child of this JVM is a zombie. */
    static void assertNoZombies() throws IOException {
        long me = ProcessHandle.current().pid();
        List<String> zombies = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
                String stat;
                try {
                    stat = Files.readString(p.resolve("stat"));
                } catch (IOException e) {
                    continue;
                }
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                if (Long.parseLong(f[1]) == me && f[0].equals("Z")) {
                    zombies.add(stat);
                }
            }
        }
        assertEquals(List.of(), zombies);
    }
}
