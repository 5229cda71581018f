package io.jshmem.bench.report;

import io.jshmem.bench.Metric;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * A performance target on the ratio jshmem/oshmem of one row: at most {@code bound} for latency
 * (lower is better), at least {@code bound} for bandwidth and rate (higher is better).
 */
record Target(Metric metric, double bound) {
    private static final Set<String> COLLECTIVES = Set.of("barrier_all", "broadcast", "sum_reduce", "fcollect",
            "alltoall");

    /**
     * The target of a row, if it has one. From the benchmark issue, all on shm: at 2 PEs, put 8 B
     * (+ quiet), get 8 B, fetch_add and barrier_all latency at most OSHMEM's and 1 MiB put/get
     * bandwidth at least 0.9 of it; at 4 PEs, every collective at most OSHMEM's latency; start-up
     * of a 4-PE job at most OSHMEM's. Over ucx-tcp: see {@link #ucxTcp}. Barrier and ping-pong,
     * with their per-call median and p99: see {@link #waits}.
     */
    static Optional<Target> of(Row.Key k) {
        if (k.op().equals("pingpong") || (k.op().equals("barrier_all") && k.pes() == 2 && k.transport().equals("shm"))) {
            return waits(k);
        }
        if (k.transport().equals("ucx-tcp")) {
            return ucxTcp(k);
        }
        if (!k.transport().equals("shm")) {
            return Optional.empty();
        }
        boolean latency = k.metric() == Metric.LATENCY;
        boolean met2 = k.pes() == 2 && latency && switch (k.op()) {
            case "put", "get", "fetch_add" -> k.bytes() == 8;
            default -> false;
        };
        boolean coll4 = k.pes() == 4 && latency && COLLECTIVES.contains(k.op());
        boolean startup = k.op().equals("startup") && latency;
        if (met2 || coll4 || startup) {
            return Optional.of(new Target(Metric.LATENCY, 1.0));
        }
        boolean bw = k.pes() == 2 && k.metric() == Metric.BANDWIDTH && k.bytes() == 1048576
                && (k.op().equals("put") || k.op().equals("get"));
        return bw ? Optional.of(new Target(Metric.BANDWIDTH, 0.9)) : Optional.empty();
    }

    /**
     * From the UCX issue, 2 PEs with UCX_TLS=tcp,self on both sides: put 8 B, get 8 B and
     * fetch_add latency and 1 MiB put/get bandwidth within 1.2x of OSHMEM.
     */
    private static Optional<Target> ucxTcp(Row.Key k) {
        if (k.pes() != 2) {
            return Optional.empty();
        }
        if (k.metric() == Metric.LATENCY && k.bytes() == 8 && Set.of("put", "get", "fetch_add").contains(k.op())) {
            return Optional.of(new Target(Metric.LATENCY, 1.2));
        }
        boolean bw = k.metric() == Metric.BANDWIDTH && k.bytes() == 1048576 && (k.op().equals("put") || k.op().equals("get"));
        return bw ? Optional.of(new Target(Metric.BANDWIDTH, 1 / 1.2)) : Optional.empty();
    }

    /**
     * From the waiting issue: at 2 PEs on shm, barrier_all and ping-pong at most OSHMEM's loop
     * average and per-call median, and a p99 at most twice OSHMEM's p99; over ucx-tcp, ping-pong
     * (loop average) at most OSHMEM's at 2 and 4 PEs.
     */
    private static Optional<Target> waits(Row.Key k) {
        if (k.transport().equals("shm") && k.pes() == 2) {
            return switch (k.metric()) {
                case LATENCY, LATENCY_P50 -> Optional.of(new Target(Metric.LATENCY, 1.0));
                case LATENCY_P99 -> Optional.of(new Target(Metric.LATENCY, 2.0));
                default -> Optional.empty();
            };
        }
        boolean ucx = k.transport().equals("ucx-tcp") && k.op().equals("pingpong") && k.metric() == Metric.LATENCY;
        return ucx ? Optional.of(new Target(Metric.LATENCY, 1.0)) : Optional.empty();
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
