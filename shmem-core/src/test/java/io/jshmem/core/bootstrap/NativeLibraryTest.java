/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.NativeLibrary;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A missing PMI client library is reported with what needs it and how to install it. */
class NativeLibraryTest {
    @Test
    void missingLibraryNamesTheFix() {
        String m = assertThrows(ShmemException.class, () -> NativeLibrary.load((String) null, Pmi2Bootstrap.LIBRARY_VAR,
                List.of("libjshmem-no-such-pmi2.so.0"), "launched by srun --mpi=pmi2 (PMI_FD is set), which needs PMI-2",
                Pmi2Bootstrap.INSTALL_HINT)).getMessage();
        assertTrue(m.contains("launched by srun --mpi=pmi2"), m);
        assertTrue(m.contains("libjshmem-no-such-pmi2.so.0 is not installed"), m);
        assertTrue(m.contains("apt-get install libpmi2-0"), m);
        assertTrue(m.contains(Pmi2Bootstrap.LIBRARY_VAR), m);
    }

    @Test
    void badOverrideIsReported() {
        String m = assertThrows(ShmemException.class, () -> NativeLibrary.load(
                "/nonexistent/libpmix.so.2", PmixBootstrap.LIBRARY_VAR,
                List.of("libpmix.so.2"), "launched by Open MPI mpirun", PmixBootstrap.INSTALL_HINT)).getMessage();
        assertTrue(m.contains(PmixBootstrap.LIBRARY_VAR + "=/nonexistent/libpmix.so.2 cannot be loaded"), m);
        assertTrue(m.contains("apt-get install libpmix2"), m);
    }
}
