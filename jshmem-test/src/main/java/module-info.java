/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A JUnit 5 extension that runs test methods as jobs of N PEs through {@code bin/oshrun}
 * ({@link io.jshmem.test.ShmemTest}).
 */
module io.jshmem.test {
    requires transitive io.jshmem;
    requires transitive org.junit.jupiter.api;
    requires org.opentest4j;

    exports io.jshmem.test;
}
