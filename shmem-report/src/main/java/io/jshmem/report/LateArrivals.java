/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Matches each barrier/sync and collective across the PEs that took part (by team and the team's
 * sequence number, see shmem-core's Flight.Sync) and finds the PE that arrived last.
 *
 * <p>When all of an instance's PEs ran on one node, arrival is the event's start (one clock).
 * Across nodes the clocks differ, so arrival is taken from durations instead: the members leave an
 * operation at about the same time, so the one that waited least arrived last.
 */
final class LateArrivals {
    /**
     * One operation as all its PEs saw it.
     *
     * @param time    the first arrival, ns since the job's first event
     * @param late    the PE that arrived last
     * @param margin  how much later than the one before it, ns
     * @param waited  the time the others waited for it (sum over them), ns
     */
    record Instance(Kind kind, String routine, String team, long sequence, long time, int members, int late,
                    long margin, long waited) {
    }

    final List<Instance> instances = new ArrayList<>();

    private record Key(String team, String node, long life, long sequence) {
    }

    /** One operation's events, one per PE that took part. */
    private static final class Group {
        final List<Integer> pes = new ArrayList<>();
        final List<Op> ops = new ArrayList<>();
    }
    /** Per PE: barriers/syncs at which it was last, and collectives. */
    final int[] lastSyncs;
    final int[] lastCollectives;
    /** Per PE: the time others waited for it, ns. */
    final long[] waitedFor;
    int syncs;
    int collectives;

    LateArrivals(Recordings.Job job) {
        int npes = job.pes().size();
        lastSyncs = new int[npes];
        lastCollectives = new int[npes];
        waitedFor = new long[npes];
        // Team (SHMEM_TEAM_SHARED is a different team on each node), its life (a team destroyed and
        // made again under the same name starts its sequence again) and sequence: one operation.
        Map<Key, Group> groups = new HashMap<>();
        List<Group> order = new ArrayList<>();
        for (PeRecording p : job.pes()) {
            Map<String, long[]> lives = new HashMap<>(); // team -> {last sequence, life}
            for (Op o : p.ops()) {
                if ((o.kind() != Kind.SYNC && o.kind() != Kind.COLLECTIVE) || o.team() == null) {
                    continue;
                }
                long[] life = lives.computeIfAbsent(o.team(), t -> new long[2]);
                if (o.sequence() <= life[0]) {
                    life[1]++;
                }
                life[0] = o.sequence();
                Key key = new Key(o.team(), o.team().equals("SHMEM_TEAM_SHARED") ? p.node() : null, life[1], o.sequence());
                Group g = groups.get(key);
                if (g == null) {
                    g = new Group();
                    groups.put(key, g);
                    order.add(g);
                }
                g.pes.add(p.pe());
                g.ops.add(o);
            }
        }
        for (Group group : order) {
            List<Integer> pes = group.pes;
            List<Op> ops = group.ops;
            if (pes.size() < 2) {
                continue; // a team of one, or a PE whose partners recorded nothing: nobody to be late for
            }
            boolean oneNode = true;
            String node = job.pes().get(pes.get(0)).node();
            for (int pe : pes) {
                oneNode &= job.pes().get(pe).node().equals(node) && !node.equals("?");
            }
            int late = -1;
            long lastArrival = Long.MIN_VALUE;
            long before = Long.MIN_VALUE;
            long first = Long.MAX_VALUE;
            long[] arrival = new long[pes.size()];
            for (int i = 0; i < pes.size(); i++) {
                Op o = ops.get(i);
                arrival[i] = oneNode ? o.start() : -o.duration();
                first = Math.min(first, o.start());
                if (arrival[i] > lastArrival) {
                    before = lastArrival;
                    lastArrival = arrival[i];
                    late = pes.get(i);
                } else if (arrival[i] > before) {
                    before = arrival[i];
                }
            }
            long waited = 0;
            for (long a : arrival) {
                waited += lastArrival - a;
            }
            Op o = ops.get(0);
            instances.add(new Instance(o.kind(), o.routine(), o.team(), o.sequence(), first, pes.size(), late,
                    lastArrival - before, waited));
            waitedFor[late] += waited;
            if (o.kind() == Kind.SYNC) {
                syncs++;
                lastSyncs[late]++;
            } else {
                collectives++;
                lastCollectives[late]++;
            }
        }
        instances.sort(java.util.Comparator.comparingLong(Instance::time));
    }

    /** The PE most often last at the given counts, or -1 without instances. */
    static int mostOften(int[] last) {
        int best = -1;
        for (int pe = 0; pe < last.length; pe++) {
            if (last[pe] > 0 && (best < 0 || last[pe] > last[best])) {
                best = pe;
            }
        }
        return best;
    }

    /**
     * The page's one-line answer, e.g. "PE 2 was last at 75% of barriers/syncs (15 of 20); the
     * others waited 4.1 s for it."
     */
    String summary() {
        StringBuilder s = new StringBuilder();
        sentence(s, lastSyncs, syncs, "barriers/syncs");
        sentence(s, lastCollectives, collectives, "collectives");
        return s.isEmpty() ? "No barrier, sync or collective with two or more PEs was recorded." : s.toString();
    }

    private void sentence(StringBuilder s, int[] last, int total, String what) {
        int pe = mostOften(last);
        if (pe < 0) {
            return;
        }
        for (int other = 0; other < last.length; other++) {
            if (other != pe && last[other] == last[pe]) {
                // naming one of several equally late PEs would point at the wrong place
                s.append(s.isEmpty() ? "" : " ").append("No PE was last more often than the others at ").append(what)
                        .append(" (at most ").append(last[pe]).append(" of ").append(total).append(" each).");
                return;
            }
        }
        if (last[pe] * 2L * last.length < 3L * total) {
            // under 1.5 times an even share: naming it would suggest a culprit where there is none
            s.append(s.isEmpty() ? "" : " ").append("No PE stands out as late at ").append(what).append(": the most often last, PE ")
                    .append(pe).append(", was last at ").append(percent(last[pe], total)).append(" (").append(last[pe]).append(" of ")
                    .append(total).append("), an even share being ").append(percent(1, last.length)).append('.');
            return;
        }
        long waited = 0;
        for (Instance i : instances) {
            if (i.late() == pe && (i.kind() == Kind.SYNC) == what.startsWith("barriers")) {
                waited += i.waited();
            }
        }
        s.append(s.isEmpty() ? "" : " ").append("PE ").append(pe).append(" was last at ").append(percent(last[pe], total))
                .append(" of ").append(what).append(" (").append(last[pe]).append(" of ").append(total)
                .append("); the others waited ").append(Units.seconds(waited)).append(" for it.");
    }

    static String percent(int part, int total) {
        return Math.round(100.0 * part / total) + "%";
    }
}
