/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Service-provider interfaces between the API and the runtime, found with
 * {@link java.util.ServiceLoader}: {@link io.jshmem.spi.ShmemProvider} (how
 * {@link io.jshmem.Shmem#init()} finds the runtime) and {@link io.jshmem.spi.SubprocessSupport} (what
 * {@code io.jshmem.spawn} asks the runtime about a child's environment). shmem-core provides both.
 * Not for applications.
 */
package io.jshmem.spi;
