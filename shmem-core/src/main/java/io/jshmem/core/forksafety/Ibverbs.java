/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.forksafety;

import io.jshmem.core.base.NativeLibrary;
import io.jshmem.core.base.Settings;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * libibverbs' view of fork: {@code ibv_is_fork_initialized()} (rdma-core 35+), called through the
 * FFM API when {@code libibverbs.so.1} can be loaded and native access is enabled (oshrun and
 * bin/shmem-info enable it; without it the JDK would print a warning, so the library is then only
 * looked for, not loaded).
 */
public final class Ibverbs {
    public static final String LIBRARY = "libibverbs.so.1";

    /** What was found. */
    public enum State {
        /** libibverbs is not installed. */
        ABSENT,
        /** Installed, not asked (native access not enabled). */
        NOT_QUERIED,
        /** Installed without {@code ibv_is_fork_initialized} (rdma-core before 35), or the call failed. */
        QUERY_FAILED,
        /** IBV_FORK_DISABLED (0): fork support not enabled, kernel copy-on-fork not confirmed. */
        FORK_DISABLED,
        /** IBV_FORK_ENABLED (1): ibv_fork_init() was called (or RDMAV_FORK_SAFE set): registrations are MADV_DONTFORK. */
        FORK_ENABLED,
        /** IBV_FORK_UNNEEDED (2): the kernel copies pinned pages at fork (rdma-core asked it over RDMA netlink). */
        FORK_UNNEEDED;

        /** The value returned by ibv_is_fork_initialized(). */
        public static State ofForkInitialized(int value) {
            return switch (value) {
                case 0 -> FORK_DISABLED;
                case 1 -> FORK_ENABLED;
                case 2 -> FORK_UNNEEDED;
                default -> QUERY_FAILED;
            };
        }
    }

    /** A probe's result, with a note for the report. */
    public record Result(State state, String detail) {
    }

    private Ibverbs() {
    }

    /** Looks for libibverbs and, if native access is enabled, asks it. */
    public static Result probe() {
        if (!Ibverbs.class.getModule().isNativeAccessEnabled()) {
            Optional<String> where = locate();
            return where.isEmpty() ? new Result(State.ABSENT, LIBRARY + " not found")
                    : new Result(State.NOT_QUERIED, LIBRARY + " found (" + where.get()
                            + "); fork state not queried: native access is not enabled (--enable-native-access=ALL-UNNAMED, as oshrun gives)");
        }
        MethodHandle mh = Linked.IS_FORK_INITIALIZED;
        if (mh == null) {
            String why = Linked.FAILURE;
            return why == null ? new Result(State.ABSENT, LIBRARY + " cannot be loaded") : new Result(State.QUERY_FAILED, why);
        }
        try {
            int v = (int) mh.invokeExact();
            return new Result(State.ofForkInitialized(v), "ibv_is_fork_initialized() = " + v);
        } catch (Throwable t) {
            return new Result(State.QUERY_FAILED, "ibv_is_fork_initialized() failed: " + t);
        }
    }

    /**
     * {@code ibv_is_fork_initialized}, looked up when first asked for (after {@link #probe} has
     * checked that native access is enabled): null if libibverbs is not installed, or if it lacks
     * the function ({@link #FAILURE} then says so).
     */
    private static final class Linked {
        static final MethodHandle IS_FORK_INITIALIZED;
        static final String FAILURE;

        static {
            Optional<NativeLibrary> lib = NativeLibrary.find(LIBRARY);
            boolean has = lib.isPresent() && lib.get().has("ibv_is_fork_initialized");
            IS_FORK_INITIALIZED = has ? lib.get().function("ibv_is_fork_initialized", FunctionDescriptor.of(ValueLayout.JAVA_INT))
                    : null;
            FAILURE = lib.isPresent() && !has ? LIBRARY + " has no ibv_is_fork_initialized (rdma-core older than 35)" : null;
        }
    }

    /** Where libibverbs.so.1 is, judging by the dynamic linker's cache and the usual directories (no loading). */
    static Optional<String> locate() {
        List<String> dirs = new ArrayList<>();
        String ld = Settings.system().env("LD_LIBRARY_PATH");
        if (ld != null) {
            dirs.addAll(List.of(ld.split(":")));
        }
        dirs.addAll(List.of("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
                "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.exists(Path.of(d, LIBRARY))) {
                return Optional.of(Path.of(d, LIBRARY).toString());
            }
        }
        try {
            byte[] cache = Files.readAllBytes(Path.of("/etc/ld.so.cache"));
            if (new String(cache, StandardCharsets.ISO_8859_1).contains(LIBRARY)) {
                return Optional.of("in /etc/ld.so.cache");
            }
        } catch (java.io.IOException | RuntimeException e) {
            // no cache
        }
        return Optional.empty();
    }
}
