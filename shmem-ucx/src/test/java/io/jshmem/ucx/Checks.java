/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

/** A PE's checks in a job program: each failure printed as it happens, one summary line at the end. */
final class Checks {
    private final int me;
    private int count;
    private int failures;

    Checks(int me) {
        this.me = me;
    }

    void check(boolean ok, String what) {
        count++;
        if (!ok) {
            failures++;
            System.out.println("PE " + me + ": FAIL " + what);
        }
    }

    int failures() {
        return failures;
    }

    /** "PE k: N checks passed" (what the job tests look for), or how many failed. */
    String summary() {
        return "PE " + me + ": " + (failures == 0 ? count + " checks passed" : failures + " of " + count + " checks FAILED");
    }
}
