package io.jshmem.core.bootstrap;

import java.util.Map;

/** Picks the bootstrap from how this process was started. */
public final class Bootstraps {
    private Bootstraps() {
    }

    /** The jshmem launcher's when it started this process; otherwise a job of one PE. */
    public static Bootstrap select(Map<String, String> env) {
        Bootstrap b = TcpBootstrap.fromEnvironment(env);
        return b != null ? b : new SingletonBootstrap();
    }
}
