/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

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
    void scriptPrintsTheMarkerExportsRunsAndReportsTheExitStatus() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("ODD", "it's $HOME `x` \"q\" \\ \n second line");
        env.put("JSHMEM_SHM_DIR", dir.toString());
        Path segment = dir.resolve("jshmem-job1-3");
        String program = "printf '%s|%s|' \"$ODD\" \"$PWD\"; printf '%s' \"$1\"; : > " + segment + "; exit 7";
        List<String> command = List.of("/bin/sh", "-c", program, "sh", "arg with 'quotes' and spaces");
        Output out = finish(start(script(command, env, dir.toString(), 3)));
        assertEquals(Map.of(3, 7), out.exits());
        // awk ends the unterminated last line
        assertEquals(env.get("ODD") + "|" + dir.toRealPath() + "|" + "arg with 'quotes' and spaces\n", out.of(3));
        assertFalse(Files.exists(segment), "the PE's segment is removed after it ends");
    }

    @Test
    void aMissingWorkingDirectoryFallsBackToRoot() throws Exception {
        Output out = finish(start(script(List.of("/bin/sh", "-c", "pwd"), Map.of(), "/no/such/dir", 0)));
        assertEquals("/\n", out.of(0));
        assertEquals(Map.of(0, 0), out.exits());
    }

    @Test
    void closingTheLifelineTerminatesEveryPeOfTheHost() throws Exception {
        Run run = start("XDG_RUNTIME_DIR=" + dir + "\n" + RemoteCommand.hostScript(
                List.of("/bin/sh", "-c", "echo $$ > " + dir + "/pid$JSHMEM_PE; exec sleep 600"),
                List.of(new RemoteCommand.HostPe(1, Map.of("JSHMEM_PE", "1")), new RemoteCommand.HostPe(2, Map.of("JSHMEM_PE", "2"))),
                "/", "job1", "00".repeat(32), secretDir()));
        long pid1 = awaitPid(dir.resolve("pid1"));
        long pid2 = awaitPid(dir.resolve("pid2"));
        long t0 = System.nanoTime();
        run.stdin.close();
        Output out = finish(run);
        assertEquals(Map.of(1, 128 + 15, 2, 128 + 15), out.exits(), "both killed by SIGTERM");
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5), "SIGTERM comes at once");
        assertFalse(ProcessHandle.of(pid1).map(ProcessHandle::isAlive).orElse(false));
        assertFalse(ProcessHandle.of(pid2).map(ProcessHandle::isAlive).orElse(false));
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.filter(f -> f.getFileName().toString().startsWith("jshmem-secret-")).toList(),
                    "the secret files' directory is removed");
        }
    }

    @Test
    void aPeIgnoringSigtermGetsSigkillAfterTheGrace() throws Exception {
        Path pidFile = dir.resolve("pid");
        Run run = start(script(List.of("/bin/sh", "-c",
                "trap '' TERM; echo $$ > " + pidFile + "; while :; do sleep 0.1; done"), Map.of(), "/", 0));
        long pid = awaitPid(pidFile);
        long t0 = System.nanoTime();
        run.stdin.close();
        Output out = finish(run);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertEquals(Map.of(0, 128 + 9), out.exits(), "killed by SIGKILL");
        assertTrue(millis >= 1_500, "after the grace: " + millis + " ms");
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
    }

    @Test
    void eachPeIsReportedWhenItEndsWhileTheOthersRunOn() throws Exception {
        Path pidFile = dir.resolve("pid");
        Run run = start(RemoteCommand.hostScript(List.of("/bin/sh", "-c",
                        "if [ $JSHMEM_PE = 1 ]; then sleep 0.2; exit 3; fi; echo $$ > " + pidFile + "; exec sleep 600"),
                List.of(new RemoteCommand.HostPe(0, Map.of("JSHMEM_PE", "0")), new RemoteCommand.HostPe(1, Map.of("JSHMEM_PE", "1"))),
                "/", "job1", "00".repeat(32), secretDir()));
        long pid = awaitPid(pidFile);
        java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(run.process.getInputStream(),
                StandardCharsets.UTF_8));
        assertEquals(RemoteCommand.STARTED_MARKER, lines.readLine());
        String line;
        while ((line = lines.readLine()) != null && !line.startsWith(RemoteCommand.EXIT_MARKER)) {
            // PE lines
        }
        assertEquals(RemoteCommand.EXIT_MARKER + " 1 3", line, "PE 1's exit, while PE 0 runs");
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        run.stdin.close();
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(RemoteCommand.EXIT_MARKER + " 0 143", lines.readLine());
    }

    @Test
    void longLinesComeInPiecesThatHostOutputJoins() throws Exception {
        String text = "x".repeat(RemoteCommand.MAX_PIECE * 2 + 10);
        Run run = start(script(List.of("/bin/sh", "-c", "echo " + text + "; echo short"), Map.of(), "/", 4));
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        byte[] bytes = run.process.getInputStream().readAllBytes();
        List<String> lines = new String(bytes, StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.stream().allMatch(l -> l.length() < 4096), "every write under the pipe's atomic size");
        assertEquals(2, lines.stream().filter(l -> l.startsWith("@4+ ")).count(), String.join("\n", lines));
        java.io.ByteArrayOutputStream pe = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream other = new java.io.ByteArrayOutputStream();
        int[] exit = {-1};
        HostOutput demux = new HostOutput(List.of(4), q -> new OutputPump.Sink() {
            @Override
            public void bytes(byte[] buffer, int offset, int length) {
                pe.write(buffer, offset, length);
            }

            @Override
            public void end() {
            }
        }, new java.io.PrintStream(other), new HostOutput.Control() {
            @Override
            public void started() {
                exit[0] = 0;
            }

            @Override
            public void exited(int q, int status) {
                exit[0] = 100 + q + status;
            }
        });
        demux.bytes(bytes, 0, bytes.length);
        demux.end();
        assertEquals(text + "\nshort\n", pe.toString(StandardCharsets.UTF_8));
        assertEquals("", other.toString(StandardCharsets.UTF_8));
        assertEquals(104, exit[0]);
        run.stdin.close();
    }

    @Test
    void theSecretReachesThePeInAPrivateFileThatIsRemovedNeverInItsEnvironment() throws Exception {
        String hex = "0123456789abcdef".repeat(4);
        Map<String, String> env = Map.of("XDG_RUNTIME_DIR", dir.toString(), "JSHMEM_JFR", "default",
                "JSHMEM_JFR_DIR", dir.resolve("rec/pe").toString());
        String program = "f=$JSHMEM_SECRET_FILE; d=${f%/*}; echo \"$f\"; stat -c %a \"$d\" \"$f\"; cat \"$f\";"
                + " umask; env | grep -c " + hex + "; rm \"$f\"; stat -c %a \"$JSHMEM_JFR_DIR\"";
        // XDG_RUNTIME_DIR is the agent's own environment on the host, not exported by the script.
        Output out = finish(start("XDG_RUNTIME_DIR=" + dir + "\n" + RemoteCommand.hostScript(List.of("/bin/sh", "-c", program),
                List.of(new RemoteCommand.HostPe(5, env)), "/", "job1", hex, "jshmem-secret-t")));
        Path file = dir.resolve("jshmem-secret-t/secret-5");
        assertEquals(String.join("\n", file.toString(), "700", "600", hex, umask(), "0", "700") + "\n", out.of(5),
                "the file and its directory are private, the PE keeps its umask, the secret is in no variable;"
                        + " with --jfr the recordings' directory (JFR's repository) is made private before the PE starts");
        assertFalse(Files.exists(file.getParent()), "the script removes the directory after the PEs end");
        // A directory already there (made by someone else?) is not used: no PE starts.
        Files.createDirectory(file.getParent());
        Run refused = start("XDG_RUNTIME_DIR=" + dir + "\n" + RemoteCommand.hostScript(List.of("/bin/sh", "-c", "echo ran"),
                List.of(new RemoteCommand.HostPe(5, env)), "/", "job1", hex, "jshmem-secret-t"));
        assertTrue(refused.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertEquals(1, refused.process.exitValue());
        assertEquals(RemoteCommand.STARTED_MARKER + "\n",
                new String(refused.process.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(Files.isDirectory(file.getParent()), "not removed: it is not the script's");
    }

    /** What a host script printed: each PE's output (prefixes removed) and exit reports. */
    private record Output(Map<Integer, StringBuilder> pes, Map<Integer, Integer> exits) {
        String of(int pe) {
            return pes.getOrDefault(pe, new StringBuilder()).toString();
        }
    }

    /** Waits for the script to end (status 0: it reports the PEs' statuses), and takes its output apart. */
    private static Output finish(Run run) throws Exception {
        assertTrue(run.process.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        List<String> lines = new String(run.process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(0, run.process.exitValue(), String.join("\n", lines));
        assertEquals(RemoteCommand.STARTED_MARKER, lines.get(0));
        Map<Integer, StringBuilder> pes = new java.util.TreeMap<>();
        Map<Integer, Integer> exits = new java.util.TreeMap<>();
        for (String line : lines.subList(1, lines.size())) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("@(\\d+)(\\+?) (.*)", java.util.regex.Pattern.DOTALL)
                    .matcher(line);
            if (m.matches()) {
                pes.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new StringBuilder()).append(m.group(3))
                        .append(m.group(2).isEmpty() ? "\n" : "");
            } else if (line.startsWith(RemoteCommand.EXIT_MARKER + " ")) {
                String[] w = line.split(" ");
                exits.put(Integer.parseInt(w[1]), Integer.parseInt(w[2]));
            } else {
                throw new AssertionError("unexpected line: " + line);
            }
        }
        run.stdin.close();
        return new Output(pes, exits);
    }

    /** The umask a shell started by this JVM has, as {@code umask} prints it. */
    private static String umask() throws Exception {
        Process p = new ProcessBuilder("/bin/sh", "-c", "umask").start();
        String mask = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return mask;
    }

    /** The host script for one PE {@code pe} of job "job1", with a secret of zeros whose directory the tests do not look at. */
    private static String script(List<String> command, Map<String, String> env, String workDir, int pe) {
        return RemoteCommand.hostScript(command, List.of(new RemoteCommand.HostPe(pe, env)), workDir, "job1",
                "00".repeat(32), secretDir());
    }

    private static String secretDir() {
        return "jshmem-secret-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
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
