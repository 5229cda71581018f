/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

/**
 * ISx, WEAK_ISOBUCKET scaling (the C program {@code isx.weak_iso}): {@code IsxWeakIso <total num keys(strong) | keys per pe(weak)> [iterations] <log_file>}.
 */
public final class IsxWeakIso {
    private IsxWeakIso() {
    }

    public static void main(String[] args) {
        Prk.exit(Isx.main(Isx.Scaling.WEAK_ISOBUCKET, "isx.weak_iso", args));
    }
}
