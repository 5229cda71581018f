/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench.report;

import io.jshmem.bench.Metric;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A performance target on the ratio jshmem/oshmem of one row: at most {@code bound} for latency
 * and CPU-seconds (lower is better), at least {@code bound} for bandwidth (higher is better).
 *
 * <p>Targets are judged on distributions, never on a loop mean alone (issue 37): a row that has a
 * target has it on its per-call median ({@code lat_p50_us}, {@code bw_p50_MBps}, {@code cpu_p50_s})
 * with the bound {@link #base} gives, and on its 99th percentile ({@code lat_p99_us}, {@code
 * bw_p99_MBps}, {@code cpu_p99_s}) with jshmem's p99 at most {@value #P99_BOUND}x OSHMEM's (for
 * bandwidth: at least 1/{@value #P99_BOUND} of it). The loop mean ({@code lat_us}, {@code bw_MBps})
 * is shown but has no target. The one exception is a whole job's CPU-seconds over UCX ({@code
 * cpu_s} of a {@code job_} row), a single total per job and round.
 */
record Target(Metric metric, double bound) {
    /** jshmem's p99 at most this many times OSHMEM's p99, wherever the median has a target. */
    static final double P99_BOUND = 1.5;

    private static final Set<String> COLLECTIVES = Set.of("barrier_all", "broadcast", "sum_reduce", "fcollect",
            "alltoall", "broadcast+barrier_all", "sum_reduce+barrier_all", "fcollect+barrier_all",
            "alltoall+barrier_all");

    /** The target of a row, if it has one: see the class comment and {@link #base}. */
    static Optional<Target> of(Row.Key k) {
        if (k.metric() == Metric.CPU && k.transport().equals("ucx-tcp") && (k.pes() == 2 || k.pes() == 4)
                && k.op().startsWith("job_")) {
            return Optional.of(new Target(Metric.CPU, 1.5));
        }
        Optional<Double> base = base(k);
        return switch (k.metric()) {
            case LATENCY_P50, BW_P50, CPU_P50 -> base.map(b -> new Target(k.metric(), b));
            case LATENCY_P99, CPU_P99 -> base.map(b -> new Target(k.metric(), P99_BOUND));
            case BW_P99 -> base.map(b -> new Target(k.metric(), 1 / P99_BOUND));
            default -> Optional.empty();
        };
    }

    /** Whether {@code k} is a median row (p50) of the kind that {@link #base} may give a target. */
    static boolean isMedian(Metric m) {
        return m == Metric.LATENCY_P50 || m == Metric.BW_P50 || m == Metric.CPU_P50;
    }

    /** The p99 metric that goes with a median metric, and the loop mean (none for CPU). */
    static Metric tailOf(Metric median) {
        return switch (median) {
            case LATENCY_P50 -> Metric.LATENCY_P99;
            case BW_P50 -> Metric.BW_P99;
            case CPU_P50 -> Metric.CPU_P99;
            default -> throw new IllegalArgumentException(median.label());
        };
    }

    static Optional<Metric> meanOf(Metric median) {
        return switch (median) {
            case LATENCY_P50 -> Optional.of(Metric.LATENCY);
            case BW_P50 -> Optional.of(Metric.BANDWIDTH);
            default -> Optional.empty();
        };
    }

    /** The median metric of a row's family (latency, bandwidth, CPU), if it has one. */
    static Optional<Metric> medianOf(Metric m) {
        return switch (m) {
            case LATENCY, LATENCY_P50, LATENCY_P99 -> Optional.of(Metric.LATENCY_P50);
            case BANDWIDTH, BW_P50, BW_P99 -> Optional.of(Metric.BW_P50);
            case CPU_P50, CPU_P99 -> Optional.of(Metric.CPU_P50);
            default -> Optional.empty();
        };
    }

    /**
     * The bound on the median of a row's family (the waiting-and-collectives issue's targets, the
     * strictest the project has set; they supersede the first UCX issue's 1.2x at 2 PEs), whatever
     * the row's own quantile:
     * <ul>
     * <li>2 PEs on shm: put, get and fetch_add 8 B latency at most half OSHMEM's; barrier_all and
     * ping-pong at most OSHMEM's; 1 MiB put and get bandwidth at least 0.9 of OSHMEM's.
     * <li>4 PEs on shm: every collective, alone and with the following barrier, at most OSHMEM's.
     * <li>start-up of a 4-PE job, distribution and source-tree layout: wall time and CPU-seconds at
     * most OSHMEM's.
     * <li>ucx-tcp at 2 and 4 PEs: put, get and fetch_add 8 B, ping-pong, barrier_all and every
     * collective at most OSHMEM's latency; 1 MiB put and get bandwidth at least 0.9 of OSHMEM's.
     * </ul>
     */
    static Optional<Double> base(Row.Key k) {
        Optional<Metric> family = medianOf(k.metric());
        if (family.isEmpty()) {
            return Optional.empty();
        }
        boolean latency = family.get() == Metric.LATENCY_P50;
        boolean startup = k.op().equals("startup") || k.op().equals("startup_src");
        if (family.get() == Metric.CPU_P50) {
            return startup ? Optional.of(1.0) : Optional.empty();
        }
        if (family.get() == Metric.BW_P50) {
            boolean bw = k.bytes() == 1048576 && (k.op().equals("put") || k.op().equals("get"));
            boolean where = k.transport().equals("shm") ? k.pes() == 2 : k.transport().equals("ucx-tcp")
                    && (k.pes() == 2 || k.pes() == 4);
            return bw && where ? Optional.of(0.9) : Optional.empty();
        }
        boolean small = k.bytes() == 8 && Set.of("put", "get", "fetch_add").contains(k.op());
        if (k.transport().equals("shm")) {
            if (startup && latency) {
                return Optional.of(1.0);
            }
            if (k.pes() == 2 && small) {
                return Optional.of(0.5);
            }
            if (k.pes() == 2 && (k.op().equals("pingpong") || k.op().equals("barrier_all"))) {
                return Optional.of(1.0);
            }
            return k.pes() == 4 && COLLECTIVES.contains(k.op()) ? Optional.of(1.0) : Optional.empty();
        }
        if (k.transport().equals("ucx-tcp") && (k.pes() == 2 || k.pes() == 4)
                && (small || COLLECTIVES.contains(k.op()) || k.op().equals("pingpong"))) {
            return Optional.of(1.0);
        }
        return Optional.empty();
    }

    /** Whether the ratio jshmem/oshmem meets the target. */
    boolean met(double ratio) {
        return metric.higherIsBetter() ? ratio >= bound : ratio <= bound;
    }

    /** E.g. {@code ≤ 1.00} or {@code ≥ 0.90}. */
    String describe() {
        return String.format(Locale.ROOT, "%s %.2f", metric.higherIsBetter() ? "≥" : "≤", bound);
    }
}
