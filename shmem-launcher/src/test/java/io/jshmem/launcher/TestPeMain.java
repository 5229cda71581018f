/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.core.bootstrap.TcpBootstrap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A PE program for {@link OshrunEndToEndTest}, started by bin/oshrun. Prints
 * {@code pid <pid> bootstrap <host:port> pe <k> secret-file <path>} first, so the test can check afterwards
 * that no PE survived the job, nothing listens any more and nothing is left of the secret's file. Modes:
 * <ul>
 * <li>{@code ok}: put, fence, check every PE's value, twice; print a greeting with $TEST_VAR;
 *     finalize; exit 0
 * <li>{@code die1}: each PE leaves a file named like a segment in /dev/shm (printing
 *     {@code segment <path>}); PE 1 exits with status 3 without finalizing while the others wait in a fence
 * <li>{@code abort}: PE 0 aborts with status 7 while the others wait in a fence
 * <li>{@code sleep}: every PE sleeps (for --timeout)
 * <li>{@code hang}: every PE connects, passes a fence, prints {@code ready}, then sleeps in its own code
 *     (for the tests of what kills PEs that do not listen to the launcher)
 * </ul>
 * In mode {@code ok} each PE also prints {@code placement pe P node N local L of M} from its
 * launcher variables, and {@code secret pe P file F dir D secret-env E}: the file
 * {@code JSHMEM_SECRET_FILE} names, which it reads before connecting, its directory, and
 * {@code clean} if, once connected, neither the file nor the secret in {@code /proc/self/environ}
 * (nor a {@code JSHMEM_SECRET} variable) is left, else what is.
 */
public final class TestPeMain {
    private TestPeMain() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("pid " + ProcessHandle.current().pid() + " bootstrap " + System.getenv("JSHMEM_BOOTSTRAP")
                + " pe " + System.getenv("JSHMEM_PE") + " secret-file " + System.getenv("JSHMEM_SECRET_FILE"));
        System.out.flush();
        String mode = args[0];
        if (mode.equals("sleep")) {
            Thread.sleep(600_000);
            return;
        }
        String secretFile = System.getenv("JSHMEM_SECRET_FILE");
        String secret = mode.equals("ok") && secretFile != null ? Files.readString(Path.of(secretFile)).strip() : null;
        try (TcpBootstrap bootstrap = TcpBootstrap.fromEnvironment(System.getenv())) {
            int me = bootstrap.rank();
            if (secret != null) {
                System.out.println("secret pe " + me + " file " + secretFile + " dir " + Path.of(secretFile).getParent()
                        + " secret-env " + secretLeft(secretFile, secret));
            }
            switch (mode) {
                case "ok" -> {
                    exchange(bootstrap, "round1");
                    exchange(bootstrap, "round2");
                    if (bootstrap.get("never-put") != null) {
                        fail("a key nobody put has a value");
                    }
                    System.out.println("hello from " + me + " of " + bootstrap.size() + " TEST_VAR="
                            + System.getenv("TEST_VAR"));
                    System.out.println("placement pe " + me + " node " + bootstrap.nodeId() + " local "
                            + bootstrap.localRank() + " of " + bootstrap.localSize());
                    bootstrap.finalized();
                }
                case "die1" -> {
                    leaveSegmentBehind(bootstrap);
                    bootstrap.fence(); // every PE has started and printed its pid
                    if (me == 1) {
                        System.exit(3);
                    }
                    bootstrap.fence();
                    fail("the fence returned although PE 1 died");
                }
                case "abort" -> {
                    bootstrap.fence(); // every PE has started and printed its pid
                    if (me == 0) {
                        bootstrap.abort(7, "test abort");
                    }
                    bootstrap.fence();
                    fail("the fence returned although PE 0 aborted");
                }
                case "stop1" -> {
                    bootstrap.fence(); // every PE has started
                    if (me == 1) { // stops itself, as a PE stopped in a debugger or on a host that froze
                        new ProcessBuilder("kill", "-STOP", Long.toString(ProcessHandle.current().pid())).start();
                    }
                    Thread.sleep(600_000);
                }
                case "hang" -> {
                    bootstrap.fence(); // every PE has started and printed its pid
                    System.out.println("ready " + me);
                    System.out.flush();
                    Thread.sleep(600_000);
                }
                default -> fail("unknown mode " + mode);
            }
        }
    }

    /** "clean", or what still holds the secret once the PE has connected. */
    private static String secretLeft(String file, String secret) throws IOException {
        String environ = new String(Files.readAllBytes(Path.of("/proc/self/environ")), StandardCharsets.ISO_8859_1);
        String left = (Files.exists(Path.of(file)) ? "file-left " : "")
                + (environ.contains(secret) ? "in-proc-environ " : "")
                + (System.getenv().values().stream().anyMatch(v -> v.contains(secret)) ? "in-getenv " : "")
                + (System.getenv().containsKey("JSHMEM_SECRET") ? "JSHMEM_SECRET-set " : "");
        return left.isEmpty() ? "clean" : left.strip().replace(' ', ',');
    }

    /** Creates a file named like the runtime's segments, as a PE killed before unlinking them would leave. */
    private static void leaveSegmentBehind(TcpBootstrap bootstrap) throws IOException {
        Path segment = Path.of("/dev/shm", "jshmem-" + bootstrap.jobId() + "-" + bootstrap.rank());
        Files.writeString(segment, "test");
        System.out.println("segment " + segment);
        System.out.flush();
    }

    /** Each PE puts its own value under its own key; after the fence every value must be visible. */
    private static void exchange(TcpBootstrap bootstrap, String round) {
        bootstrap.put(round + ".pe" + bootstrap.rank(), value(round, bootstrap.rank()));
        bootstrap.fence();
        for (int pe = 0; pe < bootstrap.size(); pe++) {
            byte[] got = bootstrap.get(round + ".pe" + pe);
            if (got == null || !new String(got, StandardCharsets.UTF_8).equals(round + " of " + pe)) {
                fail("wrong value for PE " + pe + " in " + round);
            }
        }
    }

    private static byte[] value(String round, int pe) {
        return (round + " of " + pe).getBytes(StandardCharsets.UTF_8);
    }

    private static void fail(String why) {
        System.err.println("TestPeMain: " + why);
        System.exit(10);
    }
}
