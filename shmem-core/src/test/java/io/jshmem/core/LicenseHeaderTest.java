/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every source file of the repository carries the license header: {@code tools/license_headers.py}
 * checks them (and {@code --fix} adds what is missing). Needs a git checkout, which lists the files.
 */
class LicenseHeaderTest {
    @Test
    void everySourceFileHasTheHeader() throws Exception {
        Path root = GeneratedCodeTest.repositoryRoot();
        Assumptions.assumeTrue(Files.exists(root.resolve(".git")), "not a git checkout: no file list to check");
        Assumptions.assumeTrue(GeneratedCodeTest.python3Available(), "python3 is not on the PATH");
        ProcessBuilder pb = new ProcessBuilder("python3", "-B", "tools/license_headers.py")
                .directory(root.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "tools/license_headers.py did not finish in 120 s");
        assertEquals(0, p.exitValue(), out);
    }
}
