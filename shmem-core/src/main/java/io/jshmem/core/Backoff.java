package io.jshmem.core;

import java.util.concurrent.locks.LockSupport;

/**
 * How a PE waits: spin briefly, then yield the core many times, and only after a long wait park
 * for growing intervals. Yielding rather than parking through the first milliseconds matters: a
 * PE that parks wakes up a park interval late, so a partner that was merely descheduled for a
 * moment (more runnable processes than cores) would make every barrier cost that interval.
 * Parking is for PEs that are really idle. Stateless apart from the settings: callers keep the
 * iteration count in a local variable, so waiting allocates nothing.
 *
 * <pre>{@code
 * for (int i = 0; !condition(); ) i = backoff.idle(i);
 * }</pre>
 */
public final class Backoff {
    /** About 5-20 ms of yielding on an idle machine (far longer when others want the cores). */
    private static final int YIELDS = 20_000;
    private static final int ABORT_CHECK_EVERY = 64;
    private static final long MIN_PARK_NANOS = 20_000;
    private static final long MAX_PARK_NANOS = 200_000;

    private final int spins;
    private final int parkFrom;
    private final Runnable abortCheck;

    /**
     * @param oversubscribed whether more PEs share this node than it has cores: then long spinning
     *                       only steals time from the PE being waited for, so yield sooner
     * @param abortCheck     run on the slow path; throws when the job is being aborted
     */
    public Backoff(boolean oversubscribed, Runnable abortCheck) {
        this.spins = oversubscribed ? 64 : 4_000;
        this.parkFrom = spins + YIELDS;
        this.abortCheck = abortCheck;
    }

    /** Waits a little; returns the next iteration count. */
    public int idle(int iteration) {
        if (iteration < spins) {
            Thread.onSpinWait();
        } else if (iteration < parkFrom) {
            if (iteration % ABORT_CHECK_EVERY == 0) {
                abortCheck.run();
            }
            Thread.yield();
        } else {
            abortCheck.run();
            int parks = iteration - parkFrom;
            LockSupport.parkNanos(Math.min(MAX_PARK_NANOS, MIN_PARK_NANOS << Math.min(4, parks)));
            return parks > 1_000_000 ? iteration : iteration + 1;
        }
        return iteration + 1;
    }
}
