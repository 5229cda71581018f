/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import java.util.function.Consumer;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * How a launcher without an abort channel (srun, mpirun) ends a job: it signals the PEs (SIGTERM,
 * or SIGINT for a user's Ctrl-C, then SIGKILL after a grace period). This turns those signals into
 * an abort notice before the JVM's normal handling (shutdown hooks, exit status 128+signal) runs,
 * so the runtime's exit hook skips the collective finalize (whose barrier would wait for PEs that
 * are being killed, until SIGKILL) and waiting loops end at once.
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

    /** Apart, so that a runtime without jdk.unsupported fails to link this class only. */
    private static final class Handlers {
        static void install(Consumer<String> notice, String how) {
            for (String name : new String[] {"TERM", "INT"}) {
                try {
                    Signal signal = new Signal(name);
                    SignalHandler[] previous = new SignalHandler[1];
                    SignalHandler ours = sig -> {
                        try {
                            notice.accept("SIG" + name + how);
                        } finally {
                            SignalHandler p = previous[0];
                            if (p == null || p == SignalHandler.SIG_DFL || p == SignalHandler.SIG_IGN) {
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
