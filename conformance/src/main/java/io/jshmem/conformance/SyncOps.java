/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Cmp;
import io.jshmem.Shmem;
import io.jshmem.SymArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymShortArray;
import io.jshmem.SymType;
import java.util.List;

/** The point-to-point synchronization routines of one type (long, int, short) with long values. */
abstract class SyncOps<S extends SymArray<?>> {
    final String name;
    final SymType<S> type;
    final long min;
    final long max;

    private SyncOps(SymType<S> type, long min, long max) {
        this.name = type.name();
        this.type = type;
        this.min = min;
        this.max = max;
    }

    abstract long local(S d, long i);

    abstract void setLocal(S d, long i, long v);

    abstract void p(Shmem s, S d, long i, long v, int pe);

    /** A typed copy of the comparison values (long[], int[] or short[]). */
    abstract Object values(long[] v);

    abstract void waitUntil(Shmem s, S d, long i, Cmp cmp, long v);

    abstract void waitUntilAll(Shmem s, S d, int[] status, Cmp cmp, long v);

    abstract long waitUntilAny(Shmem s, S d, int[] status, Cmp cmp, long v);

    abstract int waitUntilSome(Shmem s, S d, long[] idx, int[] status, Cmp cmp, long v);

    abstract void waitUntilAllVector(Shmem s, S d, int[] status, Cmp cmp, long[] v);

    abstract long waitUntilAnyVector(Shmem s, S d, int[] status, Cmp cmp, long[] v);

    abstract int waitUntilSomeVector(Shmem s, S d, long[] idx, int[] status, Cmp cmp, long[] v);

    abstract boolean test(Shmem s, S d, long i, Cmp cmp, long v);

    abstract boolean testAll(Shmem s, S d, int[] status, Cmp cmp, long v);

    abstract long testAny(Shmem s, S d, int[] status, Cmp cmp, long v);

    abstract int testSome(Shmem s, S d, long[] idx, int[] status, Cmp cmp, long v);

    abstract boolean testAllVector(Shmem s, S d, int[] status, Cmp cmp, long[] v);

    abstract long testAnyVector(Shmem s, S d, int[] status, Cmp cmp, long[] v);

    abstract int testSomeVector(Shmem s, S d, long[] idx, int[] status, Cmp cmp, long[] v);

    @Override
    public String toString() {
        return name;
    }

    static final SyncOps<SymLongArray> LONG = new SyncOps<>(SymType.LONG, Long.MIN_VALUE, Long.MAX_VALUE) {
        long local(SymLongArray d, long i) { return d.get(i); }
        void setLocal(SymLongArray d, long i, long v) { d.set(i, v); }
        void p(Shmem s, SymLongArray d, long i, long v, int pe) { s.p(d, i, v, pe); }
        Object values(long[] v) { return v.clone(); }
        void waitUntil(Shmem s, SymLongArray d, long i, Cmp cmp, long v) { s.waitUntil(d, i, cmp, v); }
        void waitUntilAll(Shmem s, SymLongArray d, int[] st, Cmp cmp, long v) { s.waitUntilAll(d, st, cmp, v); }
        long waitUntilAny(Shmem s, SymLongArray d, int[] st, Cmp cmp, long v) { return s.waitUntilAny(d, st, cmp, v); }
        int waitUntilSome(Shmem s, SymLongArray d, long[] idx, int[] st, Cmp cmp, long v) { return s.waitUntilSome(d, idx, st, cmp, v); }
        void waitUntilAllVector(Shmem s, SymLongArray d, int[] st, Cmp cmp, long[] v) { s.waitUntilAllVector(d, st, cmp, v); }
        long waitUntilAnyVector(Shmem s, SymLongArray d, int[] st, Cmp cmp, long[] v) { return s.waitUntilAnyVector(d, st, cmp, v); }
        int waitUntilSomeVector(Shmem s, SymLongArray d, long[] idx, int[] st, Cmp cmp, long[] v) { return s.waitUntilSomeVector(d, idx, st, cmp, v); }
        boolean test(Shmem s, SymLongArray d, long i, Cmp cmp, long v) { return s.test(d, i, cmp, v); }
        boolean testAll(Shmem s, SymLongArray d, int[] st, Cmp cmp, long v) { return s.testAll(d, st, cmp, v); }
        long testAny(Shmem s, SymLongArray d, int[] st, Cmp cmp, long v) { return s.testAny(d, st, cmp, v); }
        int testSome(Shmem s, SymLongArray d, long[] idx, int[] st, Cmp cmp, long v) { return s.testSome(d, idx, st, cmp, v); }
        boolean testAllVector(Shmem s, SymLongArray d, int[] st, Cmp cmp, long[] v) { return s.testAllVector(d, st, cmp, v); }
        long testAnyVector(Shmem s, SymLongArray d, int[] st, Cmp cmp, long[] v) { return s.testAnyVector(d, st, cmp, v); }
        int testSomeVector(Shmem s, SymLongArray d, long[] idx, int[] st, Cmp cmp, long[] v) { return s.testSomeVector(d, idx, st, cmp, v); }
    };

    static final SyncOps<SymIntArray> INT = new SyncOps<>(SymType.INT, Integer.MIN_VALUE, Integer.MAX_VALUE) {
        long local(SymIntArray d, long i) { return d.get(i); }
        void setLocal(SymIntArray d, long i, long v) { d.set(i, (int) v); }
        void p(Shmem s, SymIntArray d, long i, long v, int pe) { s.p(d, i, (int) v, pe); }
        Object values(long[] v) { return ints(v); }
        void waitUntil(Shmem s, SymIntArray d, long i, Cmp cmp, long v) { s.waitUntil(d, i, cmp, (int) v); }
        void waitUntilAll(Shmem s, SymIntArray d, int[] st, Cmp cmp, long v) { s.waitUntilAll(d, st, cmp, (int) v); }
        long waitUntilAny(Shmem s, SymIntArray d, int[] st, Cmp cmp, long v) { return s.waitUntilAny(d, st, cmp, (int) v); }
        int waitUntilSome(Shmem s, SymIntArray d, long[] idx, int[] st, Cmp cmp, long v) { return s.waitUntilSome(d, idx, st, cmp, (int) v); }
        void waitUntilAllVector(Shmem s, SymIntArray d, int[] st, Cmp cmp, long[] v) { s.waitUntilAllVector(d, st, cmp, ints(v)); }
        long waitUntilAnyVector(Shmem s, SymIntArray d, int[] st, Cmp cmp, long[] v) { return s.waitUntilAnyVector(d, st, cmp, ints(v)); }
        int waitUntilSomeVector(Shmem s, SymIntArray d, long[] idx, int[] st, Cmp cmp, long[] v) { return s.waitUntilSomeVector(d, idx, st, cmp, ints(v)); }
        boolean test(Shmem s, SymIntArray d, long i, Cmp cmp, long v) { return s.test(d, i, cmp, (int) v); }
        boolean testAll(Shmem s, SymIntArray d, int[] st, Cmp cmp, long v) { return s.testAll(d, st, cmp, (int) v); }
        long testAny(Shmem s, SymIntArray d, int[] st, Cmp cmp, long v) { return s.testAny(d, st, cmp, (int) v); }
        int testSome(Shmem s, SymIntArray d, long[] idx, int[] st, Cmp cmp, long v) { return s.testSome(d, idx, st, cmp, (int) v); }
        boolean testAllVector(Shmem s, SymIntArray d, int[] st, Cmp cmp, long[] v) { return s.testAllVector(d, st, cmp, ints(v)); }
        long testAnyVector(Shmem s, SymIntArray d, int[] st, Cmp cmp, long[] v) { return s.testAnyVector(d, st, cmp, ints(v)); }
        int testSomeVector(Shmem s, SymIntArray d, long[] idx, int[] st, Cmp cmp, long[] v) { return s.testSomeVector(d, idx, st, cmp, ints(v)); }
    };

    static final SyncOps<SymShortArray> SHORT = new SyncOps<>(SymType.SHORT, Short.MIN_VALUE, Short.MAX_VALUE) {
        long local(SymShortArray d, long i) { return d.get(i); }
        void setLocal(SymShortArray d, long i, long v) { d.set(i, (short) v); }
        void p(Shmem s, SymShortArray d, long i, long v, int pe) { s.p(d, i, (short) v, pe); }
        Object values(long[] v) { return shorts(v); }
        void waitUntil(Shmem s, SymShortArray d, long i, Cmp cmp, long v) { s.waitUntil(d, i, cmp, (short) v); }
        void waitUntilAll(Shmem s, SymShortArray d, int[] st, Cmp cmp, long v) { s.waitUntilAll(d, st, cmp, (short) v); }
        long waitUntilAny(Shmem s, SymShortArray d, int[] st, Cmp cmp, long v) { return s.waitUntilAny(d, st, cmp, (short) v); }
        int waitUntilSome(Shmem s, SymShortArray d, long[] idx, int[] st, Cmp cmp, long v) { return s.waitUntilSome(d, idx, st, cmp, (short) v); }
        void waitUntilAllVector(Shmem s, SymShortArray d, int[] st, Cmp cmp, long[] v) { s.waitUntilAllVector(d, st, cmp, shorts(v)); }
        long waitUntilAnyVector(Shmem s, SymShortArray d, int[] st, Cmp cmp, long[] v) { return s.waitUntilAnyVector(d, st, cmp, shorts(v)); }
        int waitUntilSomeVector(Shmem s, SymShortArray d, long[] idx, int[] st, Cmp cmp, long[] v) { return s.waitUntilSomeVector(d, idx, st, cmp, shorts(v)); }
        boolean test(Shmem s, SymShortArray d, long i, Cmp cmp, long v) { return s.test(d, i, cmp, (short) v); }
        boolean testAll(Shmem s, SymShortArray d, int[] st, Cmp cmp, long v) { return s.testAll(d, st, cmp, (short) v); }
        long testAny(Shmem s, SymShortArray d, int[] st, Cmp cmp, long v) { return s.testAny(d, st, cmp, (short) v); }
        int testSome(Shmem s, SymShortArray d, long[] idx, int[] st, Cmp cmp, long v) { return s.testSome(d, idx, st, cmp, (short) v); }
        boolean testAllVector(Shmem s, SymShortArray d, int[] st, Cmp cmp, long[] v) { return s.testAllVector(d, st, cmp, shorts(v)); }
        long testAnyVector(Shmem s, SymShortArray d, int[] st, Cmp cmp, long[] v) { return s.testAnyVector(d, st, cmp, shorts(v)); }
        int testSomeVector(Shmem s, SymShortArray d, long[] idx, int[] st, Cmp cmp, long[] v) { return s.testSomeVector(d, idx, st, cmp, shorts(v)); }
    };

    static final List<SyncOps<?>> ALL = List.of(LONG, INT, SHORT);

    static int[] ints(long[] v) {
        int[] r = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = (int) v[i];
        }
        return r;
    }

    static short[] shorts(long[] v) {
        short[] r = new short[v.length];
        for (int i = 0; i < v.length; i++) {
            r[i] = (short) v[i];
        }
        return r;
    }
}
