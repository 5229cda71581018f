/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn.jobs;

/** Prints {@code CHECK <name> PE <pe> PASS|FAIL [detail]} lines, which the conformance tests read. */
final class Check {
    private static int failures;

    private Check() {
    }

    static synchronized void check(String name, int pe, boolean ok, String detail) {
        if (!ok) {
            failures++;
        }
        String d = detail == null ? "" : " " + detail.replace("\n", "\\n");
        System.out.println("CHECK " + name + " PE " + pe + " " + (ok ? "PASS" : "FAIL") + d);
        System.out.flush();
    }

    static synchronized int failures() {
        return failures;
    }
}
