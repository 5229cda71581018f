/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

/**
 * Reports connections the bootstrap server dropped or refused, with the peer's address, without
 * letting a flood flood oshrun's output: the first at once, then at most one line per
 * {@link #INTERVAL_MILLIS} counting the others; {@link #summary} tells of those not yet reported.
 */
final class DropLog {
    static final long INTERVAL_MILLIS = 10_000;

    private long lastLine = Long.MIN_VALUE;
    private long unreported;
    private long total;
    private String last;

    synchronized void dropped(String from, String why) {
        total++;
        last = "from " + from + ": " + why;
        long now = System.nanoTime();
        if (lastLine != Long.MIN_VALUE && now - lastLine < INTERVAL_MILLIS * 1_000_000) {
            unreported++;
            return;
        }
        System.err.println("oshrun: bootstrap: dropped a connection " + last + (unreported == 0 ? ""
                : " (and " + unreported + " more since the last such message: is something flooding the job's port?)"));
        lastLine = now;
        unreported = 0;
    }

    /** At the end: how many went unreported since the last line. */
    synchronized void summary() {
        if (unreported > 0) {
            System.err.println("oshrun: bootstrap: " + unreported + " more connections dropped, " + total
                    + " in all (the last " + last + ")");
            unreported = 0;
        }
    }

    synchronized long total() {
        return total;
    }
}
