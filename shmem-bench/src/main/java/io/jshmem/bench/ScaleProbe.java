/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.bench;

import io.jshmem.Shmem;
import io.jshmem.ShmemTeam;
import io.jshmem.SymLongArray;
import io.jshmem.SymType;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Scale probe, the Java side of {@code bench/c/scale.c} (bench/scale.sh runs both): when each PE
 * reached main, finished {@code Shmem.init()} and passed the first barrier (wall-clock, so that the
 * script can line them up with the launch time and with the JFR trace of init), its memory before
 * and after init ({@code /proc/self/smaps_rollup}, and the Java heap in use after a full GC), its
 * CPU time, then the latency of barrierAll and of an 8-byte broadcast at this PE count.
 *
 * <p>One line per PE on stdout, the format of scale.c (times in microseconds since the epoch,
 * memory in kB):
 * <pre>
 * probe,jshmem,NPES,PE,PID,t_start_us,t_main_us,t_init_us,t_ready_us,rss0,pss0,uss0,rss1,pss1,uss1,
 *   jheap0,jheap1,cpu_ready_ms,barrier_us,bcast_us,iters
 * </pre>
 * t_start is the JVM's start (RuntimeMXBean, millisecond grain). With {@code --out DIR} each PE
 * writes its line to {@code DIR/pe-PE.csv} instead (the launcher may interleave lines of PEs).
 */
public final class ScaleProbe {
    private ScaleProbe() {
    }

    public static void main(String[] args) {
        long tStart = ManagementFactory.getRuntimeMXBean().getStartTime() * 1000;
        long tMain = nowUs();
        long[] mem0 = memory();
        long jheap0 = javaHeapKb();

        try (Shmem shmem = Shmem.init()) {
            long tInit = nowUs();
            int me = shmem.myPe();
            int npes = shmem.nPes();
            shmem.barrierAll();
            long tReady = nowUs();
            long[] mem1 = memory();
            long jheap1 = javaHeapKb();
            double cpuMs = ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class)
                    .getProcessCpuTime() / 1e6;

            SymLongArray src = shmem.calloc(SymType.LONG, 1);
            SymLongArray dst = shmem.calloc(SymType.LONG, 1);
            SymLongArray count = shmem.calloc(SymType.LONG, 1);
            ShmemTeam world = shmem.teamWorld();
            src.set(0, 42);
            shmem.barrierAll();

            // Iteration count: about 0.3 s of barriers, as PE 0 measured them, the same on every PE.
            for (int i = 0; i < 50; i++) {
                shmem.barrierAll();
            }
            long t = System.nanoTime();
            for (int i = 0; i < 50; i++) {
                shmem.barrierAll();
            }
            double per = (System.nanoTime() - t) / 50e9;
            if (me == 0) {
                long n = Math.max(20, Math.min(5000, (long) (0.3 / per)));
                for (int pe = 0; pe < npes; pe++) {
                    shmem.p(count, 0, n, pe);
                }
            }
            shmem.barrierAll();
            long iters = count.get(0);

            // barrierAll: a warm-up pass, then a back-to-back timed loop.
            for (long i = 0; i < iters; i++) {
                shmem.barrierAll();
            }
            t = System.nanoTime();
            for (long i = 0; i < iters; i++) {
                shmem.barrierAll();
            }
            double barrierUs = (System.nanoTime() - t) / 1e3 / iters;

            // Broadcast of 8 bytes from PE 0: each call timed alone, an untimed barrier in between (as scale.c).
            long sum = 0;
            for (int pass = 0; pass < 2; pass++) {
                sum = 0;
                for (long i = 0; i < iters; i++) {
                    shmem.barrierAll();
                    long t0 = System.nanoTime();
                    world.broadcast(dst, src, 1, 0);
                    sum += System.nanoTime() - t0;
                }
            }
            shmem.barrierAll();
            if (dst.get(0) != 42) {
                throw new IllegalStateException("PE " + me + ": broadcast delivered " + dst.get(0) + ", expected 42");
            }
            double bcastUs = sum / 1e3 / iters;

            String line = String.format(java.util.Locale.ROOT,
                    "probe,jshmem,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.1f,%.3f,%.3f,%d%n",
                    npes, me, ProcessHandle.current().pid(), tStart, tMain, tInit, tReady, mem0[0], mem0[1], mem0[2],
                    mem1[0], mem1[1], mem1[2], jheap0, jheap1, cpuMs, barrierUs, bcastUs, iters);
            write(args, me, line);
            shmem.barrierAll();
        }
    }

    /** To DIR/pe-PE.csv with {@code --out DIR} (the launcher may interleave the PEs' output), else stdout. */
    private static void write(String[] args, int me, String line) {
        write(args.length == 2 && args[0].equals("--out") ? args[1] : null, me, line);
    }

    /** To DIR/pe-PE.csv if {@code dir} is not null, else stdout. */
    static void write(String dir, int me, String line) {
        if (dir != null) {
            try {
                Files.writeString(Path.of(dir, "pe-" + me + ".csv"), line);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        } else {
            System.out.print(line);
            System.out.flush();
        }
    }

    static long nowUs() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /** The Java heap in use after a full collection, in kB: what the runtime's objects keep alive. */
    private static long javaHeapKb() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / 1024;
    }

    /** Rss, Pss and Private_Clean + Private_Dirty (USS) of this process, in kB (-1 if unreadable). */
    static long[] memory() {
        long rss = -1;
        long pss = -1;
        long uss = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/smaps_rollup"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length < 2) {
                    continue;
                }
                switch (f[0]) {
                    case "Rss:" -> rss = Long.parseLong(f[1]);
                    case "Pss:" -> pss = Long.parseLong(f[1]);
                    case "Private_Clean:", "Private_Dirty:" -> uss += Long.parseLong(f[1]);
                    default -> {
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1, -1};
        }
        return new long[] {rss, pss, uss};
    }
}
