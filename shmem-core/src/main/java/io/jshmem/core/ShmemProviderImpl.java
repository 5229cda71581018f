package io.jshmem.core;

import io.jshmem.Shmem;
import io.jshmem.ShmemException;
import io.jshmem.ThreadLevel;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.bootstrap.SingletonBootstrap;
import io.jshmem.core.bootstrap.TcpBootstrap;
import io.jshmem.spi.ShmemProvider;

/** Creates the one runtime of this process (found by {@code Shmem.init()} through ServiceLoader). */
public final class ShmemProviderImpl implements ShmemProvider {
    private static ShmemRuntime runtime;
    private static boolean finalized;

    @Override
    public Shmem init(ThreadLevel requested) {
        synchronized (ShmemProviderImpl.class) {
            if (runtime != null) {
                return runtime;
            }
            if (finalized) {
                throw new ShmemException("jshmem was already finalized in this process; it cannot be initialized again");
            }
            Config config = Config.fromEnvironment(System.getenv());
            Bootstrap bootstrap = selectBootstrap();
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

    static void finalizedNow(ShmemRuntime r) {
        synchronized (ShmemProviderImpl.class) {
            if (runtime == r) {
                runtime = null;
                finalized = true;
            }
        }
    }

    /** The launcher's bootstrap when this process was started by one, else a job of one PE. */
    static Bootstrap selectBootstrap() {
        Bootstrap b = TcpBootstrap.fromEnvironment(System.getenv());
        return b != null ? b : new SingletonBootstrap();
    }
}
