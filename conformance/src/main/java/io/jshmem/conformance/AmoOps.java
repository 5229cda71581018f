/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import io.jshmem.Shmem;
import io.jshmem.SymArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.List;

/**
 * The integer atomics of one type (int or long) with long values, so that the AMO cases are
 * written once. Values are normalized to the type ({@code (int) v} for int, sign-extended).
 */
abstract class AmoOps<S extends SymArray<?>> {
    final String name;
    final SymType<S> type;
    final int bits;

    private AmoOps(SymType<S> type) {
        this.name = type.name();
        this.type = type;
        this.bits = type.elementSize() * 8;
    }

    abstract long norm(long v);

    abstract long local(S d, long i);

    abstract void setLocal(S d, long i, long v);

    abstract long fetch(Shmem s, S d, long i, int pe);

    abstract void set(Shmem s, S d, long i, long v, int pe);

    abstract long swap(Shmem s, S d, long i, long v, int pe);

    abstract long cswap(Shmem s, S d, long i, long cond, long v, int pe);

    abstract long finc(Shmem s, S d, long i, int pe);

    abstract void inc(Shmem s, S d, long i, int pe);

    abstract long fadd(Shmem s, S d, long i, long v, int pe);

    abstract void add(Shmem s, S d, long i, long v, int pe);

    abstract long fand(Shmem s, S d, long i, long v, int pe);

    abstract void and(Shmem s, S d, long i, long v, int pe);

    abstract long f_or(Shmem s, S d, long i, long v, int pe);

    abstract void or(Shmem s, S d, long i, long v, int pe);

    abstract long fxor(Shmem s, S d, long i, long v, int pe);

    abstract void xor(Shmem s, S d, long i, long v, int pe);

    /** A fetch array (long[] or int[]) for the nbi forms. */
    abstract Object newFetch(int n);

    abstract long fetched(Object f, int i);

    abstract void fetchNbi(Shmem s, Object f, int fi, S d, long i, int pe);

    abstract void swapNbi(Shmem s, Object f, int fi, S d, long i, long v, int pe);

    abstract void cswapNbi(Shmem s, Object f, int fi, S d, long i, long cond, long v, int pe);

    abstract void fincNbi(Shmem s, Object f, int fi, S d, long i, int pe);

    abstract void faddNbi(Shmem s, Object f, int fi, S d, long i, long v, int pe);

    abstract void fandNbi(Shmem s, Object f, int fi, S d, long i, long v, int pe);

    abstract void forNbi(Shmem s, Object f, int fi, S d, long i, long v, int pe);

    abstract void fxorNbi(Shmem s, Object f, int fi, S d, long i, long v, int pe);

    @Override
    public String toString() {
        return name;
    }

    static final AmoOps<SymLongArray> LONG = new AmoOps<>(SymType.LONG) {
        long norm(long v) { return v; }
        long local(SymLongArray d, long i) { return d.get(i); }
        void setLocal(SymLongArray d, long i, long v) { d.set(i, v); }
        long fetch(Shmem s, SymLongArray d, long i, int pe) { return s.atomicFetch(d, i, pe); }
        void set(Shmem s, SymLongArray d, long i, long v, int pe) { s.atomicSet(d, i, v, pe); }
        long swap(Shmem s, SymLongArray d, long i, long v, int pe) { return s.atomicSwap(d, i, v, pe); }
        long cswap(Shmem s, SymLongArray d, long i, long cond, long v, int pe) { return s.atomicCompareSwap(d, i, cond, v, pe); }
        long finc(Shmem s, SymLongArray d, long i, int pe) { return s.atomicFetchInc(d, i, pe); }
        void inc(Shmem s, SymLongArray d, long i, int pe) { s.atomicInc(d, i, pe); }
        long fadd(Shmem s, SymLongArray d, long i, long v, int pe) { return s.atomicFetchAdd(d, i, v, pe); }
        void add(Shmem s, SymLongArray d, long i, long v, int pe) { s.atomicAdd(d, i, v, pe); }
        long fand(Shmem s, SymLongArray d, long i, long v, int pe) { return s.atomicFetchAnd(d, i, v, pe); }
        void and(Shmem s, SymLongArray d, long i, long v, int pe) { s.atomicAnd(d, i, v, pe); }
        long f_or(Shmem s, SymLongArray d, long i, long v, int pe) { return s.atomicFetchOr(d, i, v, pe); }
        void or(Shmem s, SymLongArray d, long i, long v, int pe) { s.atomicOr(d, i, v, pe); }
        long fxor(Shmem s, SymLongArray d, long i, long v, int pe) { return s.atomicFetchXor(d, i, v, pe); }
        void xor(Shmem s, SymLongArray d, long i, long v, int pe) { s.atomicXor(d, i, v, pe); }
        Object newFetch(int n) { return new long[n]; }
        long fetched(Object f, int i) { return ((long[]) f)[i]; }
        void fetchNbi(Shmem s, Object f, int fi, SymLongArray d, long i, int pe) { s.atomicFetchNbi((long[]) f, fi, d, i, pe); }
        void swapNbi(Shmem s, Object f, int fi, SymLongArray d, long i, long v, int pe) { s.atomicSwapNbi((long[]) f, fi, d, i, v, pe); }
        void cswapNbi(Shmem s, Object f, int fi, SymLongArray d, long i, long cond, long v, int pe) { s.atomicCompareSwapNbi((long[]) f, fi, d, i, cond, v, pe); }
        void fincNbi(Shmem s, Object f, int fi, SymLongArray d, long i, int pe) { s.atomicFetchIncNbi((long[]) f, fi, d, i, pe); }
        void faddNbi(Shmem s, Object f, int fi, SymLongArray d, long i, long v, int pe) { s.atomicFetchAddNbi((long[]) f, fi, d, i, v, pe); }
        void fandNbi(Shmem s, Object f, int fi, SymLongArray d, long i, long v, int pe) { s.atomicFetchAndNbi((long[]) f, fi, d, i, v, pe); }
        void forNbi(Shmem s, Object f, int fi, SymLongArray d, long i, long v, int pe) { s.atomicFetchOrNbi((long[]) f, fi, d, i, v, pe); }
        void fxorNbi(Shmem s, Object f, int fi, SymLongArray d, long i, long v, int pe) { s.atomicFetchXorNbi((long[]) f, fi, d, i, v, pe); }
    };

    static final AmoOps<SymIntArray> INT = new AmoOps<>(SymType.INT) {
        long norm(long v) { return (int) v; }
        long local(SymIntArray d, long i) { return d.get(i); }
        void setLocal(SymIntArray d, long i, long v) { d.set(i, (int) v); }
        long fetch(Shmem s, SymIntArray d, long i, int pe) { return s.atomicFetch(d, i, pe); }
        void set(Shmem s, SymIntArray d, long i, long v, int pe) { s.atomicSet(d, i, (int) v, pe); }
        long swap(Shmem s, SymIntArray d, long i, long v, int pe) { return s.atomicSwap(d, i, (int) v, pe); }
        long cswap(Shmem s, SymIntArray d, long i, long cond, long v, int pe) { return s.atomicCompareSwap(d, i, (int) cond, (int) v, pe); }
        long finc(Shmem s, SymIntArray d, long i, int pe) { return s.atomicFetchInc(d, i, pe); }
        void inc(Shmem s, SymIntArray d, long i, int pe) { s.atomicInc(d, i, pe); }
        long fadd(Shmem s, SymIntArray d, long i, long v, int pe) { return s.atomicFetchAdd(d, i, (int) v, pe); }
        void add(Shmem s, SymIntArray d, long i, long v, int pe) { s.atomicAdd(d, i, (int) v, pe); }
        long fand(Shmem s, SymIntArray d, long i, long v, int pe) { return s.atomicFetchAnd(d, i, (int) v, pe); }
        void and(Shmem s, SymIntArray d, long i, long v, int pe) { s.atomicAnd(d, i, (int) v, pe); }
        long f_or(Shmem s, SymIntArray d, long i, long v, int pe) { return s.atomicFetchOr(d, i, (int) v, pe); }
        void or(Shmem s, SymIntArray d, long i, long v, int pe) { s.atomicOr(d, i, (int) v, pe); }
        long fxor(Shmem s, SymIntArray d, long i, long v, int pe) { return s.atomicFetchXor(d, i, (int) v, pe); }
        void xor(Shmem s, SymIntArray d, long i, long v, int pe) { s.atomicXor(d, i, (int) v, pe); }
        Object newFetch(int n) { return new int[n]; }
        long fetched(Object f, int i) { return ((int[]) f)[i]; }
        void fetchNbi(Shmem s, Object f, int fi, SymIntArray d, long i, int pe) { s.atomicFetchNbi((int[]) f, fi, d, i, pe); }
        void swapNbi(Shmem s, Object f, int fi, SymIntArray d, long i, long v, int pe) { s.atomicSwapNbi((int[]) f, fi, d, i, (int) v, pe); }
        void cswapNbi(Shmem s, Object f, int fi, SymIntArray d, long i, long cond, long v, int pe) { s.atomicCompareSwapNbi((int[]) f, fi, d, i, (int) cond, (int) v, pe); }
        void fincNbi(Shmem s, Object f, int fi, SymIntArray d, long i, int pe) { s.atomicFetchIncNbi((int[]) f, fi, d, i, pe); }
        void faddNbi(Shmem s, Object f, int fi, SymIntArray d, long i, long v, int pe) { s.atomicFetchAddNbi((int[]) f, fi, d, i, (int) v, pe); }
        void fandNbi(Shmem s, Object f, int fi, SymIntArray d, long i, long v, int pe) { s.atomicFetchAndNbi((int[]) f, fi, d, i, (int) v, pe); }
        void forNbi(Shmem s, Object f, int fi, SymIntArray d, long i, long v, int pe) { s.atomicFetchOrNbi((int[]) f, fi, d, i, (int) v, pe); }
        void fxorNbi(Shmem s, Object f, int fi, SymIntArray d, long i, long v, int pe) { s.atomicFetchXorNbi((int[]) f, fi, d, i, (int) v, pe); }
    };

    static final List<AmoOps<?>> ALL = List.of(LONG, INT);
}
