/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Subprocesses from jshmem programs, safe at any point of the program: {@link io.jshmem.spawn.Spawn}
 * (the builder) and {@link io.jshmem.spawn.Subprocess} (the handle).
 *
 * <p>The proposed OpenSHMEM subprocess clauses (OpenSHMEM PR #474) say: a process forked before
 * initialization may be initialized by only one of parent and child (clause 1); a child created
 * within the OpenSHMEM portion or after finalize must not call OpenSHMEM routines (clause 2);
 * implementations may not support fork, and applications should use posix_spawn (clause 3);
 * implicit finalization must not run in such children (clause 4). jshmem enforces 1 and 2 at
 * init (a refused child gets a {@code SubprocessRefusedException} naming the clause and the
 * owning process), applies {@code JSHMEM_FORK_POLICY} for 3, and finalizes implicitly only in the
 * initializing process (4). This package is the posix_spawn of clause 3 for Java programs.
 */
package io.jshmem.spawn;
