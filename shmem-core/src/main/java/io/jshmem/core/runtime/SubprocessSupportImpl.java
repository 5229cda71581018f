/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.core.base.ProcFs;
import io.jshmem.core.base.Settings;
import io.jshmem.core.forksafety.ChildEnvironment;
import io.jshmem.core.forksafety.PeIdentity;
import io.jshmem.core.forksafety.SpawnMarker;
import io.jshmem.spi.SubprocessSupport;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** The runtime's side of {@code io.jshmem.spawn.Spawn} (found through {@link SubprocessSupport}). */
public final class SubprocessSupportImpl implements SubprocessSupport {

    /** For {@link java.util.ServiceLoader}. */
    public SubprocessSupportImpl() {
    }

    @Override
    public Map<String, String> stripIdentity(Map<String, String> environment) {
        ChildEnvironment.strip(environment).remove(SpawnMarker.VARIABLE);
        return environment;
    }

    @Override
    public Optional<String> childMarker() {
        return SpawnMarker.forChild(Settings.systemEnvironment(), ProcFs.selfPid(), ShmemProviderImpl.phase())
                .map(SpawnMarker::encode);
    }

    @Override
    public OptionalInt pe() {
        int pe = ShmemProviderImpl.initializedPe();
        if (pe >= 0) {
            return OptionalInt.of(pe);
        }
        return PeIdentity.find(Settings.systemEnvironment(), PeIdentity.Scheme.ACTIVE).map(id -> OptionalInt.of(id.pe()))
                .orElse(OptionalInt.empty());
    }
}
