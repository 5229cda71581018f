/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.SymArray;
import io.jshmem.core.comm.SymArrayImpl;
import java.util.List;

/**
 * collect, fcollect and their mem forms for one team (what they share: {@link CollKind}): checks
 * the arguments, begins the operation and runs the first of the team's {@link CollectAlgorithm}s
 * that fits the call, as {@link Selector#FCOLLECT} and {@link Selector#COLLECT} list them for the
 * team's family (fcollect after a row that JSHMEM_FCOLLECT_ALGORITHM forces, {@link Selector#FCOLLECT_FORCED}).
 */
final class Collects extends CollKind {
    /** The team's algorithms and their rows, in the tables' order: fcollect, collect. */
    private final CollectAlgorithm[] fixedAlgorithms;
    private final Selector.CallRow[] fixedRows;
    private final CollectAlgorithm[] variableAlgorithms;
    private final Selector.CallRow[] variableRows;

    Collects(Collectives kit, Selector.Family family) {
        super(kit);
        List<Selector.CallRow> f = Selector.fcollectRowsFor(Selector.label(st.config.fcollectAlgorithm()), family, team.shape);
        List<Selector.CallRow> v = Selector.collectRowsFor(family, team.shape);
        this.fixedRows = f.toArray(Selector.CallRow[]::new);
        this.variableRows = v.toArray(Selector.CallRow[]::new);
        // One instance per algorithm, for both tables and also when the setting's row repeats one of
        // the table's: the round-pushing ones keep what they have sent (RoundPushes), which two would split.
        java.util.Map<String, CollectAlgorithm> byName = new java.util.HashMap<>();
        this.fixedAlgorithms = f.stream().map(r -> byName.computeIfAbsent(r.algorithm(), a -> algorithm(r)))
                .toArray(CollectAlgorithm[]::new);
        this.variableAlgorithms = v.stream().map(r -> byName.computeIfAbsent(r.algorithm(), a -> algorithm(r)))
                .toArray(CollectAlgorithm[]::new);
    }

    private CollectAlgorithm algorithm(Selector.CallRow r) {
        return switch (r.algorithm()) {
            case "push" -> new PushCollect(kit);
            case "push-exchange" -> new ExchangeCollect(kit);
            case "push-hierarchical" -> new HierarchicalCollect(kit);
            case "push-recursive-doubling" -> new HierarchicalCollect(kit, team.shape.apart(), "push-recursive-doubling");
            case "push-bruck" -> new BruckFcollect(kit);
            case "push-ring" -> new RingFcollect(kit);
            case "push-gather-at-0" -> new GatherAt0Collect(kit);
            case "push-into-dest" -> new PushIntoDestCollect(kit);
            case "pull" -> new PullCollect(kit);
            default -> throw new IllegalStateException("no collect algorithm " + r.algorithm());
        };
    }

    public void collect(SymArray<?> dest, SymArray<?> source, long count, boolean bytes, boolean fixed) {
        team.checkLive();
        String routine = fixed ? "fcollect" : "collect";
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = kit.bytes(d, s, count, bytes, routine);
        kit.checkFits(s, nbytes, routine, "source");
        int n = team.members.length;
        team.begin(fixed ? SlotProtocol.OP_FCOLLECT : SlotProtocol.OP_COLLECT, fixed ? nbytes : 0, -1, nbytes, 0, 0, null);
        if (fixed) { // every fcollect algorithm: the same size everywhere, and room for all in dest
            team.checkSameArgs(routine, "bytes per PE", nbytes);
            kit.checkFits(d, nbytes * n, routine, "dest");
        }
        CollectAlgorithm[] algorithms = fixed ? fixedAlgorithms : variableAlgorithms;
        Selector.CallRow[] rows = fixed ? fixedRows : variableRows;
        for (int i = 0; ; i++) { // the tables' last row takes every call
            if (rows[i].fit().fits(nbytes, n)) {
                CollectAlgorithm a = algorithms[i];
                kit.algorithm = a.name();
                a.collect(d, s, nbytes, fixed, routine);
                return;
            }
        }
    }
}
