/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The checks a native segment of the caller's passes before UCX sees its address. On shared
 * memory the JDK's own {@code MemorySegment.copy} checks the segment; UCX takes a raw address, so
 * without these a closed segment's freed memory would be sent to a peer's heap (or the JVM would
 * die in native code), and a segment confined to another thread would be read or written behind
 * its owner's back. The exceptions are the JDK's, thrown in the same order as its copy checks
 * (bounds, then read-only, then liveness and thread), so both transports throw the same ones.
 */
final class LocalSegments {
    /** The scope of {@link Arena#global()} segments and of addresses made segments with {@code reinterpret}: never closed. */
    private static final MemorySegment.Scope GLOBAL = Arena.global().scope();
    /** The class of automatic arenas' scopes: freed by the collector only, once the segment is unreachable. */
    private static final Class<?> AUTOMATIC = Arena.ofAuto().scope().getClass();
    /** A thread that is never started: a segment it may access is not confined to the caller. */
    private static final Thread NOBODY = Thread.ofPlatform().unstarted(() -> { });

    private LocalSegments() {
    }

    /** Checks that {@code n} bytes of {@code s} from {@code at} may be read by this thread now. */
    static void checkRead(MemorySegment s, long at, long n) {
        Objects.checkFromIndexSize(at, n, s.byteSize());
        if (n > 0) {
            s.get(JAVA_BYTE, at); // the JDK's liveness and thread checks, with its exceptions
        }
    }

    /** Checks that {@code n} bytes of {@code s} from {@code at} may be written by this thread now. */
    static void checkWrite(MemorySegment s, long at, long n) {
        Objects.checkFromIndexSize(at, n, s.byteSize());
        if (s.isReadOnly()) {
            throw new IllegalArgumentException("Attempt to write a read-only segment"); // the JDK's words
        }
        if (n > 0) {
            s.get(JAVA_BYTE, at); // read, not written: a transfer in flight may be writing that byte
        }
    }

    /**
     * Whether {@code s} stays valid however long an operation on it runs: only the global scope
     * cannot be closed. Any other segment (an arena's, an automatic one, the symmetric heap) may be
     * released once the call that took it returns.
     */
    static boolean neverReleased(MemorySegment s) {
        return s.scope().equals(GLOBAL);
    }

    /**
     * Whether nobody can release {@code s} while the calling thread, which may access it (checked
     * before), is inside a blocking transfer that keeps it reachable: a segment confined to this
     * thread, an automatic one, a global one. A shared arena's segment may be closed by another
     * thread at any time; the JDK protects its own accesses against that, not UCX's.
     */
    static boolean stableDuringCall(MemorySegment s) {
        return !s.isAccessibleBy(NOBODY) || s.scope().getClass() == AUTOMATIC || neverReleased(s);
    }
}
