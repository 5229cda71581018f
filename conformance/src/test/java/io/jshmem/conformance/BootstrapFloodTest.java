/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Start-up survives a flood: while a local process (this test) opens 20,000 connections to the
 * launcher's bootstrap port (idle ones held open, ones closed at once, ones sending garbage), a
 * 4-PE job connects, computes and (once the flood is over) ends correctly, and oshrun reports the
 * connections it dropped, with their address, in a few rate-limited lines. The PEs connect only
 * once the flood is in full swing ({@link FloodScenarios}). Skips, saying why, where the
 * open-file limit forbids the flood.
 */
class BootstrapFloodTest {
    private static final int CONNECTIONS = 20_000;
    private static final int FLOODERS = 8;
    /** At most this many flood connections open at once (file descriptors of this JVM). */
    private static final int HELD = 3_000;

    @TempDir
    Path dir;

    @Test
    void aJobStartsAndRunsCorrectlyDuringAConnectionFlood() throws Exception {
        long fdLimit = openFileLimit();
        Assumptions.assumeTrue(fdLimit < 0 || fdLimit >= HELD + 1_000,
                "the open-file limit (ulimit -n " + fdLimit + ") is too low to hold " + HELD + " flood connections");
        Path go = dir.resolve("go");
        Path done = dir.resolve("done");
        try (Oshrun.Job job = Oshrun.start(4, List.of(), Oshrun.conformanceClasses(), "io.jshmem.conformance.FloodScenarios",
                go.toString(), done.toString())) {
            int port = listeningPort(job.process.pid());
            AtomicInteger attempts = new AtomicInteger();
            AtomicInteger connected = new AtomicInteger();
            ConcurrentLinkedQueue<Socket> held = new ConcurrentLinkedQueue<>();
            List<Thread> flooders = new ArrayList<>();
            for (int t = 0; t < FLOODERS; t++) {
                flooders.add(Thread.ofPlatform().start(() -> flood(port, attempts, connected, held)));
            }
            while (attempts.get() < CONNECTIONS / 4 && flooders.stream().anyMatch(Thread::isAlive)) {
                Thread.sleep(5);
            }
            Files.createFile(go); // the PEs connect now, amid the rest of the flood
            for (Thread f : flooders) {
                f.join();
            }
            // The PEs wait for this before they finalize: a job that ended before the flood did
            // would refuse the rest of it (closed port), and then the flood tested nothing.
            Files.createFile(done);
            Oshrun.Result r = job.await();
            held.forEach(BootstrapFloodTest::closeQuietly);
            System.out.printf("[flood] %d connection attempts, %d connected; job exit %d%n", attempts.get(),
                    connected.get(), r.exitCode());
            r.stderr().lines().filter(l -> l.startsWith("oshrun:")).forEach(l -> System.out.println("[flood] " + l));
            assertEquals(0, r.exitCode(), r.tail());
            for (int pe = 0; pe < 4; pe++) {
                assertTrue(r.stdout().contains("SUM " + pe + " 10\n"), "PE " + pe + r.tail());
            }
            assertTrue(connected.get() > CONNECTIONS / 2, "the flood did not reach the port: " + connected.get());
            long dropLines = r.stderr().lines().filter(l -> l.startsWith("oshrun: bootstrap: dropped a connection from 127.0.0.1:")).count();
            assertTrue(dropLines >= 1 && dropLines <= 20, dropLines + " lines about dropped connections" + r.tail());
        }
    }

    /** Connects until {@link #CONNECTIONS} attempts are made in all: every third held, closed at once, or sent garbage. */
    private static void flood(int port, AtomicInteger attempts, AtomicInteger connected, ConcurrentLinkedQueue<Socket> held) {
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        for (int n; (n = attempts.incrementAndGet()) <= CONNECTIONS; ) {
            Socket s = new Socket();
            try {
                s.connect(address, 1_000);
                connected.incrementAndGet();
                switch (n % 3) {
                    case 0 -> {
                        held.add(s);
                        while (held.size() > HELD) {
                            closeQuietly(held.poll());
                        }
                        continue;
                    }
                    case 1 -> {
                        OutputStream out = s.getOutputStream();
                        out.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
                        out.flush();
                    }
                    default -> {
                    }
                }
            } catch (IOException e) {
                // refused, timed out or reset: counted as an attempt all the same
            }
            closeQuietly(s);
        }
    }

    /** The TCP port the process {@code pid} listens on (its bootstrap server), from /proc. */
    private static int listeningPort(long pid) throws Exception {
        for (int i = 0; i < 3_000; i++) {
            List<String> inodes = new ArrayList<>();
            try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
                for (Path fd : fds.toList()) {
                    try {
                        String target = Files.readSymbolicLink(fd).toString();
                        if (target.startsWith("socket:[")) {
                            inodes.add(target.substring(8, target.length() - 1));
                        }
                    } catch (IOException e) {
                        // closed meanwhile
                    }
                }
            }
            for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) { // Java's sockets are dual-stack
                for (String line : Files.readAllLines(Path.of(table))) {
                    String[] f = line.trim().split("\\s+");
                    if (f.length > 9 && f[3].equals("0A") && inodes.contains(f[9])) {
                        return Integer.parseInt(f[1].substring(f[1].indexOf(':') + 1), 16);
                    }
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("oshrun (pid " + pid + ") never listened on a TCP port");
    }

    private static long openFileLimit() {
        try {
            Process p = new ProcessBuilder("sh", "-c", "ulimit -n").start();
            String v = new String(p.getInputStream().readAllBytes()).strip();
            p.waitFor();
            return v.equals("unlimited") ? -1 : Long.parseLong(v);
        } catch (IOException | InterruptedException | NumberFormatException e) {
            return -1;
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            if (s != null) {
                s.close();
            }
        } catch (IOException e) {
            // gone
        }
    }
}
