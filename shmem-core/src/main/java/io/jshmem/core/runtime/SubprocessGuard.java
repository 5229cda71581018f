/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.core.base.ProcFs;
import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import io.jshmem.core.forksafety.ForkPolicy;
import io.jshmem.core.forksafety.IdentityGuard;
import io.jshmem.core.forksafety.OwnerMarker;
import io.jshmem.core.forksafety.PeIdentity;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Enforces the OpenSHMEM subprocess clauses at init: a process that inherited a PE's identity
 * from its parent (a child created before init, within the SHMEM portion, or after finalize) may
 * not initialize as that PE (clauses 1 and 2, {@link IdentityGuard}); a JVM whose ProcessBuilder
 * forks while fork is not safe is warned or refused ({@code JSHMEM_FORK_POLICY}, clause 3,
 * {@link ForkPolicy}). Then the process claims its identity ({@link OwnerMarker}) so that its own
 * children can be told apart later. Runs before the bootstrap is touched.
 */
final class SubprocessGuard {
    private SubprocessGuard() {
    }

    /** Throws a ShmemException naming the clause and the owning process when this process may not initialize. */
    static void checkMayInitialize(Map<String, String> env) {
        IdentityGuard.check(env);
        ForkPolicy.checkAtInit(env);
        Optional<PeIdentity> id = PeIdentity.find(env, PeIdentity.Scheme.ACTIVE);
        if (id.isPresent()) {
            OwnerMarker.claim(id.get(), Path.of(Settings.of(env).text(Setting.JSHMEM_SHM_DIR)), ProcFs.SYSTEM);
        }
    }
}
