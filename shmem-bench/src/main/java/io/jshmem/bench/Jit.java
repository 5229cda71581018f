/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/** How much the JIT has compiled so far, to tell when a warm-up repetition ran without compiling. */
final class Jit {
    private static final CompilationMXBean BEAN = ManagementFactory.getCompilationMXBean();
    private static final boolean MONITORED = BEAN != null && BEAN.isCompilationTimeMonitoringSupported();

    private Jit() {
    }

    /**
     * Total JIT compilation time of this JVM in milliseconds; a repetition during which it did not
     * change compiled (next to) nothing. Always 0 where it is not monitored: every repetition
     * then counts as quiet, as in C.
     */
    static long compileMillis() {
        return MONITORED ? BEAN.getTotalCompilationTime() : 0;
    }
}
