package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
    void theSecretFileIsReadOnceThenRemovedAndRemembered(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = dir.resolve("pe1");
        java.nio.file.Files.writeString(file, "cd".repeat(BootstrapProtocol.SECRET_BYTES) + "\n");
        Map<String, String> env = validEnv();
        env.remove(LaunchEnv.SECRET);
        env.put(LaunchEnv.SECRET_FILE, file.toString());
        byte[] first = JobSecret.of(env);
        assertTrue(!java.nio.file.Files.exists(file), "the PE deletes the file once read");
        assertTrue(java.util.Arrays.equals(first, JobSecret.of(env)), "a re-initialization gets it from memory");
        assertTrue((first[0] & 0xff) == 0xcd && first.length == BootstrapProtocol.SECRET_BYTES);
        // The file wins over the variable; a missing file is an error that says why.
        env.put(LaunchEnv.SECRET, "ab".repeat(BootstrapProtocol.SECRET_BYTES));
        assertTrue((JobSecret.of(env)[0] & 0xff) == 0xcd);
        env.put(LaunchEnv.SECRET_FILE, dir.resolve("never-written").toString());
        String message = assertThrows(IllegalStateException.class, () -> JobSecret.of(env)).getMessage();
        assertTrue(message.contains("does not exist") && message.contains(LaunchEnv.SECRET_FILE), message);
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
}
