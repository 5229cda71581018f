/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.ReduceOp;
import io.jshmem.SymArray;
import io.jshmem.SymType;
import io.jshmem.core.comm.Comm;
import io.jshmem.core.comm.SymArrayImpl;
import java.util.List;

/**
 * The reductions (array, complex, scalar) and the scans for one team (what they share:
 * {@link CollKind}): checks the arguments, begins the operation and runs the first of the team's
 * {@link ReduceAlgorithm}s or {@link ScanAlgorithm}s that fits the call, as {@link Selector#REDUCE}
 * (after the row JSHMEM_REDUCE_ALGORITHM names, if any: {@link Selector#reduceRowsFor}) and
 * {@link Selector#SCAN} list them for the team.
 */
final class ReduceScans extends CollKind {
    /** The team's algorithms and their call conditions, in the tables' order. */
    private final ReduceAlgorithm[] reduceAlgorithms;
    private final Selector.CallTest[] reduceFits;
    private final ScanAlgorithm[] scanAlgorithms;
    private final Selector.CallTest[] scanFits;

    ReduceScans(Collectives kit, Selector.Traits traits) {
        super(kit);
        List<Selector.KindRow> r = Selector.reduceRowsFor(traits, Selector.label(st.config.reduceAlgorithm()));
        List<Selector.KindRow> sc = Selector.kindRowsFor(Selector.SCAN, traits);
        this.reduceFits = r.stream().map(row -> row.call().test()).toArray(Selector.CallTest[]::new);
        // One instance per algorithm, also when the setting's row repeats one of the table's: the
        // round-pushing ones keep what they have sent (RoundPushes), which two would split.
        java.util.Map<String, ReduceAlgorithm> byName = new java.util.HashMap<>();
        this.reduceAlgorithms = r.stream().map(row -> byName.computeIfAbsent(row.algorithm(), a -> reduceAlgorithm(row)))
                .toArray(ReduceAlgorithm[]::new);
        this.scanFits = sc.stream().map(row -> row.call().test()).toArray(Selector.CallTest[]::new);
        this.scanAlgorithms = sc.stream().map(this::scanAlgorithm).toArray(ScanAlgorithm[]::new);
    }

    private ReduceAlgorithm reduceAlgorithm(Selector.KindRow r) {
        return switch (r.algorithm()) {
            case "push" -> new PushReduce(kit);
            case "push-exchange" -> new ExchangeReduce(kit);
            case "push-gather-at-0" -> new GatherAt0Reduce(kit);
            case "push-exchange-run" -> new ExchangeRunReduce(kit);
            case "push-recursive-doubling" -> new RecursiveDoublingReduce(kit);
            case "push-rabenseifner" -> new RabenseifnerReduce(kit);
            case "push-hierarchical-recursive-doubling" -> new HierarchicalReduce(kit, false);
            case "push-hierarchical-rabenseifner" -> new HierarchicalReduce(kit, true);
            case "push-reduce-scatter-allgather" -> new PushedScatterReduce(kit);
            case "pull-whole" -> new PullWholeReduce(kit);
            case "pull-reduce-scatter-into-dest" -> new PullScatterReduce(kit, true);
            case "pull-reduce-scatter-allgather" -> new PullScatterReduce(kit, false);
            default -> throw new IllegalStateException("no reduction algorithm " + r.algorithm());
        };
    }

    private ScanAlgorithm scanAlgorithm(Selector.KindRow r) {
        return switch (r.algorithm()) {
            case "push" -> new PushScan(kit);
            case "push-to-successors" -> new SuccessorsScan(kit);
            case "push-recursive-doubling" -> new RecursiveDoublingScan(kit);
            case "push-hierarchical-recursive-doubling" -> new HierarchicalScan(kit);
            case "pull" -> new PullScan(kit);
            default -> throw new IllegalStateException("no scan algorithm " + r.algorithm());
        };
    }

    public void reduce(ReduceOp op, SymArray<?> dest, SymArray<?> source, long count) {
        team.checkLive();
        String routine = Collectives.REDUCE_ROUTINES[op.ordinal()];
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = kit.bytes(d, s, count, false, routine);
        boolean floating = switch (d.type.kind()) {
            case FLOAT, DOUBLE -> true;
            case LONG, INT, SHORT, BYTE, CHAR -> false;
        };
        if (op.integralOnly() && floating) {
            throw st.error(routine + " is not defined for " + d.type.name() + " (bitwise and unsigned reductions need an integral type)");
        }
        kit.checkFits(d, nbytes, routine, "dest");
        kit.checkFits(s, nbytes, routine, "source");
        reduce(op, routine, Reductions.Elem.of(d.type.kind()), d.type.name(), d.shift, d.offset, s.offset, count, nbytes);
    }

    /**
     * complexf/complexd sum and prod reductions: {@code count} complex numbers, each a (re, im)
     * pair of the float or double arrays' elements. Every reduction algorithm below takes them as
     * elements of twice the size ({@code shift + 1}), so that no slice splits a pair.
     */
    public void complexReduce(ReduceOp op, SymArray<?> dest, SymArray<?> source, long count) {
        team.checkLive();
        String routine = op == ReduceOp.PROD ? "complex_prod_reduce" : "complex_sum_reduce";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = kit.bytes(d, s, count, false, routine) << 1;
        String label = switch (d.type.kind()) { // the element type as the mismatch checks name it
            case FLOAT -> "complexf";
            case DOUBLE -> "complexd";
            case LONG, INT, SHORT, BYTE, CHAR -> throw st.error(routine + " is defined for float (complexf) and double"
                    + " (complexd) arrays of (re, im) pairs, not for " + d.type.name());
        };
        kit.checkFits(d, nbytes, routine, "dest");
        kit.checkFits(s, nbytes, routine, "source");
        reduce(op, routine, Reductions.Elem.complexOf(d.type.kind()), label, d.shift + 1, d.offset, s.offset, count, nbytes);
    }

    /**
     * A reduction of one value to all members (the scalar {@code ShmemTeam} forms: an
     * {@code nreduce} of 1), through this team's scalar word of its slot
     * ({@link TeamSlots#scalar}): the value is stored there, reduced as one element by the same
     * algorithms as an array reduction (from the source word into the dest word of every member,
     * both at the same place on every member, so the team's slot serves as symmetric scratch), and
     * the result is read back. No symmetric allocation and no Java allocation; like any
     * collective, every member calls it with the same operator and type (a scalar call meeting an
     * array reduction is reported as calls that do not match).
     *
     * @param kind the element type ({@code LONG}, {@code INT}, {@code DOUBLE})
     * @param label the type as recorded for mismatch messages and the arguments' hash
     * @param shift log2 of the element size
     * @param bits the value's bits (a double's raw bits, an int sign-extended)
     * @return the result's bits
     */
    public long reduceScalar(ReduceOp op, SymType.Kind kind, String label, int shift, long bits) {
        team.checkLive();
        String routine = Collectives.REDUCE_ROUTINES[op.ordinal()];
        long src = team.scalarOff;
        long dst = src + 8;
        if (shift == 3) {
            Comm.LONG.set(st.self, src, bits);
        } else {
            Comm.INT.set(st.self, src, (int) bits);
        }
        reduce(op, routine, Reductions.Elem.of(kind), label, shift, dst, src, 1, 1L << shift);
        return shift == 3 ? (long) Comm.LONG.get(st.self, dst) : (int) Comm.INT.get(st.self, dst);
    }

    /**
     * A reduction of {@code count} elements of {@code elem} ({@link Reductions}), each
     * {@code 1 << shift} bytes, {@code nbytes} in all, from this PE's heap offset {@code sOff}
     * (the source) into {@code dOff} (the dest), both the same on every member. {@code label}
     * names the type in the arguments that must match (the array's type name, or the scalar form's).
     */
    private void reduce(ReduceOp op, String routine, Reductions.Elem elem, String label, int shift, long dOff, long sOff,
            long count, long nbytes) {
        team.checkSameArgs(routine, "nelems", count, "op (ordinal)", op.ordinal());
        team.begin(SlotProtocol.OP_REDUCE, (count * 131 + op.ordinal()) * 131 + label.hashCode(), -1, count, op.ordinal(), 0, label);
        int n = team.members.length;
        for (int i = 0; ; i++) { // the table's last row takes every call
            if (reduceFits[i].fits(nbytes, n, shift, true)) {
                ReduceAlgorithm a = reduceAlgorithms[i];
                kit.algorithm = a.name();
                a.reduce(op, elem, shift, dOff, sOff, count, nbytes);
                return;
            }
        }
    }

    public void scan(SymArray<?> dest, SymArray<?> source, long count, boolean inclusive) {
        team.checkLive();
        String routine = inclusive ? "sum_inscan" : "sum_exscan";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = kit.bytes(d, s, count, false, routine);
        kit.checkFits(d, nbytes, routine, "dest");
        kit.checkFits(s, nbytes, routine, "source");
        team.checkSameArgs(routine, "nelems", count);
        team.begin(SlotProtocol.OP_SCAN, (count * 131 + (inclusive ? 1 : 0)) * 131 + d.type.name().hashCode(), -1, count,
                inclusive ? 1 : 0, 0, d.type.name());
        Reductions.Elem elem = Reductions.Elem.of(d.type.kind());
        int n = team.members.length;
        for (int i = 0; ; i++) { // the table's last row takes every call
            if (scanFits[i].fits(nbytes, n, d.shift, true)) {
                ScanAlgorithm a = scanAlgorithms[i];
                kit.algorithm = a.name();
                a.scan(d, s, elem, count, nbytes, inclusive);
                return;
            }
        }
    }
}
