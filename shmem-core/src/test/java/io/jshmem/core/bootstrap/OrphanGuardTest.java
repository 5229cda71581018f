/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.LaunchEnv;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The orphan guard of {@link TcpBootstrap}: a PE (a child JVM running {@link OrphanPeMain}) that loses
 * its launcher before finalizing halts after the grace; one that finalized, or has the guard off,
 * does not. A minimal fake launcher here accepts the PE and then drops the connection.
 */
class OrphanGuardTest {
    private static final long HANG_GUARD_SECONDS = 30;

    private record Outcome(int status, String stderr, long millisAfterDrop) {
    }

    @Test
    void aPeThatLosesItsLauncherHaltsAfterTheGrace() throws Exception {
        Outcome o = run("work", 60_000, 500);
        assertEquals(TcpBootstrap.ORPHAN_STATUS, o.status(), o.stderr());
        // At once, then at the halt. Without JSHMEM_LAUNCHER_PID (a PE on another host) it cannot tell whether oshrun died.
        assertTrue(java.util.regex.Pattern.compile("jshmem: PE 0: lost connection to the launcher \\(127\\.0\\.0\\.1:\\d+\\)"
                + " before finalize; ending this PE\n").matcher(o.stderr()).find(), o.stderr());
        assertTrue(o.stderr().contains("jshmem: PE 0: lost the connection to the launcher at 127.0.0.1:"), o.stderr());
        assertTrue(o.stderr().contains("500 ms ago, before finalize: the job is over; halting"), o.stderr());
        assertTrue(o.millisAfterDrop() >= 400 && o.millisAfterDrop() < 10_000, o.millisAfterDrop() + " ms");
    }

    @Test
    void aPeWhoseLauncherFallsSilentHaltsToo() throws Exception {
        // The launcher's host vanished: no FIN, nothing more from it.
        Outcome o = run("work", 60_000, 500, false, "-D" + TcpBootstrap.LAUNCHER_SILENCE_PROPERTY + "=800");
        assertEquals(TcpBootstrap.ORPHAN_STATUS, o.status(), o.stderr());
        assertTrue(o.stderr().contains("halting"), o.stderr());
        assertTrue(o.millisAfterDrop() >= 1_000 && o.millisAfterDrop() < 10_000, o.millisAfterDrop() + " ms");
    }

    @Test
    void aFinalizedPeIsLeftAlone() throws Exception {
        Outcome o = run("finalize", 1_500, 300);
        assertEquals(0, o.status(), o.stderr());
        assertFalse(o.stderr().contains("halting"), o.stderr());
    }

    @Test
    void graceZeroTurnsTheGuardOff() throws Exception {
        Outcome o = run("work", 1_500, 0);
        assertEquals(0, o.status(), o.stderr());
        assertFalse(o.stderr().contains("halting"), o.stderr());
        assertTrue(o.stderr().contains(" before finalize; the job is over\n"), o.stderr());
    }

    /** Starts the PE, accepts its HELLO, drops the connection once it runs, and waits for its end. */
    private static Outcome run(String mode, long sleepMillis, long graceMillis) throws Exception {
        return run(mode, sleepMillis, graceMillis, true, "-Dunused=1");
    }

    /** As above; {@code drop}: close the connection, else leave it open and say nothing more. */
    private static Outcome run(String mode, long sleepMillis, long graceMillis, boolean drop, String jvmOption)
            throws Exception {
        try (ServerSocket server = new ServerSocket()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            byte[] secret = new byte[BootstrapProtocol.SECRET_BYTES];
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            ProcessBuilder pb = new ProcessBuilder(java, "-D" + TcpBootstrap.ORPHAN_GRACE_PROPERTY + "=" + graceMillis,
                    jvmOption,
                    "-cp", "target/test-classes" + File.pathSeparator + "target/classes", OrphanPeMain.class.getName(),
                    mode, Long.toString(sleepMillis));
            pb.environment().putAll(Map.of(LaunchEnv.JOBID, "orphan1", LaunchEnv.PE, "0", LaunchEnv.NPES, "1",
                    LaunchEnv.NODE, "0", LaunchEnv.LOCAL_PE, "0", LaunchEnv.LOCAL_NPES, "1",
                    LaunchEnv.PROCESS_MAPPING, "(vector,(0,1,1))", LaunchEnv.BOOTSTRAP, "127.0.0.1:" + server.getLocalPort(),
                    LaunchEnv.SECRET, "00".repeat(BootstrapProtocol.SECRET_BYTES)));
            pb.redirectError(ProcessBuilder.Redirect.PIPE);
            Process pe = pb.start();
            try {
                server.setSoTimeout((int) TimeUnit.SECONDS.toMillis(HANG_GUARD_SECONDS));
                Socket s = server.accept();
                long silentSince = 0;
                try {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    assertEquals(BootstrapProtocol.MAGIC, in.readInt());
                    assertEquals(BootstrapProtocol.VERSION, in.readInt());
                    in.readFully(new byte[secret.length]);
                    in.readInt();
                    in.readLong();
                    assertEquals(0, in.readInt(), "generation of a first connection");
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    // The PE's silence clock cannot start before it has this reply.
                    silentSince = System.nanoTime();
                    out.writeByte(BootstrapProtocol.HELLO_OK);
                    out.flush();
                    BufferedReader lines = new BufferedReader(new InputStreamReader(pe.getInputStream(),
                            StandardCharsets.UTF_8));
                    assertEquals("connected", lines.readLine());
                    if (mode.equals("finalize")) {
                        byte type;
                        do {
                            type = in.readByte();
                        } while (type == BootstrapProtocol.HEARTBEAT);
                        assertEquals(BootstrapProtocol.FINALIZED, type);
                    }
                } finally {
                    if (drop) {
                        s.close();
                    }
                }
                // Without a drop the launcher fell silent at its reply, however late the test reads "connected".
                long dropped = drop ? System.nanoTime() : silentSince;
                assertTrue(pe.waitFor(HANG_GUARD_SECONDS, TimeUnit.SECONDS), "the PE hung");
                long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - dropped);
                String stderr = new String(pe.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                s.close();
                return new Outcome(pe.exitValue(), stderr, millis);
            } finally {
                pe.destroyForcibly();
            }
        }
    }
}
