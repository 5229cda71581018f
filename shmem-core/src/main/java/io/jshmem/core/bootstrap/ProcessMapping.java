/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.LaunchEnv;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses PMI's {@code PMI_process_mapping} job attribute: which node each rank runs on.
 *
 * <p>The format (MPICH's, also Slurm's) is {@code (vector,(start,nodes,ranks),...)}: each block puts
 * {@code ranks} consecutive ranks on each of {@code nodes} consecutive nodes from node {@code start};
 * the blocks are repeated, in order, until every rank has a node. So {@code (vector,(0,2,2))} with 4
 * ranks is nodes 0,0,1,1 (block distribution) and {@code (vector,(0,2,1))} is 0,1,0,1 (cyclic).
 */
public final class ProcessMapping {
    private static final Pattern BLOCK = Pattern.compile("\\(\\s*(\\d+)\\s*,\\s*(\\d+)\\s*,\\s*(\\d+)\\s*\\)");
    private static final Pattern WHOLE = Pattern.compile(
            "\\s*\\(\\s*vector\\s*(,\\s*\\(\\s*\\d+\\s*,\\s*\\d+\\s*,\\s*\\d+\\s*\\)\\s*)+\\)\\s*");

    private ProcessMapping() {
    }

    /**
     * The node index of each of {@code size} ranks.
     *
     * @throws IllegalArgumentException if {@code mapping} is not in the format above or places no rank
     */
    public static int[] nodeOfRanks(String mapping, int size) {
        if (mapping == null || !WHOLE.matcher(mapping).matches()) {
            throw new IllegalArgumentException("PMI_process_mapping \"" + mapping + "\" is not (vector,(start,nodes,ranks),...)");
        }
        List<int[]> blocks = new ArrayList<>();
        Matcher m = BLOCK.matcher(mapping);
        long perRound = 0;
        while (m.find()) {
            int[] b = {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))};
            blocks.add(b);
            perRound += (long) b[1] * b[2];
        }
        if (perRound == 0) {
            throw new IllegalArgumentException("PMI_process_mapping \"" + mapping + "\" places no rank");
        }
        int[] node = new int[size];
        int rank = 0;
        while (rank < size) {
            for (int[] b : blocks) {
                for (int n = 0; n < b[1] && rank < size; n++) {
                    for (int r = 0; r < b[2] && rank < size; r++) {
                        node[rank++] = b[0] + n;
                    }
                }
            }
        }
        return node;
    }

    /**
     * The mapping of {@code nodeOf} (the node index of each rank) in the format above, for the jshmem
     * launcher's {@link LaunchEnv#PROCESS_MAPPING}: one block per run of ranks on one node, runs of
     * equal length on consecutive nodes merged, and a pattern that repeats (hosts filled round after
     * round, as with oversubscription) given once: its size grows with the hosts, not the PEs (an
     * environment string must stay well below the kernel's 128 KiB limit).
     */
    public static String encode(int[] nodeOf) {
        List<int[]> blocks = new ArrayList<>();
        for (int i = 0; i < nodeOf.length; ) {
            int node = nodeOf[i];
            int run = 1;
            while (i + run < nodeOf.length && nodeOf[i + run] == node) {
                run++;
            }
            int[] last = blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
            if (last != null && last[2] == run && node == last[0] + last[1]) {
                last[1]++;
            } else {
                blocks.add(new int[] {node, 1, run});
            }
            i += run;
        }
        // The shortest prefix whose repetition places every rank alike: try the places where the
        // first block comes again (a few), else the whole list.
        int tried = 0;
        for (int period = 1; period < blocks.size() && tried < 4; period++) {
            if (Arrays.equals(blocks.get(period), blocks.get(0))) {
                tried++;
                String candidate = text(blocks.subList(0, period));
                if (Arrays.equals(nodeOfRanks(candidate, nodeOf.length), nodeOf)) {
                    return candidate;
                }
            }
        }
        return text(blocks);
    }

    private static String text(List<int[]> blocks) {
        StringBuilder s = new StringBuilder("(vector");
        for (int[] b : blocks) {
            s.append(",(").append(b[0]).append(',').append(b[1]).append(',').append(b[2]).append(')');
        }
        return s.append(')').toString();
    }
}
