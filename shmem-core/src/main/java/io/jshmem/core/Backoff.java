package io.jshmem.core;

import java.util.concurrent.locks.LockSupport;

/**
 * How a PE waits: spin briefly, then yield, then park for growing intervals, so that 8 PEs on 2
 * cores still make progress. Stateless apart from the settings; callers keep the iteration count
 * in a local variable, so waiting allocates nothing.
 *
 * <pre>{@code
 * for (int i = 0; !condition(); ) i = backoff.idle(i);
 * }</pre>
 */
public final class Backoff {
    private static final int MAX_PARK_NANOS = 200_000;

    private final int spins;
    private final int yields;
    private final Runnable abortCheck;

    /**
     * @param oversubscribed whether more PEs share this node than it has cores: then spinning only
     *                       steals time from the PE being waited for, so yield almost at once
     * @param abortCheck     run on the slow path; throws when the job is being aborted
     */
    public Backoff(boolean oversubscribed, Runnable abortCheck) {
        this.spins = oversubscribed ? 16 : 4_000;
        this.yields = oversubscribed ? 2_000 : 200;
        this.abortCheck = abortCheck;
    }

    /** Waits a little; returns the next iteration count. */
    public int idle(int iteration) {
        if (iteration < spins) {
            Thread.onSpinWait();
        } else if (iteration < spins + yields) {
            if ((iteration & 63) == 0) {
                abortCheck.run();
            }
            Thread.yield();
        } else {
            abortCheck.run();
            long n = 1_000L << Math.min(8, (iteration - spins - yields) >> 4);
            LockSupport.parkNanos(Math.min(n, MAX_PARK_NANOS));
            if (iteration == Integer.MAX_VALUE - 1) {
                return iteration;
            }
        }
        return iteration + 1;
    }
}
