package io.jshmem.core.bootstrap;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Consumer;

/**
 * How a launcher without an abort channel (srun, mpirun) ends a job: it signals the PEs (SIGTERM,
 * or SIGINT for a user's Ctrl-C, then SIGKILL after a grace period). This turns those signals into
 * an abort notice before the JVM's normal handling (shutdown hooks, exit status 128+signal) runs,
 * so the runtime's exit hook skips the collective finalize (whose barrier would wait for PEs that
 * are being killed, until SIGKILL) and waiting loops end at once.
 *
 * <p>Uses {@code sun.misc.Signal} (module jdk.unsupported, kept for exactly this use) through
 * reflection: no compile-time dependency on it, and without it (or with -Xrs) the JVM's own
 * handling simply stays.
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
            Class<?> signalClass = Class.forName("sun.misc.Signal");
            Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
            Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
            Method handlerHandle = handlerClass.getMethod("handle", signalClass);
            Method number = signalClass.getMethod("getNumber");
            Object dfl = handlerClass.getField("SIG_DFL").get(null);
            Object ign = handlerClass.getField("SIG_IGN").get(null);
            for (String name : new String[] {"TERM", "INT"}) {
                try {
                    Object signal = signalClass.getConstructor(String.class).newInstance(name);
                    Object[] previous = new Object[1];
                    Object ours = Proxy.newProxyInstance(LauncherSignals.class.getClassLoader(), new Class<?>[] {handlerClass},
                            (proxy, method, args) -> {
                                if (!method.getName().equals("handle")) {
                                    return switch (method.getName()) {
                                        case "hashCode" -> System.identityHashCode(proxy);
                                        case "equals" -> proxy == args[0];
                                        default -> "jshmem launcher-signal handler";
                                    };
                                }
                                try {
                                    notice.accept("SIG" + name + how);
                                } finally {
                                    Object p = previous[0];
                                    if (p == null || p == dfl || p == ign) {
                                        System.exit(128 + (int) number.invoke(args[0]));
                                    } else {
                                        handlerHandle.invoke(p, args[0]);
                                    }
                                }
                                return null;
                            });
                    previous[0] = handle.invoke(null, signal, ours);
                    if (previous[0] == ign) {
                        handle.invoke(null, signal, ign); // ignored by whoever started us: keep it so
                    }
                } catch (ReflectiveOperationException | RuntimeException e) {
                    // -Xrs, or the signal is reserved: the JVM's own handling stays for it.
                }
            }
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // No sun.misc.Signal in this JVM: its own handling stays.
        }
    }
}
