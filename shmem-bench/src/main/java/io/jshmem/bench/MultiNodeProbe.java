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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The scale probe of a job across nodes (bench/scale.sh {@code --nodes}, and the multinode module's
 * {@code MultiNodeScaleTest}, Docker containers as nodes): each PE records when it reached main,
 * finished {@code Shmem.init()} and passed the first barrier, its memory ({@code
 * /proc/self/smaps_rollup}, as {@link ScaleProbe}) and CPU time, and the established TCP connections
 * it holds (its own sockets in {@code /proc/self/net/tcp*}: UCX's connections to PEs of other nodes,
 * and the bootstrap's to oshrun) after the first barrier, after a ring put and a broadcast, and
 * after a sum reduction; it checks the values those delivered.
 *
 * <p>One line per PE (times in microseconds since the epoch, memory in kB):
 * <pre>
 * nodeprobe,jshmem,NPES,PE,PID,HOST,LOCAL_NPES,t_launch_us,t_start_us,t_main_us,t_init_us,t_ready_us,t_end_us,
 *   rss0,uss0,rss1,pss1,uss1,rss2,pss2,uss2,cpu_ready_ms,cpu_end_ms,tcp_ready,tcp_bcast,tcp_end,
 *   tcp_launcher,peer_hosts,checks
 * </pre>
 * t_launch is {@code --launch-us} (when the caller started oshrun; else the JVM's start); memory 0
 * is before init, 1 after the first barrier, 2 at the end; tcp_launcher counts the connections
 * (at the end) to oshrun's bootstrap address, peer_hosts the distinct addresses of the others;
 * checks is {@code ok} or the failed checks separated by {@code ;}. With {@code --out DIR} each
 * PE writes its line to {@code DIR/pe-PE.csv}, else to stdout. A failed check fails the PE (exit
 * status 1) after its line is written.
 */
public final class MultiNodeProbe {
    private MultiNodeProbe() {
    }

    public static void main(String[] args) throws IOException {
        long tStart = ManagementFactory.getRuntimeMXBean().getStartTime() * 1000;
        long tMain = ScaleProbe.nowUs();
        long launch = tStart;
        String out = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--launch-us" -> launch = Long.parseLong(args[i + 1]);
                case "--out" -> out = args[i + 1];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        long[] mem0 = ScaleProbe.memory();
        int launcherPort = launcherPort();
        List<String> failures = new ArrayList<>();
        try (Shmem shmem = Shmem.init()) {
            long tInit = ScaleProbe.nowUs();
            int me = shmem.myPe();
            int n = shmem.nPes();
            shmem.barrierAll();
            long tReady = ScaleProbe.nowUs();
            long[] mem1 = ScaleProbe.memory();
            double cpuReady = cpuMs();
            // A barrier before each count (a peer's first operation to this PE opens a connection
            // here) and after it (a peer already in the next operation would open one before the count).
            int tcpReady = connections(launcherPort).total();
            shmem.barrierAll();

            ShmemTeam world = shmem.teamWorld();
            SymLongArray box = shmem.calloc(SymType.LONG, 1);
            SymLongArray src = shmem.calloc(SymType.LONG, 1);
            SymLongArray dst = shmem.calloc(SymType.LONG, 1);
            shmem.p(box, 0, 1000 + me, (me + 1) % n);
            shmem.barrierAll();
            expect(failures, "ring put", box.get(0), 1000 + (me + n - 1) % n);
            src.set(0, 7000 + n);
            world.broadcast(dst, src, 1, 0);
            expect(failures, "broadcast", dst.get(0), 7000 + n);
            shmem.barrierAll();
            int tcpBcast = connections(launcherPort).total();
            shmem.barrierAll();
            long sum = world.sumReduce(me + 1L);
            expect(failures, "sum reduction", sum, (long) n * (n + 1) / 2);
            shmem.barrierAll();
            Tcp end = connections(launcherPort);
            long[] mem2 = ScaleProbe.memory();
            double cpuEnd = cpuMs();
            long tEnd = ScaleProbe.nowUs();

            String line = String.format(Locale.ROOT,
                    "nodeprobe,jshmem,%d,%d,%d,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%d,%.1f,%.1f,%d,%d,%d,%d,%d,%s%n",
                    n, me, ProcessHandle.current().pid(), hostname(), shmem.teamShared().nPes(), launch, tStart, tMain,
                    tInit, tReady, tEnd, mem0[0], mem0[2], mem1[0], mem1[1], mem1[2], mem2[0], mem2[1], mem2[2],
                    cpuReady, cpuEnd, tcpReady, tcpBcast, end.total(), end.toLauncher(), end.peerHosts(),
                    failures.isEmpty() ? "ok" : String.join(";", failures));
            ScaleProbe.write(out, me, line);
            shmem.barrierAll();
        }
        if (!failures.isEmpty()) {
            System.err.println("MultiNodeProbe: " + String.join("; ", failures));
            System.exit(1);
        }
    }

    private static void expect(List<String> failures, String what, long got, long expected) {
        if (got != expected) {
            failures.add(what + " got " + got + " expected " + expected);
        }
    }

    private static double cpuMs() {
        return ManagementFactory.getPlatformMXBean(com.sun.management.OperatingSystemMXBean.class).getProcessCpuTime() / 1e6;
    }

    private static String hostname() {
        try {
            return Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
        } catch (IOException e) {
            return "?";
        }
    }

    /** The port of oshrun's bootstrap server (JSHMEM_BOOTSTRAP is host:port), -1 if not launched by oshrun. */
    private static int launcherPort() {
        String address = System.getenv("JSHMEM_BOOTSTRAP");
        if (address == null || address.lastIndexOf(':') < 0) {
            return -1;
        }
        return Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
    }

    /** This PE's established TCP connections: all, those to oshrun, and the distinct hosts of the others. */
    record Tcp(int total, int toLauncher, int peerHosts) {
    }

    /**
     * From /proc/self/net/tcp and tcp6 (the network namespace's sockets), the established ones
     * (state 01) whose inode is among this process's descriptors; addresses are hex
     * {@code ADDR:PORT}.
     */
    static Tcp connections(int launcherPort) throws IOException {
        Set<String> mine = new HashSet<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String link = Files.readSymbolicLink(fd).toString();
                    if (link.startsWith("socket:[")) {
                        mine.add(link.substring("socket:[".length(), link.length() - 1));
                    }
                } catch (IOException e) {
                    // closed meanwhile
                }
            }
        }
        int total = 0;
        int launcher = 0;
        Set<String> hosts = new HashSet<>();
        for (String table : new String[] {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
            Path path = Path.of(table);
            if (!Files.exists(path)) {
                continue;
            }
            List<String> rows = Files.readAllLines(path);
            for (String row : rows.subList(1, rows.size())) {
                String[] f = row.trim().split("\\s+");
                if (f.length <= 9 || !f[3].equals("01") || !mine.contains(f[9])) {
                    continue;
                }
                total++;
                String remote = f[2];
                int colon = remote.indexOf(':');
                if (Integer.parseInt(remote.substring(colon + 1), 16) == launcherPort) {
                    launcher++;
                } else {
                    hosts.add(remote.substring(0, colon));
                }
            }
        }
        return new Tcp(total, launcher, hosts.size());
    }
}
