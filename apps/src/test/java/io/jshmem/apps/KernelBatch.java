/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs several kernels one after the other in one job (each initializes and finalizes jshmem,
 * OpenSHMEM 1.6 allows initializing again), so that the tests start fewer JVMs:
 * {@code KernelBatch Stencil 3 24 -- Transpose 3 16 4 -- P2p 3 20 10}. A kernel that fails exits
 * the PE with its status, as it would alone.
 */
public final class KernelBatch {
    private KernelBatch() {
    }

    public static void main(String[] args) {
        List<String> group = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--")) {
                runOne(group);
                group.clear();
            } else {
                group.add(a);
            }
        }
        runOne(group);
    }

    private static void runOne(List<String> group) {
        if (group.isEmpty()) {
            return;
        }
        String[] kernelArgs = group.subList(1, group.size()).toArray(new String[0]);
        switch (group.get(0)) {
            case "Stencil" -> Stencil.main(kernelArgs);
            case "Transpose" -> Transpose.main(kernelArgs);
            case "P2p" -> P2p.main(kernelArgs);
            case "IsxStrong" -> IsxStrong.main(kernelArgs);
            case "IsxWeak" -> IsxWeak.main(kernelArgs);
            case "IsxWeakIso" -> IsxWeakIso.main(kernelArgs);
            default -> throw new IllegalArgumentException("no kernel " + group.get(0) + " in " + Arrays.toString(group.toArray()));
        }
    }
}
