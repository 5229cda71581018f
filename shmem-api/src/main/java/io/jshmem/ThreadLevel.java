/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/** Thread-safety levels of {@code shmem_init_thread} (SHMEM_THREAD_*), weakest first. */
public enum ThreadLevel {
    /** SHMEM_THREAD_SINGLE: one thread in the process. */
    SINGLE,
    /** SHMEM_THREAD_FUNNELED: many threads, only the initializing thread calls jshmem. */
    FUNNELED,
    /** SHMEM_THREAD_SERIALIZED: many threads call jshmem, never at the same time. */
    SERIALIZED,
    /** SHMEM_THREAD_MULTIPLE: any thread may call jshmem at any time. */
    MULTIPLE
}
