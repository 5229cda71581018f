/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Logging helpers a user's logging configuration names: {@link io.jshmem.logging.PeFileHandler}, a
 * {@code java.util.logging} file handler with one file per PE.
 */
package io.jshmem.logging;
