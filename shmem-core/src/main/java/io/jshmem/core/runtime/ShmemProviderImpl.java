/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.ForkSafetyReport;
import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ThreadLevel;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.NativeAccess;
import io.jshmem.core.base.Settings;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.bootstrap.Bootstraps;
import io.jshmem.core.forksafety.ForkSafety;
import io.jshmem.core.forksafety.Phase;
import io.jshmem.spi.ShmemProvider;
import java.util.Map;

/**
 * Creates the runtime of this process (found by {@code Shmem.init()} through ServiceLoader): one at
 * a time; after the last finalize, init starts a new one (OpenSHMEM 1.6 re-initialization) with
 * the next generation of the job's bootstrap, a new heap and new transport.
 */
public final class ShmemProviderImpl implements ShmemProvider {
    private static ShmemRuntime runtime;
    private static boolean finalized;
    /** The bootstrap of the runtime finalized last, from which a re-initialization continues; null before. */
    private static Bootstrap previous;

    @Override
    public Shmem init(ThreadLevel requested) {
        synchronized (ShmemProviderImpl.class) {
            if (runtime != null) {
                runtime.initCalls++; // to be matched by one more close()
                return runtime;
            }
            NativeAccess.require(ShmemProviderImpl.class, "jshmem's runtime");
            Map<String, String> env = Settings.systemEnvironment();
            SubprocessGuard.checkMayInitialize(env);
            Config config = Config.fromEnvironment(env);
            Bootstrap bootstrap;
            try {
                bootstrap = Bootstraps.select(env, previous);
            } catch (IllegalStateException e) {
                if (previous == null) {
                    throw e;
                }
                throw new ShmemException("PE " + previous.rank() + ": initializing jshmem again after finalize failed: "
                        + e.getMessage(), e);
            }
            try {
                runtime = ShmemRuntime.create(bootstrap, config, requested == null ? ThreadLevel.SINGLE : requested);
            } catch (RuntimeException e) {
                bootstrap.close();
                throw e instanceof ShmemException ? e
                        : new ShmemException("PE " + bootstrap.rank() + ": initialization failed: " + e, e);
            }
            return runtime;
        }
    }

    @Override
    public boolean initialized() {
        synchronized (ShmemProviderImpl.class) {
            return runtime != null;
        }
    }

    @Override
    public ForkSafetyReport forkSafety() {
        ShmemRuntime r;
        synchronized (ShmemProviderImpl.class) {
            r = runtime;
        }
        return r != null ? r.forkSafetyReport() : ForkSafety.beforeInit(Settings.systemEnvironment());
    }

    /** Where this process is in the jshmem life cycle (for shmem-spawn's child marker). */
    public static Phase phase() {
        synchronized (ShmemProviderImpl.class) {
            return runtime != null ? Phase.INITIALIZED : finalized ? Phase.FINALIZED : Phase.BEFORE_INIT;
        }
    }

    /** {@return this process's PE number while jshmem is initialized, else -1 (for shmem-spawn's messages)} */
    public static int initializedPe() {
        synchronized (ShmemProviderImpl.class) {
            return runtime != null ? runtime.myPe() : -1;
        }
    }

    /**
     * Counts one close() of {@code r}; true when it matches the last unmatched init (or there is
     * none left: closing again after finalize), so that close() must finalize.
     */
    static boolean releaseInit(ShmemRuntime r) {
        synchronized (ShmemProviderImpl.class) {
            if (r.initCalls > 1) {
                r.initCalls--;
                return false;
            }
            r.initCalls = 0;
            return true;
        }
    }

    static void finalizedNow(ShmemRuntime r) {
        synchronized (ShmemProviderImpl.class) {
            if (runtime == r) {
                previous = r.bootstrap();
                runtime = null;
                finalized = true;
            }
        }
    }
}
