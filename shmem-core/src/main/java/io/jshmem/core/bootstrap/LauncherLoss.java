/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.base.Log;

/** What a PE that lost its connection to the launcher says about it, and to whom. */
final class LauncherLoss {
    /** How long a PE that lost its connection waits to see whether its launcher (its parent) died. */
    private static final long LAUNCHER_EXIT_WAIT_MILLIS = 500;

    private LauncherLoss() {
    }

    /**
     * "the launcher (oshrun, pid N) died" when this PE's launcher, its parent ({@link LaunchEnv#LAUNCHER_PID}),
     * has died: this process has another parent now, or that pid is gone. Its connection closes as it
     * exits, a moment before this process is given to another parent: this waits that moment out
     * ({@link #LAUNCHER_EXIT_WAIT_MILLIS} at most). Null when unknown (a PE on another host) or alive.
     */
    static String launcherDied(long pid) {
        if (pid <= 0) {
            return null;
        }
        long deadline = System.nanoTime() + LAUNCHER_EXIT_WAIT_MILLIS * 1_000_000;
        while (true) {
            boolean adopted = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L) != pid;
            if (adopted || !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                return "the launcher (oshrun, pid " + pid + ") died";
            }
            if (System.nanoTime() - deadline >= 0) {
                return null;
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /**
     * Logs the news that the job is over for this PE. oshrun reads its local PEs' standard error (to
     * print once what several PEs print): with oshrun dead that pipe has no reader, and the news would
     * reach nobody; standard output, which oshrun leaves to the terminal, still does.
     */
    static void tell(String news) {
        Log.BOOTSTRAP.error(news);
        System.err.flush();
        if (System.err.checkError()) {
            System.out.println(news);
            System.out.flush();
        }
    }
}
