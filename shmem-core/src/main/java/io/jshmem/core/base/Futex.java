/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Objects;

/**
 * Linux {@code futex(2)} on words of the shared heap mappings, called through {@code syscall(3)}.
 * Only the shared (not {@code FUTEX_PRIVATE_FLAG}) operations are used: a private futex is keyed by
 * the address space, so a wake from another process would never reach the waiter; a shared one on
 * a file mapping is keyed by (inode, offset), which is how PEs mapping the same segment at
 * different addresses meet.
 *
 * <p>Linking the downcall costs tens of milliseconds of class loading the first time (the FFM
 * linker), so it is done on a background thread the first time a PE is about to sleep or wake
 * someone ({@link #warmUp}); until {@link #ready} the caller parks on a timer instead. Where the
 * syscall is not available (another OS or architecture) it never becomes ready.
 */
public final class Futex {
    private static volatile boolean ready;
    private static volatile boolean warming;

    private Futex() {
    }

    /** Whether futex waits and wakes can be used now. */
    public static boolean ready() {
        return ready;
    }

    /** Links the syscall in the background, once. */
    public static void warmUp() {
        if (!warming) {
            synchronized (Futex.class) {
                if (!warming) {
                    warming = true;
                    Thread.ofPlatform().daemon().name("jshmem-futex-link").start(() -> ready = Linked.AVAILABLE);
                }
            }
        }
    }

    /** Whether the syscall can be linked here at all (links it: the first call is slow). */
    public static boolean available() {
        return Linked.AVAILABLE;
    }

    /**
     * Sleeps while the 32-bit word at {@code offset} of {@code seg} holds {@code expected}, at most {@code nanos}.
     * An address, not a slice of {@code seg}: a slice handed to the downcall is a new object, since
     * this slow path is not inlined where escape analysis could remove it (under load every wait
     * that slept, and every wake, allocated one).
     */
    public static void await(MemorySegment seg, long offset, int expected, long nanos) {
        Linked.await(wordAddress(seg, offset), expected, nanos);
    }

    /** Wakes every thread sleeping on the 32-bit word at {@code offset} of {@code seg}, in any process. */
    public static void wakeAll(MemorySegment seg, long offset) {
        Linked.wakeAll(wordAddress(seg, offset));
    }

    private static long wordAddress(MemorySegment seg, long offset) {
        Objects.checkFromIndexSize(offset, 4, seg.byteSize());
        return seg.address() + offset;
    }

    /** The linked syscall; initialized on first use. */
    private static final class Linked {
        private static final int FUTEX_WAIT = 0;
        private static final int FUTEX_WAKE = 1;
        private static final MethodHandle SYSCALL;
        private static final long SYS_FUTEX;
        static final boolean AVAILABLE;
        /** A timespec per thread: a sleep allocates nothing after a thread's first. */
        private static final ThreadLocal<MemorySegment> TIMESPEC =
                ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(16, 8));

        static {
            String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
            long nr = !System.getProperty("os.name", "").equals("Linux") ? -1
                    : arch.equals("amd64") || arch.equals("x86_64") ? 202
                    : arch.equals("aarch64") ? 98 : -1;
            MethodHandle h = null;
            if (nr > 0) {
                try {
                    // long syscall(long nr, uint32_t *uaddr, int op, int val, const struct timespec *t, int *uaddr2, int val3)
                    // The pointers as 64-bit integers (the same registers on the 64-bit ABIs above):
                    // a MemorySegment argument would have to be an object, allocated by the caller.
                    h = NativeLibrary.libc("syscall",
                            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                                    ValueLayout.JAVA_INT),
                            Linker.Option.firstVariadicArg(1));
                } catch (RuntimeException | LinkageError e) {
                    h = null; // e.g. native access denied: fall back to parking
                }
            }
            SYSCALL = h;
            SYS_FUTEX = nr;
            AVAILABLE = h != null;
        }

        /**
         * Sleeps while the 32-bit word at address {@code word} holds {@code expected}, at most {@code nanos}.
         * Returns on a wake, a timeout, a signal, or at once when the word differs: callers re-check.
         */
        static void await(long word, int expected, long nanos) {
            MemorySegment ts = TIMESPEC.get();
            ts.set(ValueLayout.JAVA_LONG, 0, nanos / 1_000_000_000L);
            ts.set(ValueLayout.JAVA_LONG, 8, nanos % 1_000_000_000L);
            try {
                long unused = (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAIT, expected, ts.address(), 0L, 0);
            } catch (Throwable t) {
                throw new IllegalStateException("futex wait failed", t);
            }
        }

        /** Wakes every thread sleeping on the 32-bit word at address {@code word}, in any process. */
        static void wakeAll(long word) {
            try {
                long unused = (long) SYSCALL.invokeExact(SYS_FUTEX, word, FUTEX_WAKE, Integer.MAX_VALUE, 0L, 0L, 0);
            } catch (Throwable t) {
                throw new IllegalStateException("futex wake failed", t);
            }
        }
    }
}
