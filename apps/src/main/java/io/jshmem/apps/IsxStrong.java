/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

/**
 * ISx, STRONG scaling (the C program {@code isx.strong}): {@code IsxStrong <total num keys(strong) | keys per pe(weak)> [iterations] <log_file>}.
 */
public final class IsxStrong {
    private IsxStrong() {
    }

    public static void main(String[] args) {
        Prk.exit(Isx.main(Isx.Scaling.STRONG, "isx.strong", args));
    }
}
