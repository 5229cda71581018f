/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import io.jshmem.ShmemException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A shared library of a launcher interface (libpmi2, libpmix), loaded once, with downcalls into it. */
@SuppressWarnings("restricted") // native access is the point; PEs run with --enable-native-access=ALL-UNNAMED
public final class NativeLibrary {
    private static final Linker LINKER = Linker.nativeLinker();

    private final String name;
    private final SymbolLookup lookup;

    private NativeLibrary(String name, SymbolLookup lookup) {
        this.name = name;
        this.lookup = lookup;
    }

    /**
     * Loads {@code override} (the path given by environment variable {@code overrideVar}, parsed
     * by {@link io.jshmem.core.base.Config.Network}) if not null, else the first of {@code names} the
     * dynamic linker finds.
     *
     * @param why what needs it, for the message ("srun --mpi=pmi2 started this PE")
     * @param fix how to install it, for the message
     * @throws ShmemException naming the library, why it is needed and {@code fix}, if none loads
     */
    public static NativeLibrary load(String override, String overrideVar, List<String> names, String why, String fix) {
        List<String> tried = new ArrayList<>();
        if (override != null && !override.isBlank()) {
            try {
                return new NativeLibrary(override, SymbolLookup.libraryLookup(Path.of(override.strip()), Arena.global()));
            } catch (IllegalArgumentException e) {
                throw new ShmemException(why + ", but " + overrideVar + "=" + override + " cannot be loaded ("
                        + e.getMessage() + "): " + fix);
            }
        }
        for (String n : names) {
            try {
                return new NativeLibrary(n, SymbolLookup.libraryLookup(n, Arena.global()));
            } catch (IllegalArgumentException e) {
                tried.add(n);
            }
        }
        throw new ShmemException(why + ", but its client library " + String.join(" / ", tried)
                + " is not installed (the dynamic linker cannot find it): " + fix
                + " (or set " + overrideVar + " to the library's path)");
    }

    /** A downcall to {@code function}. */
    public MethodHandle function(String function, FunctionDescriptor descriptor) {
        MemorySegment address = lookup.find(function).orElseThrow(() -> new ShmemException(
                name + " has no function " + function + " (an incompatible version?)"));
        return LINKER.downcallHandle(address, descriptor);
    }

    /** A downcall to a C library function (free). */
    public static MethodHandle libc(String function, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(function).orElseThrow(), descriptor);
    }

    String name() {
        return name;
    }

    /** Invokes a downcall returning int, wrapping the Throwable that invokeExact declares. */
    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
