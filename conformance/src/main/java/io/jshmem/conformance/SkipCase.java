/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

/** Thrown by a case body (identically on every PE) to report SKIP with a reason. */
public final class SkipCase extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SkipCase(String reason) {
        super(reason, null, false, false);
    }
}
