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
import java.util.Optional;

/**
 * The one way shmem-core binds native code through the FFM API: a library (the C library, a
 * library that may be missing, or a launcher's client library whose absence is an error naming the
 * fix), and downcall handles to its functions, failing with a message that names the library and
 * the function. Callers make each handle once and keep it: as a {@code static final} constant, in
 * a holder class when it should be made on first use (the JIT folds either into the call site), or
 * in a final field of an object made once when the library is chosen at run time (the PMI
 * bootstraps); never a lookup per call. (shmem-ucx's {@code Ucp} follows the same rules with its
 * own two lookups, libucp's and the C library's.)
 */
@SuppressWarnings("restricted") // native access is the point; PEs run with --enable-native-access=ALL-UNNAMED
public final class NativeLibrary {
    private final String name;
    private final SymbolLookup lookup;

    private NativeLibrary(String name, SymbolLookup lookup) {
        this.name = name;
        this.lookup = lookup;
    }

    /**
     * The library {@code soname} if the dynamic linker finds it, loaded for good (global arena).
     *
     * @param soname the library's file name, e.g. {@code libibverbs.so.1}
     * @return the library, or empty if it is not installed
     */
    public static Optional<NativeLibrary> find(String soname) {
        try {
            return Optional.of(new NativeLibrary(soname, SymbolLookup.libraryLookup(soname, Arena.global())));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
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
            Optional<NativeLibrary> lib = find(n);
            if (lib.isPresent()) {
                return lib.get();
            }
            tried.add(n);
        }
        throw new ShmemException(why + ", but its client library " + String.join(" / ", tried)
                + " is not installed (the dynamic linker cannot find it): " + fix
                + " (or set " + overrideVar + " to the library's path)");
    }

    /** Whether the library exports {@code function}. */
    public boolean has(String function) {
        return lookup.find(function).isPresent();
    }

    /**
     * A downcall to {@code function} of this library.
     *
     * @throws ShmemException naming the library and the function if the library has no such function
     */
    public MethodHandle function(String function, FunctionDescriptor descriptor, Linker.Option... options) {
        MemorySegment address = lookup.find(function).orElseThrow(() -> new ShmemException(
                name + " has no function " + function + " (an incompatible version?)"));
        return Linker.nativeLinker().downcallHandle(address, descriptor, options);
    }

    /**
     * A downcall to a function of the C library (or of another library the JVM has loaded: the
     * linker's default lookup).
     *
     * @throws ShmemException naming the function if the C library has none of that name
     */
    public static MethodHandle libc(String function, FunctionDescriptor descriptor, Linker.Option... options) {
        Linker linker = Linker.nativeLinker();
        MemorySegment address = linker.defaultLookup().find(function).orElseThrow(() -> new ShmemException(
                "the C library has no function " + function));
        return linker.downcallHandle(address, descriptor, options);
    }

    String name() {
        return name;
    }

    /** What to throw for the Throwable a downcall's {@code invokeExact} threw: runtime exceptions and errors as they are. */
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
