/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import java.util.concurrent.locks.ReentrantLock;

/**
 * A lock over state of a channel that threads share, or none for a PRIVATE context's channel
 * (one thread): then locking costs a null check.
 */
final class OptionalLock {
    private final ReentrantLock lock;

    OptionalLock(boolean locked) {
        this.lock = locked ? new ReentrantLock() : null;
    }

    void lock() {
        if (lock != null) {
            lock.lock();
        }
    }

    void unlock() {
        if (lock != null) {
            lock.unlock();
        }
    }

    /** Whether some thread holds it now (a racy read); never, without a lock. */
    boolean isLocked() {
        return lock != null && lock.isLocked();
    }
}
