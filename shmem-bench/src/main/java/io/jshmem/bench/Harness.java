package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.util.Arrays;
import java.util.Locale;

/**
 * The measurement method of {@code bench/c/bench_common.h}, in Java: calibrate the iteration count
 * with untimed warm-up repetitions, time {@link BenchOptions#reps()} repetitions, report the median
 * per-iteration value as a CSV row {@code jshmem,transport,pes,op,bytes,metric,value,unit} (PE 0
 * only). Keeping the two sides identical is what makes the jshmem/oshmem ratios meaningful.
 */
public final class Harness {
    /** Upper bound on iterations per repetition (BENCH_MAX_ITERS). */
    private static final long MAX_ITERS = 2_000_000L;

    private final Shmem shmem;
    private final BenchOptions options;
    private final int me;
    /** Symmetric word through which PE 0 hands its calibration decisions to all PEs. */
    private final SymLongArray shareWord;

    private Harness(Shmem shmem, BenchOptions options) {
        this.shmem = shmem;
        this.options = options;
        this.me = shmem.myPe();
        this.shareWord = shmem.calloc(SymType.LONG, 1);
    }

    /**
     * Parses the options and checks the PE count; on bad usage PE 0 prints why and the whole job
     * ends with status 2. Collective.
     */
    public static Harness start(Shmem shmem, String[] args, int minPes, String name) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            throw exit(shmem, 2, name + ": " + e.getMessage());
        }
        if (shmem.nPes() < minPes) {
            throw exit(shmem, 2, name + ": needs at least " + minPes + " PEs");
        }
        return new Harness(shmem, options);
    }

    /**
     * PE 0 prints {@code message}, then the whole job ends with {@code status}. Never returns in
     * practice; the exception is there for callers to throw, so that the compiler knows it too.
     */
    private static IllegalStateException exit(Shmem shmem, int status, String message) {
        if (shmem.myPe() == 0) {
            System.err.println(message);
        }
        shmem.globalExit(status);
        return new IllegalStateException("globalExit returned");
    }

    public Shmem shmem() {
        return shmem;
    }

    public BenchOptions options() {
        return options;
    }

    /** Monotonic time in microseconds. */
    public static double nowUs() {
        return System.nanoTime() / 1e3;
    }

    /** Every PE returns PE 0's {@code v}. Collective. */
    public long share(long v) {
        if (me == 0) {
            for (int pe = 1; pe < shmem.nPes(); pe++) {
                shmem.p(shareWord, 0, v, pe);
            }
        }
        shmem.barrierAll();
        long shared = me == 0 ? v : shareWord.get(0);
        shmem.barrierAll(); // nobody overwrites the word before all have read it
        return shared;
    }

    /**
     * Calibrates, then times the repetitions; returns (on PE 0; 0 elsewhere) the median time per
     * iteration in microseconds. Collective.
     *
     * <p>Calibration is bench_run's: start at one iteration, always take a second round (the first
     * pays page faults and first-touch costs), multiply by 8 until a repetition lasts a quarter of
     * the target, then use the count that makes it last the target. Unlike C, Java code is
     * interpreted and then compiled while it runs, so warm-up also continues at that count until
     * {@link BenchOptions#jitWarmupUs()} of operations have run: otherwise a short (--quick)
     * calibration can end before C2 has compiled the loop and the median would measure the JIT.
     *
     * @param minIters lower bound on the iteration count, so that slow operations still get a
     *                 median over several iterations
     */
    public double measure(Rep rep, long minIters) {
        long n = 1;
        double warmedUs = 0;
        for (int round = 0; ; round++) {
            double t = rep.run(n);
            long next = n;
            if (me == 0) {
                warmedUs += t;
                double per = t > 0 ? t / n : 1e-3;
                long want = Math.max(minIters, Math.min(MAX_ITERS, (long) (options.targetUs() / per)));
                if (round == 0 || (t < options.targetUs() / 4 && n < want)) {
                    next = Math.min(n * 8, want);
                } else if (warmedUs < options.jitWarmupUs()) {
                    next = want;
                } else {
                    next = -want; // negative: calibration done
                }
            }
            next = share(next);
            if (next < 0) {
                n = -next;
                break;
            }
            n = next;
        }
        double[] perIter = new double[options.reps()];
        for (int r = 0; r < perIter.length; r++) {
            perIter[r] = rep.run(n) / n;
        }
        return me == 0 ? median(perIter) : 0;
    }

    /** Median of {@code v} (sorts it). */
    static double median(double[] v) {
        Arrays.sort(v);
        int n = v.length;
        return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    }

    /** Prints one CSV row on PE 0, flushed so that partial results survive a later failure. */
    public void emit(String op, long bytes, Metric metric, double value) {
        if (me != 0) {
            return;
        }
        System.out.printf(Locale.ROOT, "jshmem,%s,%d,%s,%d,%s,%.3f,%s%n", options.transport(), shmem.nPes(), op, bytes,
                metric.label(), value, metric.unit());
        System.out.flush();
    }

    /** A verification failure: reports it and ends the whole job with status 1 (does not return). */
    public void fail(String message) {
        System.err.println("VERIFY FAILED on PE " + me + ": " + message);
        System.err.flush();
        shmem.globalExit(1);
    }
}
