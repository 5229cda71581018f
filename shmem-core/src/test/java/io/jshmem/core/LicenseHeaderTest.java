/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core;

import java.nio.file.Files;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Every source file of the repository carries the license header: {@code tools/license_headers.py}
 * checks them (and {@code --fix} adds what is missing). Needs a git checkout, which lists the files.
 */
class LicenseHeaderTest {
    @Test
    void everySourceFileHasTheHeader() throws Exception {
        Assumptions.assumeTrue(Files.exists(GeneratedCodeTest.repositoryRoot().resolve(".git")),
                "not a git checkout: no file list to check");
        GeneratedCodeTest.assertToolPasses("tools/license_headers.py");
    }
}
