/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * Thrown by a routine that waits (barriers, collectives, {@code waitUntil}, locks, ...) when the job
 * is being aborted: another PE called {@code globalExit}, failed or died, or the launcher is ending
 * the job. The PE should not catch and go on: nothing that follows can complete, and the launcher
 * ends every PE within seconds.
 */
public final class JobAbortedException extends ShmemException {
    private static final long serialVersionUID = 1L;

    /** Why the job is being aborted. */
    private final String reason;

    /**
     * Creates the exception (the runtime does).
     *
     * @param reason  why the job is being aborted, as the launcher or the aborting PE said
     * @param message the PE that noticed it, and the reason
     */
    public JobAbortedException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    /** {@return why the job is being aborted, as the launcher or the aborting PE said} */
    public String reason() {
        return reason;
    }
}
