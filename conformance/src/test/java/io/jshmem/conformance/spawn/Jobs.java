/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance.spawn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the spawn and subprocess-clause jobs through the real {@code bin/oshrun} (with
 * {@code --timeout 120}). The job programs are {@code io.jshmem.spawn.jobs.*} in shmem-spawn's
 * test classes (they use the Spawn API, which the conformance module does not depend on) and
 * {@code io.jshmem.examples.SpawnUname}.
 */
public final class Jobs {
    static final int TIMEOUT_SECONDS = 120;
    static final String SPAWN_JOBS = "io.jshmem.spawn.jobs.SpawnJobs";
    private static final Pattern CHECK = Pattern.compile("(?m)^CHECK (\\S+) PE (\\d+) (PASS|FAIL)(?: (.*))?$");

    private Jobs() {
    }

    /** The repository root: the nearest directory, from the working directory up, holding bin/oshrun. */
    static Path root() {
        Path start = Path.of("").toAbsolutePath();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("bin/oshrun"))) {
                return p;
            }
        }
        throw new AssertionError("no bin/oshrun in " + start + " or any directory above it");
    }

    /** shmem-spawn's test classes (the job programs). */
    static String spawnJobClasses() {
        Path p = root().resolve("shmem-spawn/target/test-classes");
        assertTrue(Files.isRegularFile(p.resolve("io/jshmem/spawn/jobs/SpawnJobs.class")),
                p + " has no job programs: build shmem-spawn with its tests compiled (mvn install, without -Dmaven.test.skip)");
        return p.toString();
    }

    static String examplesClasses() {
        return root().resolve("shmem-examples/target/classes").toString();
    }

    /** A finished command. */
    record Result(int status, String out, String err, List<String> command) {
        String context() {
            return "\n  command: " + String.join(" ", command) + "\n  status: " + status + "\n  --- stdout ---\n" + out
                    + "\n  --- stderr ---\n" + err;
        }

        /** Every CHECK line, as "name PE k" mapped to its PASS/FAIL line. */
        Map<String, String> checks() {
            Map<String, String> checks = new java.util.LinkedHashMap<>();
            Matcher m = CHECK.matcher(out);
            while (m.find()) {
                checks.put(m.group(1) + " PE " + m.group(2), m.group(0));
            }
            return checks;
        }

        /** Exit status 0, exactly {@code expected} checks (as "name PE k"), all PASS. */
        void assertChecks(Set<String> expected) {
            assertEquals(0, status, context());
            Map<String, String> checks = checks();
            assertEquals(new TreeSet<>(expected), new TreeSet<>(checks.keySet()), "checks run" + context());
            for (String line : checks.values()) {
                assertTrue(line.contains(" PASS"), line + context());
            }
        }
    }

    /** {@code bin/oshrun -np N --timeout 120 [options] -cp classpath main args}. */
    static Result oshrun(int npes, List<String> options, String classpath, String main, String... args)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(root().resolve("bin/oshrun").toString(), "-np", Integer.toString(npes),
                "--timeout", Integer.toString(TIMEOUT_SECONDS)));
        cmd.addAll(options);
        cmd.addAll(List.of("-cp", classpath, main));
        cmd.addAll(List.of(args));
        return run(cmd, Map.of());
    }

    /** Runs a command from the repository root, with the test JDK and no variables of an enclosing job. */
    static Result run(List<String> command, Map<String, String> extraEnv) throws IOException, InterruptedException {
        Path out = Files.createTempFile("jshmem-spawn-", ".out");
        Path err = Files.createTempFile("jshmem-spawn-", ".err");
        try {
            ProcessBuilder pb = new ProcessBuilder(command).directory(root().toFile())
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            Map<String, String> env = pb.environment();
            env.put("JAVA_HOME", System.getProperty("java.home"));
            // JSHMEM_AOT stays: the build's test jobs make and use no start-up cache (surefire's environment).
            env.keySet().removeIf(k -> (k.startsWith("JSHMEM_") && !k.equals("JSHMEM_AOT")) || k.startsWith("SHMEM_")
                    || k.equals("UCX_IB_FORK_INIT") || k.equals("RDMAV_FORK_SAFE") || k.equals("IBV_FORK_SAFE"));
            env.putAll(extraEnv);
            Process p = pb.start();
            if (!p.waitFor(TIMEOUT_SECONDS + 60, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new AssertionError("did not end within " + (TIMEOUT_SECONDS + 60) + " s: " + String.join(" ", command)
                        + "\n" + Files.readString(out) + "\n" + Files.readString(err));
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8),
                    command);
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** Why the UCX transport cannot be used here, or empty if it can (shmem-ucx provides a transport, libucp is installed). */
    public static java.util.Optional<String> ucxUnavailable() {
        Path service = root().resolve("shmem-ucx/target/classes/META-INF/services/io.jshmem.core.transport.TransportProvider");
        if (!Files.isRegularFile(service)) {
            return java.util.Optional.of("shmem-ucx provides no transport yet (" + service + " does not exist)");
        }
        for (String d : List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                "/usr/lib/aarch64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/usr/local/lib")) {
            if (Files.exists(Path.of(d, "libucp.so.0"))) {
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.of("libucp.so.0 is not installed");
    }

    /** Skips the calling test, saying why, when the UCX transport cannot be used. */
    public static void assumeUcx(String test) {
        ucxUnavailable().ifPresent(why -> {
            System.out.println(test + " skipped: " + why);
            org.junit.jupiter.api.Assumptions.abort(why);
        });
    }

    static int count(String text, String what) {
        return text.split(Pattern.quote(what), -1).length - 1;
    }
}
