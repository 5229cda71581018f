/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.LaunchEnv;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link TcpBootstrap#fromEnvironment}'s checks; the protocol itself is tested with the launcher's server. */
class TcpBootstrapTest {
    private static Map<String, String> validEnv() {
        Map<String, String> env = new HashMap<>();
        env.put(LaunchEnv.JOBID, "abc123def456");
        env.put(LaunchEnv.PE, "1");
        env.put(LaunchEnv.NPES, "4");
        env.put(LaunchEnv.NODE, "0");
        env.put(LaunchEnv.LOCAL_PE, "1");
        env.put(LaunchEnv.LOCAL_NPES, "4");
        env.put(LaunchEnv.PROCESS_MAPPING, "(vector,(0,1,4))");
        env.put(LaunchEnv.BOOTSTRAP, "127.0.0.1:1");
        env.put(LaunchEnv.SECRET, "ab".repeat(BootstrapProtocol.SECRET_BYTES));
        return env;
    }

    private static String failure(Map<String, String> env) {
        return assertThrows(IllegalStateException.class, () -> TcpBootstrap.fromEnvironment(env)).getMessage();
    }

    @Test
    void notStartedByOshrunMeansNoBootstrap() {
        assertNull(TcpBootstrap.fromEnvironment(Map.of()));
        assertNull(TcpBootstrap.fromEnvironment(Map.of(LaunchEnv.PE, "0", LaunchEnv.NPES, "2")));
    }

    @Test
    void partialEnvironmentIsRejected() {
        for (String name : LaunchEnv.JOB_VARIABLES) {
            // JSHMEM_LAUNCHER_PID is the launcher's, but optional (PEs on other hosts have none).
            // JSHMEM_SECRET_FILE: the environment has JSHMEM_SECRET instead (accepted for hand-made launches).
            if (!name.equals(LaunchEnv.BOOTSTRAP) && !name.equals(LaunchEnv.LAUNCHER_PID)
                    && !name.equals(LaunchEnv.SECRET_FILE)) {
                Map<String, String> env = validEnv();
                env.remove(name);
                String message = failure(env);
                assertTrue(message.contains("incomplete") && message.contains(name), message);
            }
        }
    }

    @Test
    void garbledEnvironmentIsRejected() {
        assertGarbled(LaunchEnv.PE, "x");
        assertGarbled(LaunchEnv.PE, "4");       // not below NPES
        assertGarbled(LaunchEnv.NPES, "0");
        assertGarbled(LaunchEnv.LOCAL_PE, "-1");
        assertGarbled(LaunchEnv.PROCESS_MAPPING, "(vector,(0,2,2))"); // 2 PEs on its node, LOCAL_NPES says 4
        assertGarbled(LaunchEnv.PROCESS_MAPPING, "0,0,0,0");
        assertGarbled(LaunchEnv.BOOTSTRAP, "localhost");
        assertGarbled(LaunchEnv.BOOTSTRAP, "localhost:99999");
        assertGarbled(LaunchEnv.JOBID, "../etc");
        // The secret is named, never shown: a garbled one may be the secret with a typo.
        Map<String, String> env = validEnv();
        env.put(LaunchEnv.SECRET, "ab".repeat(BootstrapProtocol.SECRET_BYTES - 1) + "zz");
        String message = failure(env);
        assertTrue(message.contains("garbled") && message.contains(LaunchEnv.SECRET) && !message.contains("abab"), message);
    }

    @Test
    void theSecretFileIsReadOnceThenRemovedAndRemembered(@TempDir Path base) throws Exception {
        byte[] secret = new byte[BootstrapProtocol.SECRET_BYTES];
        Arrays.fill(secret, (byte) 0xcd);
        JobSecret.Handover handover = JobSecret.handOver(secret, "job1", Map.of("XDG_RUNTIME_DIR", base.toString()),
                List.of(0, 1));
        Path file0 = handover.fileFor(0);
        Path dir = file0.getParent();
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file0)));
        assertTrue(dir.getFileName().toString().startsWith("jshmem-secret-job1-") && dir.getParent().equals(base), dir.toString());
        Map<String, String> env = validEnv();
        env.remove(LaunchEnv.SECRET);
        env.put(LaunchEnv.SECRET_FILE, file0.toString());
        assertArrayEquals(secret, JobSecret.of(env));
        assertFalse(Files.exists(file0), "the PE deletes its file once read");
        assertTrue(Files.exists(handover.fileFor(1)), "not another PE's");
        assertArrayEquals(secret, JobSecret.of(env), "a re-initialization gets it from memory");
        // The file wins over the variable; the last PE to read its file removes the directory.
        env.put(LaunchEnv.SECRET, "ab".repeat(BootstrapProtocol.SECRET_BYTES));
        env.put(LaunchEnv.SECRET_FILE, handover.fileFor(1).toString());
        assertArrayEquals(secret, JobSecret.of(env));
        assertFalse(Files.exists(dir), "the last PE removes the directory");
        handover.close(); // and oshrun's removal at the end finds nothing to do
        // A missing file is an error that says why.
        env.put(LaunchEnv.SECRET_FILE, base.resolve("never-written").toString());
        String message = assertThrows(IllegalStateException.class, () -> JobSecret.of(env)).getMessage();
        assertTrue(message.contains("does not exist") && message.contains(LaunchEnv.SECRET_FILE), message);
    }

    /** The hand-over directory's own maker: a new directory of mode 0700 each time, under a random name. */
    @Test
    void privateDirectoriesAreNewPrivateAndRandomlyNamed(@TempDir Path base) throws Exception {
        Path a = JobSecret.createPrivateDirectory(base, "jshmem-secret-job2-");
        Path b = JobSecret.createPrivateDirectory(base, "jshmem-secret-job2-");
        assertNotEquals(a, b);
        for (Path dir : List.of(a, b)) {
            assertTrue(Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS) && dir.getParent().equals(base), dir.toString());
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
            assertTrue(dir.getFileName().toString().matches("jshmem-secret-job2-[0-9a-f]{16}"), dir.toString());
        }
        assertEquals(2, JobSecret.randomBytes(2).length);
    }

    private static void assertGarbled(String name, String value) {
        Map<String, String> env = validEnv();
        env.put(name, value);
        String message = failure(env);
        assertTrue(message.contains("garbled") && message.contains(name + "=\"" + value + "\""), message);
    }

    private static final TcpBootstrap.Identity ME = new TcpBootstrap.Identity("abc123def456", 0, 1, "0", 0, 1);

    /** Nothing listens: "refused", retried only briefly, and the message says nothing listens there. */
    @Test
    void aRefusedConnectionIsReportedAsSuch() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
        String message = assertThrows(IllegalStateException.class, () -> TcpBootstrap.connect(address,
                new byte[BootstrapProtocol.SECRET_BYTES], ME, 0, 60_000, 30_000)).getMessage();
        assertTrue(message.contains("connection refused, nothing listens there") && message.contains("--bootstrap-address"),
                message);
    }

    /** A server that accepts and drops every connection (as a flooded launcher may): "busy", retried, then reported. */
    @Test
    void aLauncherThatDropsConnectionsIsReportedBusy() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread dropper = Thread.ofPlatform().daemon().start(() -> {
                while (!s.isClosed()) {
                    try (Socket c = s.accept()) {
                        // closed at once
                    } catch (java.io.IOException e) {
                        return;
                    }
                }
            });
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
            String message = assertThrows(IllegalStateException.class, () -> TcpBootstrap.connect(address,
                    new byte[BootstrapProtocol.SECRET_BYTES], ME, 0, 1_000, 30_000)).getMessage();
            assertTrue(message.contains("the launcher is busy") && message.contains("accepted but dropped")
                    && message.contains("flooding"), message);
            assertTrue(!message.contains("1 attempt in"), "not retried: " + message);
            s.close();
            dropper.join();
        }
    }

    /**
     * A lookup whose answer never comes ends when the launcher's abort notice does, with the reason;
     * so do the lookups of other threads waiting at the same time.
     */
    @Test
    void lookupsInFlightEndWithTheAbortNotice() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            java.util.concurrent.CompletableFuture<Void> launcher = java.util.concurrent.CompletableFuture.runAsync(() -> {
                try (Socket c = s.accept()) {
                    java.io.DataInputStream in = new java.io.DataInputStream(c.getInputStream());
                    java.io.DataOutputStream out = new java.io.DataOutputStream(c.getOutputStream());
                    in.readFully(new byte[4 + 4 + BootstrapProtocol.SECRET_BYTES + 4 + 8 + 4]); // HELLO
                    out.writeByte(BootstrapProtocol.HELLO_OK);
                    out.flush();
                    for (int gets = 0; gets < 2; ) { // two GETs, left unanswered (heartbeats aside)
                        byte type = in.readByte();
                        if (type == BootstrapProtocol.HEARTBEAT) {
                            continue;
                        }
                        assertEquals(BootstrapProtocol.GET, type);
                        in.readInt();
                        in.readUTF();
                        gets++;
                    }
                    out.writeByte(BootstrapProtocol.ABORT_NOTICE);
                    out.writeUTF("PE 3 was killed by signal 9 (SIGKILL) before finalize");
                    out.flush();
                    in.read(); // until the client closes
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), s.getLocalPort());
            TcpBootstrap pe = TcpBootstrap.connect(address, new byte[BootstrapProtocol.SECRET_BYTES], ME, 0, 5_000, 30_000);
            try {
                List<java.util.concurrent.CompletableFuture<String>> lookups = List.of(1, 2).stream()
                        .map(k -> java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                            try {
                                pe.get("ucx.addr." + k);
                                return "answered";
                            } catch (IllegalStateException e) {
                                return e.getMessage();
                            }
                        }, Thread::startVirtualThread)).toList(); // both waiting at once
                for (var l : lookups) {
                    String outcome = l.get(20, java.util.concurrent.TimeUnit.SECONDS);
                    assertTrue(outcome.contains("job is ending: PE 3 was killed"), outcome);
                }
                String after = assertThrows(IllegalStateException.class, () -> pe.get("ucx.addr.3")).getMessage();
                assertTrue(after.contains("job is ending"), after);
            } finally {
                pe.close();
            }
            launcher.get(20, java.util.concurrent.TimeUnit.SECONDS);
        }
    }
}
