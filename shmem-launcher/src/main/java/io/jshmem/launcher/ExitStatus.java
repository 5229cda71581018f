/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

/** Turns process exit codes into words, and statuses into exit codes. */
final class ExitStatus {
    /** Linux signal names by number; Process.exitValue() reports death by signal s as 128 + s. */
    private static final String[] SIGNALS = {
        null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE", "SIGKILL",
        "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM", "SIGSTKFLT", "SIGCHLD", "SIGCONT",
        "SIGSTOP", "SIGTSTP", "SIGTTIN", "SIGTTOU", "SIGURG", "SIGXCPU", "SIGXFSZ", "SIGVTALRM", "SIGPROF",
        "SIGWINCH", "SIGIO", "SIGPWR", "SIGSYS",
    };
    private static final int MAX_SIGNAL = 64;

    private ExitStatus() {
    }

    /** "exited with status 3" or "was killed by signal 9 (SIGKILL)". */
    static String describe(int exitCode) {
        int signal = exitCode - 128;
        if (signal >= 1 && signal <= MAX_SIGNAL) {
            String name = signal < SIGNALS.length ? SIGNALS[signal] : "SIGRT" + signal;
            return "was killed by signal " + signal + " (" + name + ")";
        }
        return "exited with status " + exitCode;
    }

    /**
     * The exit code for a job status: the low byte, as exit(3) keeps, except that a non-zero status
     * whose low byte is 0 (256, say) becomes 1 rather than passing for success.
     */
    static int toExitCode(int status) {
        int code = status & 0xFF;
        return code == 0 && status != 0 ? 1 : code;
    }
}
