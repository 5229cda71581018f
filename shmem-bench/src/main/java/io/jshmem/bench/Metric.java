/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

/** The metric column of the CSV, with its unit. MB is 10^6 bytes, as in the OSU micro-benchmarks. */
public enum Metric {
    /** Time per operation: the loop average (median of the repetitions). */
    LATENCY("lat_us", "us"),
    /** Median of the per-call times of an operation that waits (barrier, ping-pong, collectives). */
    LATENCY_P50("lat_p50_us", "us"),
    /** 99th percentile of the same per-call times. */
    LATENCY_P99("lat_p99_us", "us"),
    BANDWIDTH("bw_MBps", "MB/s"),
    /** Bandwidth of the median window: bytes of a window / the median of the per-window times. */
    BW_P50("bw_p50_MBps", "MB/s"),
    /** Bandwidth of the 99th-percentile (slow) window: bytes of a window / the p99 window time. */
    BW_P99("bw_p99_MBps", "MB/s"),
    RATE("rate_Mops", "Mops/s"),
    /** Start-up: the median CPU-seconds (launcher and every PE) of the hello-world runs. */
    CPU_P50("cpu_p50_s", "s"),
    /** Start-up: the nearest-rank 99th percentile of the same runs' CPU-seconds (of 7 runs: the largest). */
    CPU_P99("cpu_p99_s", "s"),
    // Time to steady state (SteadyBench, bench/c/steady.c): PE 0's per-call times of the first calls after init.
    /** The time of the first 1,000 calls after init. */
    FIRST1000("first1000_us", "us"),
    /** The median of the first 100 calls after init. */
    FIRST100_P50("first100_p50_us", "us"),
    /** The median per-call time once warmed up by the harness's rule (the steady state). */
    STEADY_P50("steady_p50_us", "us"),
    /**
     * Calls after init until the moving median (of 25 calls, {@code SteadyBench.WINDOW}) first came within
     * 1.2x of the steady-state median; 1001 when the first 1,000 calls never did.
     */
    TO_STEADY("calls_to_steady", "calls"),
    // Per job (op job_<program>, bytes 0), written by bench/run.sh and bench/oshmem.sh:
    /** Wall time of the whole job (launch to exit). */
    WALL("wall_s", "s"),
    /** User + system CPU time of the whole job: the launcher and every PE. */
    CPU("cpu_s", "s"),
    /** 1-minute load average when the job started (includes the benchmark's own earlier jobs). */
    LOAD("load_avg", "load"),
    /** Cores kept busy by other processes during the job, on average (from /proc/stat). */
    OTHER_CPU("other_cpu", "cores"),
    /** 1 if the PEs were bound to cores, 0 if unbound. */
    BIND("bind_core", "flag");

    private final String label;
    private final String unit;

    Metric(String label, String unit) {
        this.label = label;
        this.unit = unit;
    }

    /** The CSV name, e.g. {@code lat_us}. */
    public String label() {
        return label;
    }

    public String unit() {
        return unit;
    }

    /** Whether a larger value is better (bandwidth, rate) rather than a smaller one (latency). */
    public boolean higherIsBetter() {
        return this == BANDWIDTH || this == BW_P50 || this == BW_P99 || this == RATE;
    }

    /** Whether this describes a whole job (wall, CPU, load, binding) rather than an operation. */
    public boolean perJob() {
        return ordinal() >= WALL.ordinal();
    }

    /** The metric whose CSV name is {@code label}. */
    public static Metric of(String label) {
        for (Metric m : values()) {
            if (m.label.equals(label)) {
                return m;
            }
        }
        throw new IllegalArgumentException("unknown metric: " + label);
    }
}
