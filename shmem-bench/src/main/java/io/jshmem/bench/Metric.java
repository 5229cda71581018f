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
    RATE("rate_Mops", "Mops/s");

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
        return this == BANDWIDTH || this == RATE;
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
