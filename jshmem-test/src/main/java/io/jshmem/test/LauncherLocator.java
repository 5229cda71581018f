/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.test;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Finds jshmem's {@code oshrun} for the test jobs, and refuses another implementation's.
 *
 * <p>Why: on a machine with Open MPI, {@code oshrun} on the PATH is Open MPI's; given jshmem's
 * arguments it prints its own "Option: np Param: ..." error box and every test fails with nothing
 * saying why. So a candidate found through {@code jshmem.home}, {@code $JSHMEM_HOME} or the PATH is
 * checked before it is used: jshmem's {@code bin/oshrun} is a bash script that names jshmem (read,
 * not run: running it starts a JVM); anything else must say "jshmem" in its {@code --version}
 * output. The explicit {@code jshmem.test.oshrun} is trusted as given.
 */
final class LauncherLocator {
    /** Candidates already checked: path to null (jshmem's) or the reason it was refused. */
    private static final Map<String, String> CHECKED = new ConcurrentHashMap<>();

    private static final String HOW = "set the system property jshmem.home (surefire's systemPropertyVariables,"
            + " or mvn -Djshmem.home=...) or $JSHMEM_HOME to a jshmem installation (the unpacked binary"
            + " distribution or a built checkout)";

    private LauncherLocator() {
    }

    /** The launcher: jshmem.test.oshrun, else bin/oshrun of jshmem.home or $JSHMEM_HOME, else oshrun on the PATH. */
    static String oshrun(String explicit, String homeProperty, String homeEnv, String path) {
        if (explicit != null && !explicit.isBlank()) {
            return explicit;
        }
        String home = homeProperty == null ? "" : homeProperty;
        String from = "jshmem.home";
        if (home.isBlank() || home.contains("${")) {
            home = homeEnv == null ? "" : homeEnv;
            from = "$JSHMEM_HOME";
        }
        if (!home.isBlank()) {
            Path oshrun = Path.of(home, "bin", "oshrun");
            if (!Files.isExecutable(oshrun)) {
                throw new IllegalStateException(oshrun + " is not executable: " + from + " (" + home + ") must name a"
                        + " jshmem installation (the unpacked binary distribution or a built checkout)");
            }
            refuseForeign(oshrun, from + " (" + home + ")");
            return oshrun.toString();
        }
        for (String dir : (path == null ? "" : path).split(File.pathSeparator)) {
            Path oshrun = dir.isEmpty() ? null : Path.of(dir, "oshrun");
            if (oshrun != null && Files.isExecutable(oshrun)) {
                refuseForeign(oshrun, "the PATH");
                return oshrun.toString();
            }
        }
        throw new IllegalStateException("no oshrun to run @ShmemTest jobs: " + HOW + ", or put its bin/ on the PATH");
    }

    private static void refuseForeign(Path oshrun, String foundThrough) {
        String why = CHECKED.computeIfAbsent(oshrun.toAbsolutePath().toString(), k -> foreignReason(oshrun));
        if (!why.isEmpty()) {
            throw new IllegalStateException(oshrun + " (found through " + foundThrough + ") is not jshmem's launcher"
                    + " but " + why + ": " + HOW);
        }
    }

    /** "" for jshmem's launcher, else what the candidate is (its --version line). */
    static String foreignReason(Path oshrun) {
        try {
            if (isJshmemScript(oshrun)) {
                return "";
            }
        } catch (IOException e) {
            return "unreadable (" + e.getMessage() + ")";
        }
        String version = versionOf(oshrun);
        return version.contains("jshmem") ? "" : "\"" + version + "\"";
    }

    /** jshmem's bin/oshrun is a script naming jshmem near its top. */
    private static boolean isJshmemScript(Path oshrun) throws IOException {
        byte[] head = new byte[4096];
        int n;
        try (InputStream in = Files.newInputStream(oshrun)) {
            n = in.readNBytes(head, 0, head.length);
        }
        String text = new String(head, 0, n, StandardCharsets.ISO_8859_1);
        return text.startsWith("#!") && text.contains("jshmem");
    }

    /** The first non-blank line of {@code oshrun --version}, or why there is none. */
    private static String versionOf(Path oshrun) {
        Path out = null;
        try {
            // Into a file, not a pipe: a launcher that hangs must not hang the test JVM with it.
            out = Files.createTempFile("jshmem-oshrun-version", ".out");
            Process p = new ProcessBuilder(oshrun.toString(), "--version").redirectErrorStream(true)
                    .redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return "a program whose --version did not end within 30 s";
            }
            for (String line : Files.readString(out, StandardCharsets.ISO_8859_1).lines().toList()) {
                if (!line.isBlank()) {
                    return line.strip();
                }
            }
            return "a program whose --version prints nothing";
        } catch (IOException e) {
            return "a program that did not run (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "a program whose --version was interrupted";
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }
}
