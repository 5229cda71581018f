/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import java.util.List;
import java.util.TreeSet;

/**
 * What eager wire-up learns from the lanes of the endpoints it makes (which transports, whose
 * atomics, one lane each), folded in by {@link Channel#connect} as each endpoint is made, from the
 * one {@code ucp_ep_print_info} it prints anyway for the endpoint's own lane check (60-115 us each).
 * Used under the channel's lock, by one wire-up at a time.
 */
final class EndpointFacts {
    private final TreeSet<String> transports = new TreeSet<>();
    private int endpoints;
    private boolean cpuAtomics = true;
    private boolean writesNeedProgress = true;
    private boolean oneLane = true;

    /** Folds in one endpoint's {@code ucp_ep_print_info}. */
    void add(String info) {
        List<String> one = List.of(info);
        endpoints++;
        transports.addAll(WireUp.transportsIn(info));
        cpuAtomics &= WireUp.cpuAtomics(info);
        writesNeedProgress &= WireUp.writesNeedProgress(one);
        oneLane &= WireUp.oneLane(one);
    }

    int endpoints() {
        return endpoints;
    }

    /** The transports of every lane, e.g. "tcp" or "posix, sysv". */
    String transports() {
        return transports.isEmpty() ? "no endpoints yet" : String.join(", ", transports);
    }

    /** Whether every endpoint's atomics are performed by the target's CPU ({@link WireUp#cpuAtomics}). */
    boolean cpuAtomics() {
        return cpuAtomics;
    }

    /** {@link WireUp#writesNeedProgress} of every endpoint (none: vacuously true). */
    boolean writesNeedProgress() {
        return writesNeedProgress;
    }

    /** {@link WireUp#oneLane} of every endpoint (none: vacuously true). */
    boolean oneLane() {
        return oneLane;
    }
}
