/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

/**
 * Command-line options shared by the benchmark mains, with the same meaning and the same
 * repetition settings as {@code bench/c/bench_common.h}, so that both sides measure alike.
 *
 * @param quick       {@code --quick}: fewer repetitions and shorter ones (smoke run)
 * @param transport   {@code --transport LABEL}: echoed into the CSV transport column
 * @param injectError {@code --inject-error}: corrupt the moved data once, to show that
 *                    verification fails the run
 * @param reps        timed repetitions per measurement (odd, so the median is one of them)
 * @param targetUs    wanted duration of one timed repetition, in microseconds
 */
public record BenchOptions(boolean quick, String transport, boolean injectError, int reps, double targetUs) {

    private static final String USAGE = """
            usage: bin/oshrun -np N -cp shmem-bench/target/classes io.jshmem.bench.<Main> \
            [--quick] [--transport LABEL] [--inject-error]
              --quick          fewer iterations/repetitions (smoke run)
              --transport L    label for the CSV transport column (default: shm)
              --inject-error   corrupt the moved data once, to test that verification fails the run""";

    /** Parses the arguments; throws {@link IllegalArgumentException} (with {@link #USAGE}) on a bad one. */
    public static BenchOptions parse(String[] args) {
        boolean quick = false;
        boolean injectError = false;
        String transport = "shm";
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--quick")) {
                quick = true;
            } else if (a.equals("--inject-error")) {
                injectError = true;
            } else if (a.equals("--transport") && i + 1 < args.length) {
                transport = args[++i];
            } else if (a.startsWith("--transport=")) {
                transport = a.substring("--transport=".length());
            } else {
                throw new IllegalArgumentException("unknown argument: " + a + "\n" + USAGE);
            }
        }
        // bench_common.h's values; the warm-up (by iteration count) is in Harness.
        return quick
                ? new BenchOptions(true, transport, injectError, 3, 2_000)
                : new BenchOptions(false, transport, injectError, 9, 30_000);
    }
}
