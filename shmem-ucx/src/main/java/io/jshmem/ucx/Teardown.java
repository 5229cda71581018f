/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

/**
 * Releasing a PE's UCX resources, in the one order that is safe whatever state init or the job
 * reached: mark closed (later calls fail with "closed"), stop the progress thread (nothing touches
 * the worker behind our back), release the contexts' channels, then the main channel (endpoints
 * closed: flushed when graceful, forced when failing, never waiting for a dead peer beyond a
 * bounded 200 ms), then unregister the heap and clean the context up, so the runtime may unmap
 * the heap afterwards, and free the native scratch memory.
 */
final class Teardown {
    private Teardown() {
    }

    /**
     * shmem_finalize's part, collective: completes outstanding operations and waits at a
     * bootstrap fence so no peer still talks to this PE, then releases. Degrades to
     * {@link #abandon} when the job is failing.
     */
    static void finalizeCollective(UcxTransport t) {
        UcxJob job = t.job;
        if (!t.markClosed()) {
            return;
        }
        boolean graceful = job.abortReason == null && !job.peerFailed && t.main.workerHandle != 0;
        if (graceful) {
            try {
                t.closeChildren(true);
                t.main.flushAll();
                job.bootstrap.fence();
            } catch (RuntimeException e) {
                graceful = false;
            }
        }
        release(t, graceful);
    }

    /**
     * Non-collective: for every failing path (init failed, a PE exiting because of an exception,
     * abort). Waits for no one; afterwards no thread, endpoint, listener or registration of this
     * transport remains and the heap may be unmapped.
     */
    static void abandon(UcxTransport t) {
        if (t.markClosed()) {
            release(t, false);
        }
    }

    private static void release(UcxTransport t, boolean graceful) {
        UcxJob job = t.job;
        job.closed = true;
        if (t.progress != null) {
            t.progress.stop();
        }
        t.closeChildren(false);
        t.main.release(graceful);
        job.release();
        t.releaseScratch();
        job.arena.close();
    }
}
