/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.heap;

import io.jshmem.ShmemException;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Log;
import io.jshmem.core.base.Setting;
import io.jshmem.core.bootstrap.Bootstrap;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings every PE of a job must share: they fix the heap's layout and how syncs, collectives
 * and atomics run, and PEs that disagree on them would wait for words nobody writes (a hang) or mix
 * CPU and network atomics on one word (lost updates). Each PE publishes its values with its heap
 * record; init compares them along a chain that connects every PE (each PE with its node-mates,
 * whose records it reads anyway, and with the PE before it), so a difference anywhere is found by
 * some PE at one more lookup at most, and that PE then ends the job with its message.
 */
public final class SettingsAgreement {
    /** In the order of the published values. */
    static final List<Setting> AGREED = List.of(Setting.SHMEM_SYMMETRIC_SIZE, Setting.SHMEM_TRANSPORT, Setting.SHMEM_ATOMICS,
            Setting.SHMEM_DEBUG, Setting.JSHMEM_BARRIER_ALGORITHM, Setting.JSHMEM_COLL_ALGORITHM,
            Setting.JSHMEM_REDUCE_ALGORITHM, Setting.JSHMEM_ALLTOALL_ALGORITHM, Setting.JSHMEM_FCOLLECT_ALGORITHM,
            Setting.JSHMEM_BROADCAST_ALGORITHM);

    private SettingsAgreement() {
    }

    /** This PE's values of {@link #AGREED}, comma-separated, as users write them. */
    public static String values(Config c) {
        return String.join(",", AGREED.stream().map(s -> value(s, c)).toList());
    }

    /** {@code c}'s value of {@code s}, one of {@link #AGREED}, as users write it. */
    private static String value(Setting s, Config c) {
        return switch (s) {
            case SHMEM_SYMMETRIC_SIZE -> Config.formatSize(c.symmetricSize());
            case SHMEM_TRANSPORT -> Setting.choiceName(c.transport());
            case SHMEM_ATOMICS -> Setting.choiceName(c.atomics());
            case SHMEM_DEBUG -> c.debug() ? "on" : "off";
            case JSHMEM_BARRIER_ALGORITHM -> Setting.choiceName(c.barrierAlgorithm());
            case JSHMEM_COLL_ALGORITHM -> Setting.choiceName(c.collAlgorithm());
            case JSHMEM_REDUCE_ALGORITHM -> Setting.choiceName(c.reduceAlgorithm());
            case JSHMEM_ALLTOALL_ALGORITHM -> Setting.choiceName(c.alltoallAlgorithm());
            case JSHMEM_FCOLLECT_ALGORITHM -> Setting.choiceName(c.fcollectAlgorithm());
            case JSHMEM_BROADCAST_ALGORITHM -> Setting.choiceName(c.broadcastAlgorithm());
            default -> throw new IllegalArgumentException(s + " is not one of the settings every PE must share");
        };
    }

    /**
     * Null if PE {@code pe}'s published values {@code theirs} equal this PE's {@code mine}; else the
     * message that ends the job, naming each setting that differs and both values. {@code theirs} is
     * null for a record without them (a PE of another jshmem version): nothing to compare.
     */
    static String difference(int me, String mine, int pe, String theirs) {
        if (theirs == null || theirs.equals(mine)) {
            return null;
        }
        String[] a = mine.split(",", -1);
        String[] b = theirs.split(",", -1);
        List<String> differ = new ArrayList<>();
        for (int i = 0; i < AGREED.size(); i++) {
            String x = i < a.length ? a[i] : "?";
            String y = i < b.length ? b[i] : "?";
            if (!x.equals(y)) {
                differ.add(AGREED.get(i).key() + "=" + x + " on PE " + me + " but " + y + " on PE " + pe);
            }
        }
        if (differ.isEmpty()) {
            differ.add("the published values differ (" + mine + " against " + theirs + ")");
        }
        return "PE " + me + ": the PEs of this job run with different settings: " + String.join("; ", differ)
                + ". Every PE must use the same " + String.join(", ", AGREED.stream().map(Setting::key).toList())
                + " (they fix the heap's layout and how syncs, collectives and atomics run)";
    }

    /**
     * Ends the job with {@code problem}, found by this PE: the launcher tells every PE (a PE waiting
     * in a fence then fails with it), as for collective calls that do not match. No fence is added to
     * init for this: agreeing PEs pay nothing but the values in their record.
     */
    static ShmemException abortJob(Bootstrap bootstrap, String problem) {
        Log.HEAP.error("jshmem: " + problem);
        bootstrap.abort(1, problem);
        return new ShmemException(problem);
    }
}
