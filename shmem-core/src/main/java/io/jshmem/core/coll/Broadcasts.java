/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.coll;

import io.jshmem.SymArray;
import io.jshmem.core.comm.SymArrayImpl;

/**
 * broadcast and broadcastmem for one team (what they share: {@link CollKind}): checks the
 * arguments, begins the operation and runs the first of the team's {@link BroadcastAlgorithm}s
 * whose size range holds the call, as {@link Selector#BROADCAST} lists them for the team's
 * family and size (after a row that JSHMEM_BROADCAST_ALGORITHM forces, {@link Selector#BROADCAST_FORCED}).
 */
final class Broadcasts extends CollKind {
    /** The team's algorithms in the table's order, with the sizes each takes (bytes, inclusive). */
    private final BroadcastAlgorithm[] algorithms;
    private final long[] minBytes;
    private final long[] maxBytes;

    /**
     * @param treeBroadcast whether broadcasts across nodes within the push buffers go down a
     *        binomial tree ({@link Selector#BROADCAST_TREE})
     */
    Broadcasts(Collectives kit, String setting, boolean treeBroadcast, Selector.Family family) {
        super(kit);
        boolean treeLarge = Selector.pick(Selector.LARGE_BROADCAST_TREE, setting, team.shape).equals("tree");
        java.util.List<Selector.SizeRow> rows = Selector.rowsFor(Selector.BROADCAST, Selector.BROADCAST_FORCED,
                Selector.label(st.config.broadcastAlgorithm()), family, team.members.length);
        this.algorithms = new BroadcastAlgorithm[rows.size()];
        this.minBytes = new long[rows.size()];
        this.maxBytes = new long[rows.size()];
        // One instance per algorithm: a forced row repeats one of the table's, and an algorithm's
        // signal words keep their writers' counts in it (PipelinedBroadcast)
        java.util.Map<String, BroadcastAlgorithm> made = new java.util.HashMap<>();
        for (int i = 0; i < rows.size(); i++) {
            Selector.SizeRow r = rows.get(i);
            minBytes[i] = r.minBytes();
            maxBytes[i] = r.maxBytes();
            algorithms[i] = made.computeIfAbsent(r.algorithm(), a -> switch (a) {
                case "push" -> new PushBroadcast(kit);
                case "in-place" -> new InPlaceBroadcast(kit);
                case "push-into-dest" -> new PushIntoDestBroadcast(kit, treeLarge);
                case "push-down" -> new PushDownBroadcast(kit, treeBroadcast);
                case "push-pipelined" -> new PipelinedBroadcast(kit);
                case "pull" -> new PullBroadcast(kit);
                default -> throw new IllegalStateException("no broadcast algorithm " + a);
            });
        }
    }

    public void broadcast(SymArray<?> dest, SymArray<?> source, long count, int root, boolean bytes) {
        team.checkLive();
        SymArrayImpl<?> d = st.check(dest);
        SymArrayImpl<?> s = st.check(source);
        long nbytes = kit.bytes(d, s, count, bytes, "broadcast");
        kit.checkFits(d, nbytes, "broadcast", "dest");
        kit.checkFits(s, nbytes, "broadcast", "source");
        team.world(root); // checked before the operation begins
        team.checkSameArgs("broadcast", "bytes", nbytes, "root", root);
        team.begin(SlotProtocol.OP_BROADCAST, nbytes * 131 + root, root, nbytes, root, 0, null);
        for (int i = 0; ; i++) { // the table's last row takes every size
            if (nbytes >= minBytes[i] && nbytes <= maxBytes[i]) {
                BroadcastAlgorithm a = algorithms[i];
                kit.algorithm = a.name();
                a.broadcast(d, s, nbytes, root);
                return;
            }
        }
    }
}
