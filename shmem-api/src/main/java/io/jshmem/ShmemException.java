/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * Thrown for every misuse jshmem detects (PE out of range, out-of-bounds index, a freed or foreign
 * symmetric object, use after finalize, ...) and for job-level failures. The message always names
 * the PE that raised it. Subclasses for the failures a program may want to tell apart:
 * {@link HeapExhaustedException} (the symmetric heap is full), {@link JobAbortedException} (another
 * PE or the launcher is ending the job), {@link SubprocessRefusedException} (init in a process the
 * subprocess clauses forbid to initialize), and {@code io.jshmem.spawn.SpawnException}.
 */
public class ShmemException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what went wrong, naming the PE
     */
    public ShmemException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message what went wrong, naming the PE
     * @param cause   the underlying failure
     */
    public ShmemException(String message, Throwable cause) {
        super(message, cause);
    }
}
