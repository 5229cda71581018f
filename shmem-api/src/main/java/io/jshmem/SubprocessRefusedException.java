/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem;

/**
 * Thrown by {@link Shmem#init()} in a process that the proposed OpenSHMEM subprocess clauses
 * (OpenSHMEM PR #474) forbid to initialize: a subprocess of a PE (clauses 1 and 2: it carries the PE
 * identity of a process that owns it, or was started by {@code io.jshmem.spawn.Spawn} from a PE), or
 * a process whose JVM forks while fork is not safe and {@code JSHMEM_FORK_POLICY=refuse} (clause 3).
 * Nothing has been sent to the job when it is thrown, so the running job is not disturbed.
 */
public final class SubprocessRefusedException extends ShmemException {
    private static final long serialVersionUID = 1L;

    /** The clause that applies: 1, 2 or 3. */
    private final int clause;
    /** The process owning the PE identity, or -1. */
    private final long ownerPid;

    /**
     * Creates the exception (the runtime does, at init).
     *
     * @param clause   the subprocess clause that applies: 1, 2 or 3
     * @param ownerPid the process that owns the PE identity, or -1 (clause 3)
     * @param message  what was refused, why, and what to do
     */
    public SubprocessRefusedException(int clause, long ownerPid, String message) {
        super(message);
        this.clause = clause;
        this.ownerPid = ownerPid;
    }

    /** {@return the clause of the proposed OpenSHMEM subprocess text (PR #474) that applies: 1, 2 or 3} */
    public int clause() {
        return clause;
    }

    /** {@return the process that owns the PE identity, or -1 (clause 3)} */
    public long ownerPid() {
        return ownerPid;
    }
}
