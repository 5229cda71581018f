/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.HeapExhaustedException;
import io.jshmem.Shmem;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Flight;
import io.jshmem.core.base.Log;
import io.jshmem.core.comm.PeState;
import io.jshmem.core.comm.SymArrayImpl;
import io.jshmem.core.heap.HeapAllocator;
import io.jshmem.core.team.TeamImpl;
import io.jshmem.core.team.TeamRegistry;
import java.lang.foreign.MemorySegment;

/**
 * Symmetric memory management of one PE: malloc, calloc, align, mallocWithHints, realloc and free
 * on the heap's allocator (every call collective over the world team, its arguments checked to
 * agree), the live objects finalize marks freed, and the heap-exhausted errors.
 */
final class SymmetricMemory {
    private final PeState st;
    private final TeamRegistry teams;
    private final TeamImpl world;
    /** Whether mallocWithHints has warned of unknown hint bits (once per PE). */
    private boolean warnedHints;

    SymmetricMemory(PeState st, TeamRegistry teams) {
        this.st = st;
        this.teams = teams;
        this.world = teams.world();
    }

    <T extends SymArray<?>> T malloc(SymType<T> type, long length) {
        return allocate("malloc", type, length, HeapAllocator.MIN_ALIGNMENT, false);
    }

    <T extends SymArray<?>> T calloc(SymType<T> type, long length) {
        return allocate("calloc", type, length, HeapAllocator.MIN_ALIGNMENT, true);
    }

    <T extends SymArray<?>> T align(long alignment, SymType<T> type, long length) {
        if (alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw st.error("align: alignment " + alignment + " is not a power of two");
        }
        return allocate("align", type, length, alignment, false);
    }

    <T extends SymArray<?>> T mallocWithHints(SymType<T> type, long length, long hints) {
        long unknown = hints & ~(Shmem.MALLOC_ATOMICS_REMOTE | Shmem.MALLOC_SIGNAL_REMOTE);
        if (unknown != 0 && !warnedHints) {
            // Ignored, as Sandia OpenSHMEM does (its tests-sos expect an object): the spec defines
            // the two hints only, and with hints it cannot use an implementation behaves as malloc.
            warnedHints = true;
            Log.CORE.warning("jshmem: PE " + st.me + ": mallocWithHints: ignoring unknown hint bits 0x" + Long.toHexString(unknown)
                    + " in hints 0x" + Long.toHexString(hints) + " (the hints are MALLOC_ATOMICS_REMOTE 0x1 and"
                    + " MALLOC_SIGNAL_REMOTE 0x2); said once");
        }
        // Hints only steer placement; on shared memory every placement is equally good.
        return allocate("mallocWithHints", type, length, HeapAllocator.MIN_ALIGNMENT, false);
    }

    private <T extends SymArray<?>> T allocate(String routine, SymType<T> type, long length, long alignment, boolean zero) {
        checkLive(routine);
        if (type == null) {
            throw st.error(routine + ": type is null");
        }
        if (length < 0) {
            throw st.error(routine + ": negative length " + length);
        }
        long bytes = checkedBytes(routine, type, length);
        Flight.Allocation ev = allocationEvent(routine, bytes);
        world.checkSameArgs(routine, "bytes", bytes, "alignment", alignment);
        SymArrayImpl<?> obj;
        synchronized (st.heap) {
            long off = bytes == 0 ? st.heap.allocator().base() : st.heap.allocator().allocate(bytes, alignment);
            if (off < 0) {
                if (alignment >= st.heap.allocator().capacity()) {
                    // Not a lack of space: no block of the heap can start on such a boundary.
                    throw st.error(routine + ": alignment " + alignment + " bytes is refused: it is not smaller than the"
                            + " symmetric heap (" + st.heap.allocator().capacity() + " bytes, SHMEM_SYMMETRIC_SIZE), so no"
                            + " object of the heap can start on such a boundary");
                }
                throw exhausted(alignment > HeapAllocator.MIN_ALIGNMENT ? routine + " (alignment " + alignment + ")" : routine, bytes);
            }
            obj = SymArrayImpl.create(st.heap, type, off, length);
            st.live.add(obj);
        }
        if (zero) {
            obj.local.fill((byte) 0);
        }
        teams.barrier(TeamImpl.OP_MEMORY, bytes * 31 + alignment, bytes, alignment > HeapAllocator.MIN_ALIGNMENT ? alignment : 0);
        end(ev);
        @SuppressWarnings("unchecked")
        T t = (T) obj;
        return t;
    }

    /** A started {@link Flight.Allocation} event, or null while JFR does not record it. */
    private static Flight.Allocation allocationEvent(String routine, long bytes) {
        if (!Flight.recorderStarted() || !Flight.Allocation.ON.isEnabled()) {
            return null;
        }
        Flight.Allocation e = new Flight.Allocation();
        e.routine = routine;
        e.bytes = bytes;
        e.begin();
        return e;
    }

    private static void end(Flight.Allocation e) {
        if (e != null) {
            e.commit();
        }
    }

    private long checkedBytes(String routine, SymType<?> type, long length) {
        try {
            return Math.multiplyExact(length, (long) type.elementSize());
        } catch (ArithmeticException e) {
            throw exhausted(routine, Long.MAX_VALUE);
        }
    }

    private HeapExhaustedException exhausted(String routine, long bytes) {
        HeapAllocator a = st.heap.allocator();
        return new HeapExhaustedException(bytes, a.totalFree(), "PE " + st.me + ": symmetric heap exhausted: " + routine
                + " requested " + bytes + " bytes, " + a.totalFree()
                + " bytes free (largest free block " + a.largestFree() + ") of " + a.capacity()
                + "; raise SHMEM_SYMMETRIC_SIZE (now " + Config.formatSize(a.capacity()) + ")");
    }

    <T extends SymArray<?>> T realloc(T object, long newLength) {
        checkLive("realloc");
        SymArrayImpl<?> old = st.check(object);
        if (newLength < 0) {
            throw st.error("realloc: negative length " + newLength);
        }
        long bytes = checkedBytes("realloc", old.type, newLength);
        Flight.Allocation ev = allocationEvent("realloc", bytes);
        world.checkSameArgs("realloc", "bytes", bytes, "heap offset of the old object", old.offset);
        teams.barrier(TeamImpl.OP_MEMORY, bytes, bytes, 0);
        SymArrayImpl<?> obj;
        synchronized (st.heap) {
            HeapAllocator a = st.heap.allocator();
            boolean wasEmpty = old.length == 0;
            if (!wasEmpty && bytes > 0 && a.resizeInPlace(old.offset, bytes)) {
                obj = SymArrayImpl.create(st.heap, old.type, old.offset, newLength);
                old.markFreed();
            } else {
                long off = bytes == 0 ? a.base() : a.allocate(bytes, HeapAllocator.MIN_ALIGNMENT);
                if (off < 0) {
                    throw exhausted("realloc", bytes);
                }
                obj = SymArrayImpl.create(st.heap, old.type, off, newLength);
                MemorySegment.copy(old.local, 0, obj.local, 0, Math.min(old.byteSize(), obj.byteSize()));
                old.markFreed(); // its views closed before the block can be handed out again
                if (!wasEmpty) {
                    a.free(old.offset);
                }
            }
            st.live.remove(old);
            st.live.add(obj);
        }
        teams.barrier(TeamImpl.OP_MEMORY, bytes, bytes, 0);
        end(ev);
        @SuppressWarnings("unchecked")
        T t = (T) obj;
        return t;
    }

    void free(SymArray<?> object) {
        checkLive("free");
        if (object == null) {
            return; // shmem_free(NULL): no action, not even the entry barrier (1.6)
        }
        SymArrayImpl<?> a = st.check(object);
        Flight.Allocation ev = allocationEvent("free", a.byteSize());
        world.checkSameArgs("free", "heap offset", a.offset, "length", a.length);
        teams.barrier(TeamImpl.OP_MEMORY, a.offset, a.byteSize(), 0);
        synchronized (st.heap) {
            a.markFreed(); // its views closed before the block can be handed out again
            if (a.length > 0) {
                st.heap.allocator().free(a.offset);
            }
            st.live.remove(a);
        }
        end(ev);
    }

    /** At finalize: every live object is freed, so that its later use reports "after finalize". */
    void freeAllAtFinalize() {
        synchronized (st.heap) {
            for (SymArrayImpl<?> a : st.live) {
                a.markFreed();
            }
            st.live.clear();
        }
    }

    private void checkLive(String routine) {
        if (st.finalized) {
            throw st.error(routine + " called after shmem finalize (close)" + st.heap.reinitializedSince());
        }
    }
}
