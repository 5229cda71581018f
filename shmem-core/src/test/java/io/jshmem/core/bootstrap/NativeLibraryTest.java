/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.NativeLibrary;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link NativeLibrary}, the binding helper: a missing PMI client library is reported with what
 * needs it and how to install it; a missing optional library is empty; a missing function is named.
 */
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

    @Test
    void optionalLibrariesAndFunctions() throws Throwable {
        assertTrue(NativeLibrary.find("libjshmem-no-such-library.so.0").isEmpty());
        NativeLibrary libc = NativeLibrary.find("libc.so.6").orElseThrow();
        assertTrue(libc.has("getpid"));
        assertFalse(libc.has("jshmem_no_such_function"));
        MethodHandle getpid = libc.function("getpid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
        assertEquals(ProcessHandle.current().pid(), (int) getpid.invokeExact());
        String m = assertThrows(ShmemException.class,
                () -> libc.function("jshmem_no_such_function", FunctionDescriptor.ofVoid())).getMessage();
        assertTrue(m.contains("libc.so.6 has no function jshmem_no_such_function"), m);
    }

    @Test
    void theCLibrary() throws Throwable {
        MethodHandle getpid = NativeLibrary.libc("getpid", FunctionDescriptor.of(ValueLayout.JAVA_INT));
        assertEquals(ProcessHandle.current().pid(), (int) getpid.invokeExact());
        String m = assertThrows(ShmemException.class,
                () -> NativeLibrary.libc("jshmem_no_such_function", FunctionDescriptor.ofVoid())).getMessage();
        assertTrue(m.contains("the C library has no function jshmem_no_such_function"), m);
    }
}
