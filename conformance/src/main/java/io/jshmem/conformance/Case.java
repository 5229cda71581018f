/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

/**
 * One conformance case: a named body that every PE runs, collectively where needed.
 *
 * @param name   unique name, {@code group.what[.type]}; filters match substrings of it
 * @param minPes the case is skipped (on every PE) in jobs with fewer PEs
 * @param body   the checks; failures are recorded in the {@link CaseContext}, not thrown
 */
public record Case(String name, int minPes, Body body) {

    /** The checks of a case. */
    @FunctionalInterface
    public interface Body {
        void run(CaseContext c) throws Exception;
    }

    public Case {
        if (name.isBlank() || name.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("case names have no white space: \"" + name + "\"");
        }
    }

    /** A case that runs at any number of PEs. */
    public static Case of(String name, Body body) {
        return new Case(name, 1, body);
    }

    /** A case that needs at least {@code minPes} PEs and is skipped below that. */
    public static Case atLeast(int minPes, String name, Body body) {
        return new Case(name, minPes, body);
    }
}
