/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.ShmemVersion;
import io.jshmem.SpecVersion;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import io.jshmem.ThreadLevel;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Optional;

/** Setup and query routines: myPe/nPes, accessibility, ptr, info, thread level, initialization. */
final class SetupCases {
    private SetupCases() {
    }

    static List<Case> cases() {
        return List.of(
                Case.of("setup.my-pe-n-pes", SetupCases::myPeNPes),
                Case.of("setup.pe-accessible", SetupCases::peAccessible),
                Case.of("setup.addr-accessible", SetupCases::addrAccessible),
                Case.of("setup.ptr", SetupCases::ptr),
                Case.of("setup.info", SetupCases::info),
                Case.of("setup.initialized", SetupCases::initialized));
    }

    /** Each PE writes its number and its view of nPes into PE 0 with p; PE 0 checks the set. */
    static void myPeNPes(CaseContext c) {
        Shmem s = c.shmem;
        c.check(c.npes >= 1, "nPes() = " + c.npes);
        c.check(c.me >= 0 && c.me < c.npes, "myPe() = " + c.me + " outside 0.." + (c.npes - 1));
        c.checkEq(c.me, s.myPe(), "myPe() twice");
        c.checkEq(c.npes, s.nPes(), "nPes() twice");
        String envPe = System.getenv("JSHMEM_PE");
        if (envPe != null) {
            c.checkEq(Long.parseLong(envPe), c.me, "myPe() vs the launcher's JSHMEM_PE");
        }
        String envN = System.getenv("JSHMEM_NPES");
        if (envN != null) {
            c.checkEq(Long.parseLong(envN), c.npes, "nPes() vs the launcher's JSHMEM_NPES");
        }
        SymLongArray ids = c.calloc(SymType.LONG, c.npes);
        SymLongArray counts = c.calloc(SymType.LONG, c.npes);
        for (int i = 0; i < c.npes; i++) {
            ids.set(i, -1);
        }
        s.barrierAll();
        s.p(ids, c.me, c.me, 0);
        s.p(counts, c.me, c.npes, 0);
        s.barrierAll();
        if (c.me == 0) {
            for (int pe = 0; pe < c.npes; pe++) {
                c.checkEq(pe, ids.get(pe), "slot " + pe + " of PE 0 (each PE writes myPe() at index myPe())");
                c.checkEq(c.npes, counts.get(pe), "nPes() reported by PE " + pe);
            }
        }
    }

    static void peAccessible(CaseContext c) {
        Shmem s = c.shmem;
        for (int pe = 0; pe < c.npes; pe++) {
            c.check(s.peAccessible(pe), "peAccessible(" + pe + ") is false");
        }
        for (int pe : new int[] {-1, c.npes, c.npes + 1, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            c.check(!s.peAccessible(pe), "peAccessible(" + pe + ") is true for a PE that does not exist");
        }
    }

    static void addrAccessible(CaseContext c) {
        Shmem s = c.shmem;
        SymLongArray a = c.calloc(SymType.LONG, 4);
        SymLongArray empty = c.malloc(SymType.LONG, 0);
        for (int pe = 0; pe < c.npes; pe++) {
            c.check(s.addrAccessible(a, pe), "addrAccessible(live object, " + pe + ") is false");
        }
        for (int pe : new int[] {-1, c.npes, Integer.MAX_VALUE}) {
            c.check(!s.addrAccessible(a, pe), "addrAccessible(live object, " + pe + ") is true for a PE that does not exist");
        }
        c.check(!s.addrAccessible(new FakeLongArray(4), 0), "addrAccessible is true for an object jshmem did not allocate");
        c.check(!s.addrAccessible(null, 0), "addrAccessible(null, 0) is true");
        SymLongArray freed = s.calloc(SymType.LONG, 4);
        s.free(freed);
        c.check(!s.addrAccessible(freed, c.me), "addrAccessible is true for a freed object");
        c.check(s.addrAccessible(a, c.me), "freeing another object made a live one inaccessible");
        c.check(empty.length() == 0, "malloc(0).length() = " + empty.length());
    }

    /** ptr is present for every PE (all on this node); stores through it are seen by the owner after a barrier. */
    /**
     * ptr is present exactly for the PEs of this PE's shared team (its node; all PEs on one
     * machine), and loads/stores through it are the owner's memory.
     */
    static void ptr(CaseContext c) {
        Shmem s = c.shmem;
        ShmemTeam shared = s.teamShared();
        SymLongArray a = c.calloc(SymType.LONG, 16);
        boolean[] onNode = new boolean[c.npes];
        for (int pe = 0; pe < c.npes; pe++) {
            onNode[pe] = s.teamWorld().translatePe(pe, shared) >= 0;
            Optional<MemorySegment> p = s.ptr(a, pe);
            c.checkEquals(onNode[pe], p.isPresent(), "ptr(object, " + pe + ") present exactly for PEs of the shared team");
            p.ifPresent(seg -> c.checkEq(a.byteSize(), seg.byteSize(), "ptr(object, ...).byteSize()"));
        }
        c.check(onNode[c.me], "this PE is in its own shared team");
        Optional<MemorySegment> mine = s.ptr(a, c.me);
        if (mine.isPresent()) {
            c.checkEq(a.local().address(), mine.get().address(), "ptr(object, myPe()).address() vs local().address()");
        }
        // Write through ptr into the right neighbour's copy (index 1), and into every on-node PE's slot me+2.
        s.ptr(a, c.right()).ifPresent(seg -> seg.set(ValueLayout.JAVA_LONG, 8, 1000L + c.me));
        if (c.npes <= 14) {
            for (int pe = 0; pe < c.npes; pe++) {
                s.ptr(a, pe).ifPresent(seg -> seg.set(ValueLayout.JAVA_LONG, 8L * (c.me + 2), 77L * (c.me + 1)));
            }
        }
        s.barrierAll();
        if (onNode[c.left()]) {
            c.checkEq(1000L + c.left(), a.get(1), "element 1, written by the left neighbour through ptr");
        }
        if (c.npes <= 14) {
            for (int pe = 0; pe < c.npes; pe++) {
                c.checkEq(onNode[pe] ? 77L * (pe + 1) : 0, a.get(pe + 2), "element " + (pe + 2) + ", written by PE " + pe + " through ptr");
            }
        }
        // Reads through ptr see what the owner stored before a barrier.
        a.set(0, 5000L + c.me);
        s.barrierAll();
        for (int pe = 0; pe < c.npes; pe++) {
            int owner = pe;
            s.ptr(a, pe).ifPresent(seg -> c.checkEq(5000L + owner, seg.get(ValueLayout.JAVA_LONG, 0),
                    "element 0 of PE " + owner + " read through ptr"));
        }
        s.barrierAll();
    }

    static void info(CaseContext c) {
        Shmem s = c.shmem;
        SpecVersion v = s.infoGetVersion();
        c.checkEquals(new SpecVersion(1, 6), v, "infoGetVersion()");
        c.checkEq(ShmemVersion.SPEC_MAJOR, v.major(), "infoGetVersion().major() vs SPEC_MAJOR");
        c.checkEq(ShmemVersion.SPEC_MINOR, v.minor(), "infoGetVersion().minor() vs SPEC_MINOR");
        c.checkEquals("1.6", v.toString(), "infoGetVersion().toString()");
        String name = s.infoGetName();
        c.check(name != null && !name.isBlank(), "infoGetName() is empty");
        c.checkEquals(ShmemVersion.VENDOR_STRING, name, "infoGetName() vs VENDOR_STRING");
        c.check(name != null && name.length() <= 255, "infoGetName() is longer than SHMEM_MAX_NAME_LEN");
        c.checkEquals(ThreadLevel.MULTIPLE, s.queryThread(), "queryThread() after the runner's initThread(MULTIPLE)");
    }

    static void initialized(CaseContext c) {
        c.check(Shmem.queryInitialized(), "Shmem.queryInitialized() is false while initialized");
        Shmem again = Shmem.init();
        c.check(again == c.shmem, "Shmem.init() again returned a different handle");
        Shmem third = Shmem.initThread(ThreadLevel.SINGLE);
        c.check(third == c.shmem, "Shmem.initThread(SINGLE) again returned a different handle");
        c.check(Shmem.queryInitialized(), "Shmem.queryInitialized() is false after init() again");
        c.checkEq(c.me, again.myPe(), "myPe() of the handle init() returned again");
        // The handle still works after the extra init calls.
        SymLongArray a = c.calloc(SymType.LONG, 1);
        again.p(a, 0, 42 + c.me, c.right());
        again.barrierAll();
        c.checkEq(42 + c.left(), a.get(0), "value put through the handle init() returned again");
        // 1.6: each init is matched by a finalize; only the one matching the last init finalizes.
        c.shmem.barrierAll();
        third.close();
        c.check(Shmem.queryInitialized(), "Shmem.queryInitialized() is false after closing one of three inits");
        again.close();
        c.check(Shmem.queryInitialized(), "Shmem.queryInitialized() is false after closing two of three inits");
        c.shmem.p(a, 0, 7 + c.me, c.right());
        c.shmem.barrierAll();
        c.checkEq(7 + c.left(), a.get(0), "the library works until the last finalize");
    }
}
