/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.comm;

/**
 * A context of this PE not destroyed yet (the default one and the created ones), as
 * {@link PeState#contexts} keeps it: what finalize needs of it, defined here so that the PE's
 * state does not depend on the runtime that implements contexts.
 */
public interface OpenContext {
    /** At finalize: makes the context unusable (every later call reports "after finalize"). */
    void invalidateAtFinalize();
}
