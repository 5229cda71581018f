/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * shmem_team_config_t: options of a new team.
 *
 * @param numContexts how many contexts the team is expected to create (a hint; 0 = none promised)
 */
public record TeamConfig(int numContexts) {
    /**
     * A team configuration.
     *
     * @param numContexts how many contexts the team is expected to create (a hint; 0 = none promised)
     * @throws IllegalArgumentException if {@code numContexts} is negative
     */
    public TeamConfig {
        if (numContexts < 0) {
            throw new IllegalArgumentException("TeamConfig: numContexts " + numContexts
                    + " is negative (it is how many contexts the team is expected to create, 0 or more)");
        }
    }

    /** SHMEM_TEAM_NUM_CONTEXTS: the config-mask bit selecting {@link #numContexts}. */
    public static final long NUM_CONTEXTS = 1L;
    /** The configuration used when the mask selects nothing. */
    public static final TeamConfig DEFAULT = new TeamConfig(0);
}
