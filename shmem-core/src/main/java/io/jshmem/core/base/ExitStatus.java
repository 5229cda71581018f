/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * The status this JVM is exiting with, for the shutdown hooks, which the JDK does not tell: a
 * PE's exit hook must not finalize collectively (waiting for every other PE) when the program
 * called {@code System.exit(3)}, or when the JVM ends on SIGTERM, SIGINT or SIGHUP (status 128 +
 * signal), since the other PEs may never come; it must after {@code System.exit(0)}, which
 * programs call at their end.
 *
 * <p>{@code Runtime.exit} logs its status to the {@code java.lang.Runtime} System.Logger at DEBUG
 * before it runs the hooks (JDK 21+, JDK-8301627), and so does the JVM's handling of those
 * signals. With the JDK's default logging (JUL) this watches that logger, setting its level only
 * when nobody configured it (and then keeping the record from any other handler, so nothing is
 * printed). Where that cannot work (no java.logging module, another logging backend, a JUL
 * configuration that replaces the logger) the status stays {@link #UNKNOWN} and callers keep
 * their old behaviour.
 */
public final class ExitStatus {
    /** No Runtime.exit seen (yet), or the status cannot be watched. */
    public static final int UNKNOWN = Integer.MIN_VALUE;
    private static final String RUNTIME_LOGGER = "java.lang.Runtime";

    private static volatile int status = UNKNOWN;
    private static volatile boolean watching;
    /** JUL holds its loggers weakly: this keeps the watched one, with its level and handler. */
    @SuppressWarnings("unused")
    private static Object logger;

    private ExitStatus() {
    }

    /** Starts watching (once per JVM; cheap after the first call). */
    public static void watch() {
        if (watching) {
            return;
        }
        synchronized (ExitStatus.class) {
            if (watching) {
                return;
            }
            try {
                watching = Jul.install();
            } catch (LinkageError | RuntimeException e) {
                // no java.logging, or a backend that refuses: UNKNOWN
            }
        }
    }

    /** Whether {@link #get} will know the status of an exit that happens from now on. */
    public static boolean watching() {
        return watching;
    }

    /** The status Runtime.exit was called with, or {@link #UNKNOWN} (the last thread ended, or not watched). */
    public static int get() {
        return status;
    }

    /** Where the status is parsed: the JDK's message "Runtime.exit() called with status: N"; null if it is not that. */
    static Integer parse(String message) {
        if (message == null) {
            return null;
        }
        int colon = message.lastIndexOf(':');
        if (colon < 0 || !message.startsWith("Runtime.exit()")) {
            return null;
        }
        try {
            return Integer.valueOf(message.substring(colon + 1).trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Apart, so that a runtime without java.logging fails to link this class only. */
    private static final class Jul {
        static boolean install() {
            if (!System.LoggerFinder.getLoggerFinder().getClass().getName().startsWith("sun.util.logging.internal.")) {
                return false; // another backend: the JDK's record does not go through JUL
            }
            Logger runtime = Logger.getLogger(RUNTIME_LOGGER);
            if (runtime.getLevel() == null) {
                runtime.setLevel(Level.FINE); // DEBUG; only Runtime.exit logs there
                runtime.setUseParentHandlers(false);
            } else if (!runtime.isLoggable(Level.FINE)) {
                return false; // configured by the user to stay quiet: leave it so
            }
            runtime.addHandler(new Handler() {
                @Override
                public void publish(LogRecord record) {
                    Integer s = parse(record.getMessage());
                    if (s != null) {
                        status = s;
                    }
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            });
            logger = runtime;
            return true;
        }
    }
}
