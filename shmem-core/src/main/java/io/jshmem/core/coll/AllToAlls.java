/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.SymArray;
import io.jshmem.core.comm.SymArrayImpl;
import java.util.List;

/**
 * alltoall(s) and their mem forms for one team (what they share: {@link CollKind}): checks the
 * arguments, begins the operation and runs the first of the team's {@link AlltoallAlgorithm}s
 * that fits the call (its row's condition and its own {@link AlltoallAlgorithm#fits}), as
 * {@link Selector#ALLTOALL} lists them for the team (after a row that
 * JSHMEM_ALLTOALL_ALGORITHM forces, {@link Selector#ALLTOALL_FORCED}).
 */
final class AllToAlls extends CollKind {
    /** The team's algorithms and their call conditions, in the table's order. */
    private final AlltoallAlgorithm[] algorithms;
    private final Selector.CallTest[] fits;

    AllToAlls(Collectives kit, Selector.Traits traits) {
        super(kit);
        List<Selector.KindRow> r = Selector.kindRowsFor(Selector.ALLTOALL, Selector.ALLTOALL_FORCED,
                Selector.label(st.config.alltoallAlgorithm()), traits);
        this.fits = r.stream().map(row -> row.call().test()).toArray(Selector.CallTest[]::new);
        // One instance per algorithm: a forced row repeats a table row, and two instances would share
        // the algorithm's round words, each keeping its own count of what it added to them.
        java.util.Map<String, AlltoallAlgorithm> byName = new java.util.HashMap<>();
        this.algorithms = r.stream().map(row -> byName.computeIfAbsent(row.algorithm(), a -> algorithm(row)))
                .toArray(AlltoallAlgorithm[]::new);
    }

    private AlltoallAlgorithm algorithm(Selector.KindRow r) {
        return switch (r.algorithm()) {
            case "push" -> new PushAlltoall(kit);
            case "push-bruck" -> new BruckAlltoall(kit);
            case "push-hierarchical" -> new HierarchicalAlltoall(kit);
            case "push-exchange" -> new ExchangeAlltoall(kit);
            case "push-pairwise" -> new PairwiseAlltoall(kit);
            case "push-into-dest" -> new PushIntoDestAlltoall(kit);
            case "push-into-dest-as-arrived" -> new AsArrivedIntoDestAlltoall(kit);
            case "pull-as-arrived" -> new PullAlltoall(kit, true);
            case "pull" -> new PullAlltoall(kit, false);
            default -> throw new IllegalStateException("no alltoall algorithm " + r.algorithm());
        };
    }

    public void alltoall(SymArray<?> dest, SymArray<?> source, long dst, long sst, long count, boolean bytes) {
        team.checkLive();
        String routine = dst == 1 && sst == 1 ? "alltoall" : "alltoalls";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long unit = bytes ? 1 : 1L << d.shift;
        long nbytes = kit.bytes(d, s, count, bytes, routine);
        if (dst < 1 || sst < 1) {
            throw st.error(routine + ": strides must be at least 1 (dst=" + dst + ", sst=" + sst + ")");
        }
        int n = team.members.length;
        try {
            long elems = Math.multiplyExact(nbytes / unit, n); // elements per array
            if (elems > 0) {
                kit.checkFits(d, Math.multiplyExact(Math.addExact(Math.multiplyExact(elems - 1, dst), 1), unit), routine, "dest");
                kit.checkFits(s, Math.multiplyExact(Math.addExact(Math.multiplyExact(elems - 1, sst), 1), unit), routine, "source");
            }
        } catch (ArithmeticException e) {
            throw st.error(routine + ": " + count + " elements per PE over " + n + " PEs at strides " + dst + " and " + sst
                    + " span more bytes than a long holds");
        }
        team.checkSameArgs(routine, "bytes per PE", nbytes, "dest stride", dst, "source stride", sst);
        team.begin(SlotProtocol.OP_ALLTOALL, (nbytes * 131 + dst) * 131 + sst, -1, nbytes, dst, sst, null);
        int shift = Long.numberOfTrailingZeros(unit);
        boolean contiguous = dst == 1 && sst == 1;
        for (int i = 0; ; i++) { // the table's last row takes every call
            AlltoallAlgorithm a = algorithms[i];
            if (fits[i].fits(nbytes, n, shift, contiguous) && a.fits(nbytes)) {
                kit.algorithm = a.name();
                a.alltoall(d, s, dst, sst, nbytes, unit, nbytes / unit);
                return;
            }
        }
    }
}
