/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import io.jshmem.ShmemException;

/**
 * Checks, before the first native call, that a jshmem module on the module path may call native
 * code. Without {@code --enable-native-access} for it the JDK would warn on every restricted method
 * or, with {@code --illegal-native-access=deny} (the default of future JDKs), throw an
 * {@code IllegalCallerException} from deep inside init; this says which flag to add instead. On the
 * class path (the unnamed module) the JDK's own warning names {@code ALL-UNNAMED}, and oshrun gives it.
 */
public final class NativeAccess {
    /** The value of {@code --enable-native-access} that covers every jshmem module calling native code. */
    public static final String MODULES = "io.jshmem.core,io.jshmem.ucx,io.jshmem.spawn";

    private NativeAccess() {
    }

    /**
     * Throws unless {@code caller}'s module may call native code (or is the unnamed module).
     *
     * @param caller a class of the module about to call native code
     * @param what   that module's role, for the message, e.g. "jshmem's runtime"
     */
    public static void require(Class<?> caller, String what) {
        Module m = caller.getModule();
        if (m.isNamed() && !m.isNativeAccessEnabled()) {
            String pe = Settings.system().text(Setting.JSHMEM_PE);
            throw new ShmemException((pe != null ? "PE " + pe + ": " : "") + what + " (module " + m.getName()
                    + ") calls native code through the FFM API, but the JVM was not started with native access for it: add"
                    + " --enable-native-access=" + MODULES + " to the java command (bin/oshrun -m adds it)");
        }
    }
}
