/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.apps;

import io.jshmem.HeapExhaustedException;
import io.jshmem.Shmem;
import io.jshmem.SymDoubleArray;
import io.jshmem.SymIntArray;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * ISx, the scalable integer sort ({@code SHMEM/isx.c} of ParRes/ISx), in Java: a bucket sort of
 * uniformly random keys with one bucket per PE. Each iteration every PE draws its keys (PCG32
 * seeded with its PE number, so the keys equal the C program's), counts and bucketizes them
 * locally, then for each PE in round-robin order reserves room in that PE's receive buffer with a
 * remote fetch-and-add on its {@code receive_offset} and puts the bucket there; after a barrier it
 * counts the occurrences of each key it received. One untimed burn-in iteration; the last one is
 * verified. Timings go to the log file and the averages over PEs to stdout, as in C. The three
 * scaling options, which C selects at compile time, are the mains {@link IsxStrong},
 * {@link IsxWeak} and {@link IsxWeakIso}.
 */
final class Isx {
    enum Scaling { STRONG, WEAK, WEAK_ISOBUCKET }

    private static final int ROOT_PE = 0;
    private static final long DEFAULT_MAX_KEY = 1L << 28;
    private static final long ISO_BUCKET_WIDTH = 8192;
    private static final int BURN_IN = 1;
    /** The receive buffer: 2^28 keys (1 GiB) on every PE, as the C program allocates. */
    static final long KEY_BUFFER_SIZE = 1L << 28;
    private static final ValueLayout.OfInt I = ValueLayout.JAVA_INT;

    private final Shmem shmem;
    private final Scaling scaling;
    private final String program;
    private final int myRank;
    private final long numPes;
    private long totalKeys;
    private long numKeysPerPe;
    private long numBuckets;
    private long bucketWidth;
    private long maxKeyVal;
    private long numIterations;
    private SymIntArray myBucketKeys;
    private SymLongArray receiveOffset;
    private long myBucketSize;
    private IsxTimers timers;

    private Isx(Shmem shmem, Scaling scaling, String program) {
        this.shmem = shmem;
        this.scaling = scaling;
        this.program = program;
        this.myRank = shmem.myPe();
        this.numPes = shmem.nPes();
    }

    /** The whole program; returns main's exit status. */
    static int main(Scaling scaling, String program, String[] args) {
        int[] err = {0};
        int status = Prk.run(shmem -> err[0] = new Isx(shmem, scaling, program).run(args));
        return status != 0 ? status : err[0];
    }

    private int run(String[] argv) {
        receiveOffset = shmem.calloc(SymType.LONG, 1); // C: a static long long, zero at start
        try {
            myBucketKeys = shmem.malloc(SymType.INT, KEY_BUFFER_SIZE);
        } catch (HeapExhaustedException e) {
            // Every PE fails here together (the allocation is collective): explain, exit 1.
            if (myRank == ROOT_PE) {
                Prk.printf("ISx needs a symmetric heap of more than %d MiB per PE for its receive buffer: "
                        + "set SHMEM_SYMMETRIC_SIZE (e.g. oshrun -x SHMEM_SYMMETRIC_SIZE=1200m)%n", KEY_BUFFER_SIZE * 4 >> 20);
            }
            throw new Prk.Exit(1);
        }
        shmem.barrierAll(); // init_shmem_sync_array
        String logFile = parseParams(argv);
        int err = bucketSort();
        logTimes(logFile);
        return err;
    }

    private String parseParams(String[] argv) {
        maxKeyVal = DEFAULT_MAX_KEY;
        numBuckets = numPes;
        bucketWidth = (long) Math.ceil((double) maxKeyVal / numBuckets);
        String logFile;
        if (argv.length == 2) {
            numIterations = 1;
            logFile = argv[1];
        } else if (argv.length == 3) {
            numIterations = Prk.atol(argv[1]);
            logFile = argv[2];
        } else {
            if (myRank == 0) {
                Prk.printf("Usage:  %n");
                Prk.printf("  ./%s <total num keys(strong) | keys per pe(weak)> [iterations] <log_file>%n", program);
            }
            throw new Prk.Exit(1);
        }
        String scalingMsg;
        switch (scaling) {
            case STRONG -> {
                totalKeys = Prk.atol(argv[0]);
                numKeysPerPe = (long) Math.ceil((double) totalKeys / numPes);
                scalingMsg = "STRONG";
            }
            case WEAK -> {
                numKeysPerPe = Prk.atol(argv[0]);
                scalingMsg = "WEAK";
            }
            default -> {
                numKeysPerPe = Prk.atol(argv[0]);
                bucketWidth = ISO_BUCKET_WIDTH;
                maxKeyVal = numPes * bucketWidth;
                scalingMsg = "WEAK_ISOBUCKET";
            }
        }
        if (myRank == 0) {
            Prk.printf("ISx v%1d.%1d%n", 1, 1);
            Prk.printf("  Number of Keys per PE: %d%n", numKeysPerPe);
            Prk.printf("  Max Key Value: %d%n", maxKeyVal);
            Prk.printf("  Bucket Width: %d%n", bucketWidth);
            Prk.printf("  Number of Iterations: %d%n", numIterations);
            Prk.printf("  Number of PEs: %d%n", numPes);
            Prk.printf("  %s Scaling!%n", scalingMsg);
        }
        return logFile;
    }

    /** NUM_ITERATIONS + BURN_IN iterations; only those after the burn-in are timed, the last verified. */
    private int bucketSort() {
        int err = 0;
        int iters = Math.toIntExact(numIterations);
        timers = new IsxTimers(iters);
        for (long i = 0; i < numIterations + BURN_IN; ++i) {
            if (i == BURN_IN) {
                timers.reset();
            }
            shmem.barrierAll();
            timers.start(IsxTimers.TOTAL);
            int[] myKeys = makeInput();
            int[] localBucketSizes = countLocalBucketSizes(myKeys);
            int[] sendOffsets = new int[(int) numBuckets];
            int[] localBucketOffsets = computeLocalBucketOffsets(localBucketSizes, sendOffsets);
            int[] myLocalBucketedKeys = bucketizeLocalKeys(myKeys, localBucketOffsets);
            exchangeKeys(sendOffsets, localBucketSizes, myLocalBucketedKeys);
            myBucketSize = receiveOffset.get(0);
            int[] myLocalKeyCounts = countLocalKeys();
            shmem.barrierAll();
            timers.stop(IsxTimers.TOTAL);
            if (i == numIterations) {
                err = verifyResults(myLocalKeyCounts);
            }
            receiveOffset.set(0, 0L); // reset for the next exchange
            shmem.barrierAll();
        }
        shmem.free(myBucketKeys);
        return err;
    }

    private int[] makeInput() {
        timers.start(IsxTimers.INPUT);
        int n = Math.toIntExact(numKeysPerPe);
        int[] myKeys = new int[n];
        Pcg32 rng = new Pcg32(myRank, myRank); // seed_my_rank
        int bound = (int) maxKeyVal;
        for (int i = 0; i < n; ++i) {
            myKeys[i] = rng.bounded(bound);
        }
        timers.stop(IsxTimers.INPUT);
        return myKeys;
    }

    private int[] countLocalBucketSizes(int[] myKeys) {
        int[] sizes = new int[(int) numBuckets];
        timers.start(IsxTimers.BCOUNT);
        // (C clears the malloc'd array here, inside the timer; Java's is born cleared.)
        long w = bucketWidth;
        for (int key : myKeys) {
            sizes[(int) (key / w)]++;
        }
        timers.stop(IsxTimers.BCOUNT);
        return sizes;
    }

    private int[] computeLocalBucketOffsets(int[] sizes, int[] sendOffsets) {
        int[] offsets = new int[(int) numBuckets];
        timers.start(IsxTimers.BOFFSET);
        offsets[0] = 0;
        sendOffsets[0] = 0;
        for (int i = 1; i < numBuckets; i++) {
            int temp = offsets[i - 1] + sizes[i - 1];
            offsets[i] = temp;
            sendOffsets[i] = temp;
        }
        timers.stop(IsxTimers.BOFFSET);
        return offsets;
    }

    private int[] bucketizeLocalKeys(int[] myKeys, int[] offsets) {
        int[] bucketed = new int[myKeys.length];
        timers.start(IsxTimers.BUCKETIZE);
        long w = bucketWidth;
        for (int key : myKeys) {
            int bucketIndex = (int) (key / w);
            bucketed[offsets[bucketIndex]++] = key;
        }
        timers.stop(IsxTimers.BUCKETIZE);
        return bucketed;
    }

    /** Each PE sends the contents of its local buckets to the PE that owns that bucket. */
    private void exchangeKeys(int[] sendOffsets, int[] sizes, int[] bucketed) {
        timers.start(IsxTimers.ATA_KEYS);
        int totalKeysSent = 0;
        // Keys for this PE's own bucket: reserve room like everyone else, then a local copy (memcpy).
        long self = shmem.atomicFetchAdd(receiveOffset, 0, sizes[myRank], myRank);
        myBucketKeys.set(self, bucketed, sendOffsets[myRank], sizes[myRank]);
        for (long i = 0; i < numPes; ++i) {
            int targetPe = (int) ((myRank + i) % numPes);
            if (targetPe == myRank) {
                continue;
            }
            int readOffsetFromSelf = sendOffsets[targetPe];
            int mySendSize = sizes[targetPe];
            long writeOffsetIntoTarget = shmem.atomicFetchAdd(receiveOffset, 0, mySendSize, targetPe);
            shmem.put(myBucketKeys, writeOffsetIntoTarget, bucketed, readOffsetFromSelf, mySendSize, targetPe);
            totalKeysSent += mySendSize;
        }
        shmem.barrierAll(); // BARRIER_ATA
        timers.stop(IsxTimers.ATA_KEYS);
        timers.count(IsxTimers.ATA_KEYS, totalKeysSent);
    }

    /** Counts the occurrences of each key in this PE's bucket (key minus the bucket's lowest key). */
    private int[] countLocalKeys() {
        int[] counts = new int[Math.toIntExact(bucketWidth)];
        timers.start(IsxTimers.SORT);
        int myMinKey = (int) (myRank * bucketWidth);
        MemorySegment keys = myBucketKeys.local();
        for (long i = 0; i < myBucketSize; ++i) {
            counts[keys.getAtIndex(I, i) - myMinKey]++;
        }
        timers.stop(IsxTimers.SORT);
        return counts;
    }

    /** Every key within this PE's bucket bounds, the counts adding up, and no key lost overall. */
    private int verifyResults(int[] myLocalKeyCounts) {
        shmem.barrierAll();
        int error = 0;
        int myMinKey = (int) (myRank * bucketWidth);
        int myMaxKey = (int) ((myRank + 1) * bucketWidth - 1);
        MemorySegment keys = myBucketKeys.local();
        for (long i = 0; i < myBucketSize; ++i) {
            int key = keys.getAtIndex(I, i);
            if (key < myMinKey || key > myMaxKey) {
                Prk.printf("Rank %d Failed Verification!%n", myRank);
                Prk.printf("Key: %d is outside of bounds [%d, %d]%n", key, myMinKey, myMaxKey);
                error = 1;
            }
        }
        long bucketSizeTest = 0;
        for (int c : myLocalKeyCounts) {
            bucketSizeTest += c;
        }
        if (bucketSizeTest != myBucketSize) {
            Prk.printf("Rank %d Failed Verification!%n", myRank);
            Prk.printf("Actual Bucket Size: %d Should be %d%n", bucketSizeTest, myBucketSize);
            error = 1;
        }
        // C: shmem_long_sum_to_all through two symmetric longs; here the team's scalar reduction.
        long total = shmem.teamWorld().sumReduce(myBucketSize);
        shmem.barrierAll();
        if (total != numKeysPerPe * numPes) {
            if (myRank == ROOT_PE) {
                Prk.printf("Verification Failed!%n");
                Prk.printf("Actual total number of keys: %d Expected %d%n", total, numKeysPerPe * numPes);
                error = 1;
            }
        }
        return error;
    }

    /** log_times: the log file (run info and timer names once, then every PE's rows in turn), then the summary. */
    private void logTimes(String logFile) {
        Path log = Path.of(logFile);
        if (myRank == ROOT_PE) {
            boolean printNames = !Files.exists(log);
            try (PrintStream fp = open(log)) {
                if (printNames) {
                    fp.print(runInfo());
                    fp.print(timerNames());
                }
            }
        }
        for (int i = 0; i < numPes; ++i) {
            if (i == myRank) {
                try (PrintStream fp = open(log)) {
                    fp.print(timerValues());
                }
            }
            shmem.barrierAll();
        }
        double[][] peAverageTimes = new double[IsxTimers.NTIMERS][];
        for (int t = 0; t < IsxTimers.NTIMERS; ++t) {
            peAverageTimes[t] = gatherRankTimes(t);
        }
        if (myRank == ROOT_PE) {
            if (timers.secondsIter[IsxTimers.TOTAL] > 0) {
                Prk.printf("Average total time (per PE): %f seconds%n", mean(peAverageTimes[IsxTimers.TOTAL]));
            }
            if (timers.secondsIter[IsxTimers.ATA_KEYS] > 0) {
                Prk.printf("Average all2all time (per PE): %f seconds%n", mean(peAverageTimes[IsxTimers.ATA_KEYS]));
            }
        }
    }

    private double mean(double[] perPe) {
        double temp = 0.0;
        for (double v : perPe) {
            temp += v;
        }
        return temp / numPes;
    }

    private static PrintStream open(Path log) {
        try {
            return new PrintStream(new FileOutputStream(log.toFile(), true), false, "UTF-8");
        } catch (IOException e) {
            // C: perror("Error opening log file:") and exit(1) on this PE alone: the job fails.
            System.err.println("Error opening log file:: " + e.getMessage());
            System.exit(1);
            throw new AssertionError(e);
        }
    }

    private String runInfo() {
        StringBuilder s = new StringBuilder();
        s.append("SHMEM\t");
        s.append("NUM_PES ").append(numPes).append('\t');
        s.append("Max_Key ").append(maxKeyVal).append('\t');
        s.append("Num_Iters ").append(numIterations).append('\t');
        switch (scaling) {
            case STRONG -> s.append("Strong Scaling: ").append(numKeysPerPe * numPes).append(" total keys\t");
            case WEAK -> s.append("Weak Scaling: ").append(numKeysPerPe).append(" keys per PE\t");
            default -> s.append("Weak Scaling Constant Bucket Width: ").append(numKeysPerPe).append("u keys per PE \t")
                    .append("Constant Bucket Width: ").append(bucketWidth).append('\t');
        }
        s.append("Round Robin All2All\t");
        return s.append('\n').toString();
    }

    private String timerNames() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < IsxTimers.NTIMERS; ++i) {
            if (timers.secondsIter[i] > 0) s.append(IsxTimers.NAMES[i]).append(" (sec)\t");
            if (timers.countIter[i] > 0) s.append(IsxTimers.NAMES[i]).append("_COUNTS\t");
        }
        return s.append('\n').toString();
    }

    private String timerValues() {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < numIterations; ++i) {
            for (int t = 0; t < IsxTimers.NTIMERS; ++t) {
                if (timers.secondsIter[t] > 0) s.append(String.format(Locale.ROOT, "%f\t", timers.seconds[t][i]));
                if (timers.countIter[t] > 0) s.append(Integer.toUnsignedString(timers.count[t][i])).append('\t');
            }
            s.append('\n');
        }
        return s.toString();
    }

    /** Every PE's average of timer t, gathered on every PE with fcollect; null if t never ran. */
    private double[] gatherRankTimes(int t) {
        if (timers.secondsIter[t] <= 0) {
            return null;
        }
        shmem.barrierAll();
        SymDoubleArray myAverageTime = shmem.malloc(SymType.DOUBLE, 1);
        double temp = 0.0;
        for (int i = 0; i < timers.secondsIter[t]; i++) {
            temp += timers.seconds[t][i];
        }
        myAverageTime.set(0, temp / timers.secondsIter[t]);
        SymDoubleArray peAverageTimes = shmem.malloc(SymType.DOUBLE, numPes);
        shmem.barrierAll();
        shmem.teamWorld().fcollect(peAverageTimes, myAverageTime, 1);
        shmem.barrierAll();
        shmem.free(myAverageTime);
        double[] out = new double[(int) numPes];
        for (int i = 0; i < numPes; i++) {
            out[i] = peAverageTimes.get(i);
        }
        shmem.free(peAverageTimes);
        return out;
    }
}
