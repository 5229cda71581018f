/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

/** A problem with the input (missing, foreign, truncated or mixed recordings): shmem-report prints the message and exits with status 1. */
final class ReportException extends Exception {
    private static final long serialVersionUID = 1L;

    ReportException(String message) {
        super(message);
    }

    ReportException(String message, Throwable cause) {
        super(message, cause);
    }
}
