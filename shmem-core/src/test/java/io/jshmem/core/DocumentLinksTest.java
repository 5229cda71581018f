/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Every relative link and #anchor in the repository's markdown documents (README.md, docs/*.md,
 * CONTRIBUTING.md, ARCHITECTURE.md, bench/README.md, ...) resolves, by GitHub's anchor rules:
 * {@code tools/check_links.py} checks them and lists the broken ones.
 */
class DocumentLinksTest {
    @Test
    void everyRelativeLinkResolves() throws Exception {
        String out = GeneratedCodeTest.assertToolPasses("tools/check_links.py");
        assertTrue(out.contains("all links resolve"), out);
    }
}
