/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.ExitStatus;
import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * How a launcher without an abort channel (srun, mpirun) ends a job: it signals the PEs (SIGTERM,
 * or SIGINT for a user's Ctrl-C, then SIGKILL after a grace period). The runtime's exit hook must
 * then skip the collective finalize (whose barrier would wait for PEs that are being killed, until
 * SIGKILL). Where the hook learns the exit status ({@link ExitStatus}: 128 + signal) that is all it
 * takes, and the JVM's normal handling runs (shutdown hooks, exit status 128 + signal); elsewhere
 * these handlers first turn the signal into an abort notice, which the hook sees and which ends
 * waiting loops at once.
 *
 * <p>Uses {@code sun.misc.Signal} (module jdk.unsupported, kept for exactly this use). It used to
 * be reached through reflection and a dynamic proxy, whose class generation cost every PE ~12 ms
 * of start-up; a lambda handler costs ~3. With -Xrs the JVM's own handling simply stays. The
 * module is required (every full JDK has it); on the class path a runtime without it keeps the
 * JVM's handling too.
 */
final class LauncherSignals {
    private LauncherSignals() {
    }

    /** Runs {@code notice} with the reason on SIGTERM and SIGINT, then the previous handling. Best effort. */
    static void onTermination(Consumer<String> notice) {
        onTermination(notice, " from the launcher: the job is being ended");
    }

    /** As {@link #onTermination(Consumer)}, the reason being "SIGTERM" or "SIGINT" followed by {@code how}. */
    static void onTermination(Consumer<String> notice, String how) {
        try {
            Handlers.install(notice, how);
        } catch (LinkageError e) {
            // No sun.misc.Signal in this runtime: its own handling stays.
        }
    }

    /** The JVM's own handler (java.lang.Terminator's: Runtime.exit(128 + signal)), as sun.misc.Signal shows it. */
    static boolean isJvmTermination(Object handler) {
        return String.valueOf(handler).startsWith("java.lang.Terminator");
    }

    /** Apart, so that a runtime without jdk.unsupported fails to link this class only. */
    private static final class Handlers {
        static void install(Consumer<String> notice, String how) {
            for (String name : new String[] {"TERM", "INT"}) {
                try {
                    Signal signal = new Signal(name);
                    SignalHandler[] previous = new SignalHandler[1];
                    SignalHandler ours = sig -> {
                        SignalHandler p = previous[0];
                        boolean jvmExit = p == null || p == SignalHandler.SIG_DFL || p == SignalHandler.SIG_IGN || isJvmTermination(p);
                        if (jvmExit && ExitStatus.watching()) {
                            // The exit hook learns the status (128 + signal) and skips the collective
                            // finalize; a notice now would end the main thread's wait with an exception,
                            // and its end could race this exit to the status (1 instead of 143).
                            System.exit(128 + sig.getNumber());
                            return;
                        }
                        try {
                            notice.accept("SIG" + name + how);
                        } finally {
                            if (jvmExit) {
                                System.exit(128 + sig.getNumber());
                            } else {
                                p.handle(sig);
                            }
                        }
                    };
                    previous[0] = Signal.handle(signal, ours);
                    if (previous[0] == SignalHandler.SIG_IGN) {
                        Signal.handle(signal, SignalHandler.SIG_IGN); // ignored by whoever started us: keep it so
                    }
                } catch (RuntimeException e) {
                    // -Xrs, or the signal is reserved: the JVM's own handling stays for it.
                }
            }
        }
    }
}
