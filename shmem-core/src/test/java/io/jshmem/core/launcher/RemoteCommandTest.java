/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The remote start script, run by a local {@code /bin/sh -s} as an agent would run it on a host. */
class RemoteCommandTest {
    private static final long HANG_GUARD_SECONDS = 20;

    @TempDir
    Path dir;

    @Test
    void agentCommandRunsAShellReadingStandardInput() {
        assertEquals(List.of("docker", "exec", "-i", "c1", "/bin/sh", "-s"),
                RemoteCommand.agentCommand(List.of("docker", "exec", "-i"), "c1"));
        assertEquals(List.of("ssh", "node2", "/bin/sh", "-s"), RemoteCommand.agentCommand(List.of("ssh"), "node2"));
    }

    @Test
    void environmentForwardsJshmemSettingsThenExportsThenJobVariables() {
        Map<String, String> launcher = Map.of("SHMEM_SYMMETRIC_SIZE", "1G", "JSHMEM_SHM_DIR", "/x", "JSHMEM_PE", "9",
                "JSHMEM_JAVA_OPTS", "-Xmx1g", "HOME", "/root", "UCX_TLS", "rc", "SHMEM_DEBUG", "1");
        Map<String, String> env = RemoteCommand.environment(launcher, Map.of("SHMEM_DEBUG", "0", "FOO", "bar"),
                Map.of("JSHMEM_PE", "3"));
        assertEquals(Map.of("SHMEM_SYMMETRIC_SIZE", "1G", "JSHMEM_SHM_DIR", "/x", "SHMEM_DEBUG", "0", "FOO", "bar",
                "JSHMEM_PE", "3"), env);
    }

    @Test
    void quotingSurvivesAnyCharacter() {
        assertEquals("'a'\\''b'", RemoteCommand.quote("a'b"));
    }

    @Test
    void scriptPrintsTheMarkerExportsRunsAndPassesTheExitStatusOn() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ODD", "it's $HOME `x` \"q\" \\ \n second line");
        env.put("JSHMEM_SHM_DIR", dir.toString());
        Path segment = dir.resolve("jshmem-job1-3");
        String program = "printf '%s|%s|' \"$ODD\" \"$PWD\"; printf '%s' \"$1\"; : > " + segment + "; exit 7";
        List<String> command = List.of("/bin/sh", "-c", program, "sh", "arg with 'quotes' and spaces");
        Run run = start(script(command, env, dir.toString(), "jshmem-job1-3"));
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(7, run.process.exitValue());
        String out = new String(run.process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(RemoteCommand.STARTED_MARKER + "\n" + env.get("ODD") + "|" + dir.toRealPath() + "|"
                + "arg with 'quotes' and spaces", out);
        assertFalse(Files.exists(segment), "the PE's segment is removed after it ends");
    }

    @Test
    void aMissingWorkingDirectoryFallsBackToRoot() throws Exception {
        Run run = start(script(List.of("/bin/sh", "-c", "pwd"), Map.of(), "/no/such/dir", "seg"));
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(RemoteCommand.STARTED_MARKER + "\n/\n",
                new String(run.process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(0, run.process.exitValue());
    }

    @Test
    void closingTheLifelineTerminatesThePe() throws Exception {
        Path pidFile = dir.resolve("pid");
        Run run = start(script(List.of("/bin/sh", "-c", "echo $$ > " + pidFile + "; exec sleep 600"),
                Map.of(), "/", "seg"));
        long pid = awaitPid(pidFile);
        long t0 = System.nanoTime();
        run.stdin.close();
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(128 + 15, run.process.exitValue(), "killed by SIGTERM");
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(2), "SIGTERM comes at once");
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    @Test
    void aPeIgnoringSigtermGetsSigkillAfterTheGrace() throws Exception {
        Path pidFile = dir.resolve("pid");
        Run run = start(script(List.of("/bin/sh", "-c",
                "trap '' TERM; echo $$ > " + pidFile + "; while :; do sleep 0.1; done"), Map.of(), "/", "seg"));
        long pid = awaitPid(pidFile);
        long t0 = System.nanoTime();
        run.stdin.close();
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertEquals(128 + 9, run.process.exitValue(), "killed by SIGKILL");
        assertTrue(millis >= 1_500 && millis < 6_000, "after the grace: " + millis + " ms");
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    @Test
    void thePeEndingByItselfEndsTheScriptAtOnce() throws Exception {
        Run run = start(script(List.of("/bin/sh", "-c", "sleep 0.2; exit 3"), Map.of(), "/", "seg"));
        long t0 = System.nanoTime();
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(3, run.process.exitValue());
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(2), "the watchdog does not hold the script");
        run.stdin.close();
    }

    @Test
    void theSecretReachesThePeInAPrivateFileThatIsRemovedNeverInItsEnvironment() throws Exception {
        String hex = "0123456789abcdef".repeat(4);
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", dir.toString(), "JSHMEM_JFR", "default",
                "JSHMEM_JFR_DIR", dir.resolve("rec/pe").toString());
        String program = "f=$JSHMEM_SECRET_FILE; d=${f%/*}; echo \"$f\"; stat -c %a \"$d\" \"$f\"; cat \"$f\";"
                + " umask; env | grep -c " + hex + "; rm \"$f\"; stat -c %a \"$JSHMEM_JFR_DIR\"";
        Run run = start(RemoteCommand.script(List.of("/bin/sh", "-c", program), env, "/", "seg", hex, "jshmem-secret-t"));
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        List<String> lines = new String(run.process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        Path file = dir.resolve("jshmem-secret-t/secret");
        assertEquals(List.of(RemoteCommand.STARTED_MARKER, file.toString(), "700", "600", hex, umask(), "0", "700"), lines,
                "the file and its directory are private, the PE keeps its umask, the secret is in no variable;"
                        + " with --jfr the recordings' directory (JFR's repository) is made private before the PE starts");
        assertFalse(Files.exists(file.getParent()), "the script removes the directory after the PE ends");
        // A directory already there (made by someone else?) is not used: the PE does not start.
        Files.createDirectory(file.getParent());
        Run refused = start(RemoteCommand.script(List.of("/bin/sh", "-c", "echo ran"), env, "/", "seg", hex,
                "jshmem-secret-t"));
        assertTrue(refused.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, refused.process.exitValue());
        assertEquals(RemoteCommand.STARTED_MARKER + "\n",
                new String(refused.process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(Files.isDirectory(file.getParent()), "not removed: it is not the script's");
    }

    /** The umask a shell started by this JVM has, as {@code umask} prints it. */
    private static String umask() throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", "umask").start();
        String mask = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return mask;
    }

    /** The script with a secret of zeros whose directory the tests do not look at. */
    private static String script(List<String> command, Map<String, String> env, String workDir, String segment) {
        return RemoteCommand.script(command, env, workDir, segment, "00".repeat(32),
                "jshmem-secret-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime());
    }

    private record Run(Process process, OutputStream stdin) {
    }

    /** As an agent would: {@code /bin/sh -s}, the script on standard input, which then stays open. */
    private static Run start(String script) throws IOException {
        Process p = new ProcessBuilder("/bin/sh", "-s").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        OutputStream stdin = p.getOutputStream();
        stdin.write(script.getBytes(StandardCharsets.UTF_8));
        stdin.flush();
        return new Run(p, stdin);
    }

    private static long awaitPid(Path file) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
        while (System.nanoTime() < deadline) {
            if (Files.exists(file)) {
                String text = Files.readString(file).strip();
                if (!text.isEmpty()) {
                    return Long.parseLong(text);
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the PE did not start");
    }
}
