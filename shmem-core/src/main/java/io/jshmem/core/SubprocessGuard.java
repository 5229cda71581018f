package io.jshmem.core;

import java.util.Map;

/**
 * Enforces the OpenSHMEM subprocess clauses at init: a process that inherited a PE's identity
 * from its parent (a child created before init, within the SHMEM portion, or after finalize) may
 * not initialize as that PE.
 */
final class SubprocessGuard {
    private SubprocessGuard() {
    }

    /** Throws a ShmemException naming the clause and the owning process when this process may not initialize. */
    static void checkMayInitialize(Map<String, String> env) {
        // Implemented with the subprocess (spawn) support.
    }
}
