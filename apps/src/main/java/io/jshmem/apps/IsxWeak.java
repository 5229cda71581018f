/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

/**
 * ISx, WEAK scaling (the C program {@code isx.weak}): {@code IsxWeak <total num keys(strong) | keys per pe(weak)> [iterations] <log_file>}.
 */
public final class IsxWeak {
    private IsxWeak() {
    }

    public static void main(String[] args) {
        Prk.exit(Isx.main(Isx.Scaling.WEAK, "isx.weak", args));
    }
}
