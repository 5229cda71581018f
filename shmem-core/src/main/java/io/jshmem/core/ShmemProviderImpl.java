package io.jshmem.core;

import io.jshmem.ForkSafetyReport;
import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ThreadLevel;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.bootstrap.Bootstraps;
import io.jshmem.core.forksafety.ForkSafety;
import io.jshmem.core.forksafety.Phase;
import io.jshmem.spi.ShmemProvider;
import java.util.Map;

/** Creates the one runtime of this process (found by {@code Shmem.init()} through ServiceLoader). */
public final class ShmemProviderImpl implements ShmemProvider {
    private static ShmemRuntime runtime;
    private static boolean finalized;

    @Override
    public Shmem init(ThreadLevel requested) {
        synchronized (ShmemProviderImpl.class) {
            if (runtime != null) {
                runtime.initCalls++; // to be matched by one more close()
                return runtime;
            }
            if (finalized) {
                throw new ShmemException("jshmem was already finalized in this process; it cannot be initialized again");
            }
            NativeAccess.require(ShmemProviderImpl.class, "jshmem's runtime");
            Map<String, String> env = System.getenv();
            SubprocessGuard.checkMayInitialize(env);
            Config config = Config.fromEnvironment(env);
            Bootstrap bootstrap = Bootstraps.select(env);
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
        return r != null ? r.forkSafetyReport() : ForkSafety.beforeInit(System.getenv());
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
                runtime = null;
                finalized = true;
            }
        }
    }
}
