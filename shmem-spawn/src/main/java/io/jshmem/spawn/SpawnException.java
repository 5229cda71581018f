/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn;

import io.jshmem.ShmemException;

/**
 * A subprocess could not be started: the command does not exist or cannot be executed, the working
 * directory or a redirect file is unusable, or the platform cannot spawn safely. The message names
 * the command; the cause is the underlying {@link java.io.IOException} when there is one.
 */
public class SpawnException extends ShmemException {
    private static final long serialVersionUID = 1L;

    /**
     * A spawn failure without an underlying exception.
     *
     * @param message what failed, naming the command
     */
    public SpawnException(String message) {
        super(message);
    }

    /**
     * A spawn failure caused by {@code cause}.
     *
     * @param message what failed, naming the command
     * @param cause   the underlying exception (usually an {@link java.io.IOException})
     */
    public SpawnException(String message, Throwable cause) {
        super(message, cause);
    }
}
