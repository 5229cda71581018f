/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import io.jshmem.ShmemException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.util.Map;
import jdk.jfr.Category;
import jdk.jfr.Configuration;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.StackTrace;

/**
 * JDK Flight Recorder events of jshmem (category "jshmem"), and the per-PE recording that
 * {@code oshrun --jfr} asks for. Each event type has a static probe: code checks
 * {@link #recorderStarted()}, then {@code X.ON.isEnabled()} (a static field read that the JIT folds
 * while JFR does not record the event), before it creates an event, so disabled events cost
 * nothing measurable.
 */
public final class Flight {
    /** Transfers at least this large are recorded as {@link Transfer} events. */
    public static final long TRANSFER_THRESHOLD = 64 * 1024;
    /** oshrun --jfr sets these: the recording's settings (a name such as "default" or "profile", or a .jfc file) and directory. */
    public static final String ENV_SETTINGS = Setting.JSHMEM_JFR.key();
    public static final String ENV_DIR = Setting.JSHMEM_JFR_DIR.key();
    /** JFR's repository under oshrun --jfr: this 0700 directory in {@link #ENV_DIR}. */
    public static final String REPOSITORY = ".jfr-repository";

    private Flight() {
    }

    /**
     * Whether JFR has started in this JVM (oshrun --jfr, -XX:StartFlightRecording, jcmd JFR.start).
     * Checked before any event class is touched: the first use of an event class makes the JDK
     * instrument it and read its annotations (0.24-0.31 CPU-s per PE, in the first barrier of
     * every program: more than the rest of a PE's start-up), which is wasted while nothing records.
     */
    public static boolean recorderStarted() {
        return FlightRecorder.isInitialized();
    }

    @Name("jshmem.Sync")
    @Label("Barrier / Sync")
    @Category("jshmem")
    @Description("shmem_barrier_all, shmem_sync_all or shmem_team_sync: the time this PE waited for the others")
    @StackTrace(false)
    public static final class Sync extends Event {
        public static final Sync ON = new Sync();
        public @Label("Team") String team;
        public @Label("Routine") String routine;
        /** How the team syncs: linear, hierarchical, central or dissemination (JSHMEM_BARRIER_ALGORITHM, auto resolved). */
        public @Label("Algorithm") String algorithm;
        /** The team's count of recorded syncs and collectives: with the team, names the operation on every member (shmem-report matches on it). */
        public @Label("Team Sequence") long sequence;
    }

    @Name("jshmem.Collective")
    @Label("Collective")
    @Category("jshmem")
    @Description("A collective operation on a team: broadcast, (f)collect, alltoall(s), reduction, scan")
    @StackTrace(false)
    public static final class Collective extends Event {
        public static final Collective ON = new Collective();
        public @Label("Team") String team;
        public @Label("Routine") String routine;
        public @Label("Bytes") @DataAmount long bytes;
        public @Label("Team size") int teamSize;
        /** One of the names Collectives assigns; the user guide's JFR section lists them. */
        @Label("Algorithm")
        @Description("How the data moved (push, in-place, push-tree, pull, pull-reduce-scatter-allgather, ...):"
                + " see the user guide, 'The algorithm field'")
        public String algorithm;
        /** As {@link Sync#sequence}: the same team count, so both kinds of operation are numbered together. */
        public @Label("Team Sequence") long sequence;
    }

    @Name("jshmem.Quiet")
    @Label("Quiet")
    @Category("jshmem")
    @Description("shmem_quiet / shmem_ctx_quiet / shmem_pe_quiet: completing outstanding operations")
    @StackTrace(false)
    public static final class Quiet extends Event {
        public static final Quiet ON = new Quiet();
    }

    @Name("jshmem.Fence")
    @Label("Fence")
    @Category("jshmem")
    @Description("shmem_fence / shmem_ctx_fence")
    @StackTrace(false)
    public static final class Fence extends Event {
        public static final Fence ON = new Fence();
    }

    @Name("jshmem.Wait")
    @Label("Wait")
    @Category("jshmem")
    @Description("A point-to-point wait (wait_until family, signal_wait_until) that did not find its condition true at once")
    public static final class Wait extends Event {
        public static final Wait ON = new Wait();
        public @Label("Routine") String routine;
    }

    @Name("jshmem.Lock")
    @Label("Lock Acquisition")
    @Category("jshmem")
    @Description("shmem_set_lock: the time until the lock was held")
    public static final class Lock extends Event {
        public static final Lock ON = new Lock();
    }

    @Name("jshmem.Allocation")
    @Label("Symmetric Allocation")
    @Category("jshmem")
    @Description("shmem_malloc, calloc, align, realloc, free (collective)")
    public static final class Allocation extends Event {
        public static final Allocation ON = new Allocation();
        public @Label("Routine") String routine;
        public @Label("Bytes") @DataAmount long bytes;
    }

    @Name("jshmem.Transfer")
    @Label("Large Put / Get")
    @Category("jshmem")
    @Description("A put or get of at least 64 KiB")
    @StackTrace(false)
    public static final class Transfer extends Event {
        public static final Transfer ON = new Transfer();
        public @Label("Routine") String routine;
        public @Label("Target PE") int pe;
        public @Label("Bytes") @DataAmount long bytes;
        public @Label("Through the network transport") boolean remote;
    }

    @Name("jshmem.Host")
    @Label("PE Host")
    @Category("jshmem")
    @Description("The host this PE runs on, once at the start of its recording (shmem-report names the job's hosts with it)")
    @StackTrace(false)
    static final class Host extends Event {
        @Label("Host name") String host;
    }

    /** This machine's name from the kernel (no DNS lookup, which could stall the PE's start), or null. */
    private static String hostName() {
        try {
            String name = Files.readString(Path.of("/proc/sys/kernel/hostname")).strip();
            return name.isEmpty() ? null : name;
        } catch (IOException | RuntimeException e) {
            return Settings.system().env("HOSTNAME");
        }
    }

    /**
     * Starts this PE's recording when {@code oshrun --jfr} asked for one: settings from
     * {@code JSHMEM_JFR}, written at finalize or exit to {@code JSHMEM_JFR_DIR/<job>-pe<N>.jfr} (mode
     * 0600; the directory, when this creates it, 0700).
     * Returns null when none was asked for.
     */
    public static Recording startRecording(Map<String, String> env, String jobId, int generation, int pe) {
        String settings = env.get(ENV_SETTINGS);
        if (settings == null || settings.isBlank() || !Config.flag(settings)) {
            return null;
        }
        String name = settings.equals("1") || settings.equalsIgnoreCase("true") || settings.equalsIgnoreCase("on")
                ? "default" : settings.strip();
        Path dir = Path.of(Settings.of(env).text(Setting.JSHMEM_JFR_DIR));
        try {
            if (!Files.isDirectory(dir)) {
                // A recording holds the PE's environment, command line and stacks: private to its user.
                // Made before JFR starts: oshrun makes it JFR's repository too (see PeCommand), which JFR
                // would otherwise create with the umask's mode.
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            // oshrun makes JFR's repository this 0700 directory, whose chunks JFR writes with the
            // umask's modes; on another host of the job it is made here, before JFR starts.
            Path repository = dir.resolve(REPOSITORY);
            if (!Files.isDirectory(repository) && java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()
                    .contains("-XX:FlightRecorderOptions:repository=" + repository)) {
                Files.createDirectories(repository, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Configuration c = name.endsWith(".jfc") ? Configuration.create(Path.of(name)) : Configuration.getConfiguration(name);
            Recording r = new Recording(c);
            r.setName("jshmem PE " + pe);
            // jdk.jfr settings files know nothing of jshmem: its events are always on in the recording.
            for (Class<? extends Event> e : java.util.List.of(Sync.class, Collective.class, Quiet.class, Fence.class,
                    Wait.class, Lock.class, Allocation.class, Transfer.class, Host.class)) {
                r.enable(e).withoutThreshold();
            }
            // One file per initialization of jshmem in the process: a re-initialization's gets -g<n>.
            Path file = dir.resolve(jobId + "-pe" + pe + (generation == 0 ? "" : "-g" + generation) + ".jfr");
            // JFR truncates the file it is given and writes into it, keeping its mode: 0600, not the umask's.
            Files.deleteIfExists(file);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            r.setDestination(file);
            r.setDumpOnExit(true);
            r.start();
            Host host = new Host();
            host.host = hostName();
            host.commit();
            return r;
        } catch (IOException | ParseException | RuntimeException e) {
            throw new ShmemException("PE " + pe + ": cannot start the flight recording (" + ENV_SETTINGS + "=" + settings
                    + ", " + ENV_DIR + "=" + dir + "): " + e.getMessage(), e);
        }
    }

    /** Stops the recording (writing its file), at finalize. */
    public static void stop(Recording r) {
        if (r != null) {
            try {
                r.stop(); // writes the destination file
            } catch (IllegalStateException ignored) {
                // Already stopped (exit raced finalize).
            } finally {
                r.close();
            }
        }
    }
}
