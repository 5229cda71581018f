/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.util.Map;
import java.util.Objects;

/**
 * jshmem's diagnostics: one {@link System.Logger} per component ({@code io.jshmem.core},
 * {@code io.jshmem.bootstrap}, {@code io.jshmem.heap}, {@code io.jshmem.forksafety},
 * {@code io.jshmem.ucx}), so that users route them with their logging backend.
 *
 * <p>Without a backend of the user's (the JDK's default {@code System.LoggerFinder}: JUL with no
 * {@code java.util.logging.config.file} or {@code config.class}, or the JDK's simple console
 * logger when {@code java.logging} is not in the module graph), each message is printed to
 * {@code System.err} as one line, as jshmem always printed it ("jshmem: PE 3: ..."), and the
 * levels come from jshmem's variables: WARNING and above, INFO with {@code SHMEM_INFO} or
 * {@code SHMEM_VERSION}, DEBUG and TRACE with {@code SHMEM_DEBUG}. It prints directly rather
 * than through a handler on JUL's {@code io.jshmem} logger: JUL's LogManager removes every
 * handler in a shutdown hook of its own, which would lose (or race with) the messages of
 * jshmem's shutdown hooks, and starting it costs every PE's start-up time. With a backend, the
 * backend decides everything; jshmem touches none of its configuration.
 *
 * <p>Nothing here is on a hot path: messages are rare; callers that build costly messages guard
 * them with {@link #isLoggable}.
 */
public final class Log {
    public static final Log CORE = new Log("io.jshmem.core");
    public static final Log BOOTSTRAP = new Log("io.jshmem.bootstrap");
    public static final Log HEAP = new Log("io.jshmem.heap");
    public static final Log FORK_SAFETY = new Log("io.jshmem.forksafety");

    private final String name;
    /** The backend's logger, got on first use (never without a backend: that would start JUL). */
    private volatile System.Logger logger;

    private Log(String name) {
        this.name = name;
    }

    /** The logger of a component in another module (e.g. {@code io.jshmem.ucx}). */
    public static Log of(String name) {
        return new Log(Objects.requireNonNull(name));
    }

    public String name() {
        return name;
    }

    /** Whether a message at {@code level} goes anywhere. */
    public boolean isLoggable(Level level) {
        return Backend.OWN ? enabled(level, Backend.THRESHOLD) : logger().isLoggable(level);
    }

    public void log(Level level, String message) {
        log(level, message, null);
    }

    /**
     * Logs {@code message} (printed as is without a backend; null: only {@code thrown}) and
     * {@code thrown} (printed as {@link Throwable#printStackTrace()} does; null: none).
     */
    public void log(Level level, String message, Throwable thrown) {
        if (Backend.OWN) {
            if (enabled(level, Backend.THRESHOLD)) {
                print(System.err, message, thrown);
            }
        } else if (thrown == null) {
            logger().log(level, message);
        } else {
            logger().log(level, message != null ? message : String.valueOf(thrown), thrown);
        }
    }

    public void error(String message) {
        log(Level.ERROR, message, null);
    }

    public void warning(String message) {
        log(Level.WARNING, message, null);
    }

    public void info(String message) {
        log(Level.INFO, message, null);
    }

    private System.Logger logger() {
        System.Logger l = logger;
        if (l == null) {
            l = System.getLogger(name);
            logger = l;
        }
        return l;
    }

    /** Without a backend: one line (or the lines of a report) as jshmem always printed them. */
    static void print(PrintStream err, String message, Throwable thrown) {
        if (message != null) {
            err.println(message);
        }
        if (thrown != null) {
            thrown.printStackTrace(err);
        }
        err.flush();
    }

    static boolean enabled(Level level, Level threshold) {
        return level != Level.OFF && level.getSeverity() >= threshold.getSeverity();
    }

    /**
     * Whether the JDK's own logging is what {@code finder} (the {@code System.LoggerFinder}'s
     * class name) and the system properties say: JUL unconfigured, or the simple console logger.
     */
    static boolean defaultBackend(String finder, String julConfigFile, String julConfigClass) {
        return switch (finder) {
            case "sun.util.logging.internal.LoggingProviderImpl" -> julConfigFile == null && julConfigClass == null;
            case "jdk.internal.logger.DefaultLoggerFinder" -> true;
            default -> false;
        };
    }

    /**
     * Without a backend: the least severe level printed, from SHMEM_DEBUG, SHMEM_INFO and
     * SHMEM_VERSION. (Through Settings, not Config, which needs the API module: a message must print
     * even where it is missing, as in a bare bootstrap test.)
     */
    static Level threshold(Map<String, String> env) {
        Settings s = Settings.of(env);
        if (s.on(Setting.SHMEM_DEBUG)) {
            return Level.ALL;
        }
        return s.on(Setting.SHMEM_INFO) || s.on(Setting.SHMEM_VERSION) ? Level.INFO : Level.WARNING;
    }

    /** Decided once, on the first message. */
    private static final class Backend {
        static final boolean OWN = defaultBackend(System.LoggerFinder.getLoggerFinder().getClass().getName(),
                System.getProperty("java.util.logging.config.file"), System.getProperty("java.util.logging.config.class"));
        static final Level THRESHOLD = threshold(Settings.systemEnvironment());
    }
}
