package io.jshmem.core.forksafety;

import io.jshmem.ShmemException;

/**
 * Thrown by init in a process that the OpenSHMEM subprocess clauses forbid to initialize: a
 * subprocess of a PE (clauses 1 and 2), or a process whose JVM forks while fork is not safe and
 * {@code JSHMEM_FORK_POLICY=refuse} (clause 3). Nothing has been sent to the job when it is thrown.
 */
public final class SubprocessRefusedException extends ShmemException {
    private static final long serialVersionUID = 1L;

    private final int clause;
    private final long ownerPid;

    public SubprocessRefusedException(int clause, long ownerPid, String message) {
        super(message);
        this.clause = clause;
        this.ownerPid = ownerPid;
    }

    /** The clause of the proposed OpenSHMEM subprocess text (PR #474) that applies: 1, 2 or 3. */
    public int clause() {
        return clause;
    }

    /** The process that owns the PE identity, or -1 (clause 3). */
    public long ownerPid() {
        return ownerPid;
    }
}
