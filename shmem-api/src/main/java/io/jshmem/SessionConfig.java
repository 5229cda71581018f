/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * shmem_ctx_session_config_t: hints for a communication session started with
 * {@code sessionStart(options, config, configMask)} ({@link Shmem#sessionStart(long, SessionConfig, long)},
 * {@link ShmemContext#sessionStart(long, SessionConfig, long)}). Hints never change the result of
 * any transfer, completion or ordering.
 *
 * @param totalOps the expected maximum number of RMA calls in the session, an unsigned
 *        {@code size_t}: {@code -1} is {@code SIZE_MAX}, the default (not specified)
 */
public record SessionConfig(long totalOps) {
    /** SHMEM_CTX_SESSION_TOTAL_OPS: the config-mask bit selecting {@link #totalOps}. */
    public static final long TOTAL_OPS = 1L;
    /** The values used for fields the mask does not select: {@code total_ops = SIZE_MAX}. */
    public static final SessionConfig DEFAULT = new SessionConfig(-1L);

    /**
     * The configuration a session uses: the fields of {@code config} selected by {@code configMask},
     * the defaults for the others. {@code config} may be null when the mask is 0.
     *
     * @param config the requested values (read only where the mask selects them)
     * @param configMask a bitwise or of the field bits ({@link #TOTAL_OPS}), 0 for all defaults
     * @return the configuration in effect
     *
     * @throws NullPointerException if the mask selects a field and {@code config} is null
     * @throws IllegalArgumentException if the mask has bits other than {@link #TOTAL_OPS}
     */
    public static SessionConfig effective(SessionConfig config, long configMask) {
        if ((configMask & ~TOTAL_OPS) != 0) {
            throw new IllegalArgumentException("session config mask has unknown bits 0x"
                    + Long.toHexString(configMask & ~TOTAL_OPS) + " (SHMEM_CTX_SESSION_TOTAL_OPS is 0x1)");
        }
        if (configMask == 0) {
            return DEFAULT;
        }
        if (config == null) {
            throw new NullPointerException("session config is null but the mask selects total_ops");
        }
        return new SessionConfig(config.totalOps());
    }
}
