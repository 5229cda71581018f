/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The blocks of the timeline, one lane per PE. A PE with more events than its share of
 * {@link #MAX_BLOCKS} has neighbouring events of the same kind merged into one block (count and busy
 * time kept), blocks at most 16 gaps long, with a gap that doubles until the lane fits: the page stays a few MiB for 64 PEs and
 * runs of minutes, and what dominates a stretch of time still shows.
 */
final class Timeline {
    /** All lanes together; ~40 bytes of page each (10 numbers). */
    static final int MAX_BLOCKS = 50_000;
    /** A lane gets at least this many, however many PEs. */
    static final int MIN_PER_LANE = 400;

    /**
     * A drawn block: one event ({@code count} 1, {@code op} set) or several merged ({@code op} the
     * first, {@code routine} null when they differ).
     */
    record Block(Kind kind, String routine, String team, long start, long end, int count, long busy, long bytes, Op op) {
    }

    private Timeline() {
    }

    static List<List<Block>> of(Recordings.Job job) {
        int perLane = Math.max(MIN_PER_LANE, MAX_BLOCKS / Math.max(1, job.pes().size()));
        List<List<Block>> lanes = new ArrayList<>();
        for (PeRecording p : job.pes()) {
            lanes.add(lane(p.ops(), perLane, job.spanNanos()));
        }
        return lanes;
    }

    static List<Block> lane(List<Op> ops, int budget, long span) {
        // A view: a dense lane's blocks of one event each live only while the first round reads them.
        List<Block> blocks = new java.util.AbstractList<>() {
            @Override
            public Block get(int i) {
                Op o = ops.get(i);
                return new Block(o.kind(), o.routine(), o.team(), o.start(), o.end(), 1, o.duration(), o.bytes(), o);
            }

            @Override
            public int size() {
                return ops.size();
            }
        };
        if (blocks.size() <= budget) {
            return new ArrayList<>(blocks);
        }
        // Each round merges the previous round's blocks with twice the gap: the rounds shrink fast.
        long gap = Math.max(1, span / (budget * 4L));
        while (blocks.size() > budget) {
            blocks = merge(blocks, gap);
            gap *= 2;
        }
        return blocks;
    }

    /** Merges each kind's consecutive blocks less than {@code gap} apart. */
    private static List<Block> merge(List<Block> blocks, long gap) {
        Map<Kind, Block> open = new EnumMap<>(Kind.class);
        List<Block> out = new ArrayList<>();
        for (Block b : blocks) {
            Block cur = open.get(b.kind());
            // at most 16 gaps long: evenly dense stretches become a row of blocks, not one bar
            if (cur != null && b.start() - cur.end() < gap && b.end() - cur.start() <= 16 * gap) {
                open.put(b.kind(), new Block(cur.kind(), b.routine().equals(cur.routine()) ? cur.routine() : null,
                        java.util.Objects.equals(b.team(), cur.team()) ? cur.team() : null, cur.start(),
                        Math.max(cur.end(), b.end()), cur.count() + b.count(), cur.busy() + b.busy(), cur.bytes() + b.bytes(), cur.op()));
            } else {
                if (cur != null) {
                    out.add(cur);
                }
                open.put(b.kind(), b);
            }
        }
        out.addAll(open.values());
        out.sort(Comparator.comparingLong(Block::start));
        return out;
    }
}
