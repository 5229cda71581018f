/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.base.ProcFs;
import io.jshmem.core.base.Setting;
import io.jshmem.core.bootstrap.BootstrapProtocol;
import io.jshmem.core.bootstrap.JobSecret;
import io.jshmem.launcher.HostList.Placement;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One run of N PEs: starts them, watches them and the bootstrap server, and ends the job at the
 * first failure, abort, timeout or signal. The first such event decides the status ({@link #end});
 * everything after it is expected fallout and stays quiet.
 *
 * <p>PEs on this machine are child processes. The PEs on another host are started by one launch
 * agent process (ssh, docker exec...) for the host, which runs their start script there
 * ({@link RemoteCommand#hostScript}); each is represented by a {@link RemotePe}, which exits with
 * the status the script reports for it, and closing the agent's standard input ends them all.
 */
final class Job implements BootstrapServer.Listener {
    /** For a dead PE's last bootstrap messages (FINALIZED, ABORT) to be read from its socket. */
    private static final long SETTLE_MILLIS = 2_000;
    /** For the connection of a PE that died right after connecting to get out of the accept queue. */
    private static final long HELLO_GRACE_MILLIS = 100;
    /** A PE that drops its connection usually exits; give its exit the chance to be the reported cause. */
    private static final long DISCONNECT_GRACE_MILLIS = 1_000;
    /**
     * When a PE aborts or fails, how long to look for another PE whose exit is a cause (a signal killed
     * it, or it exited with a status before finalize without an abort), which is then the cause
     * reported (see {@link #causingPe}): at least this long...
     */
    private static final long SIGNALLED_SETTLE_MILLIS = 250;
    /** ...and, while some PE is seen dying (its connection lost, or a zombie), up to this long. */
    private static final long SIGNALLED_GRACE_MILLIS = 1_000;
    private static final long SIGNALLED_POLL_MILLIS = 10;
    /** For the forwarders (--tag-output, and the standard error read for aggregation) to pass on the PEs' last lines. */
    private static final long FORWARDER_DRAIN_MILLIS = 1_000;
    /** The runtime's default directory for its shared-memory segments, and the variable overriding it. */
    private static final String SHM_DIR = "/dev/shm";
    private static final String SHM_DIR_VARIABLE = Setting.JSHMEM_SHM_DIR.key();
    /**
     * A remote PE's exit takes a round trip through its agent: how long a PE that dropped its connection
     * may take to be reported as exited (how long closing its lifeline may take: {@link PeTermination}).
     */
    private static final long REMOTE_DISCONNECT_GRACE_MILLIS = 3_000;
    /** For a remote PE's agent, after it exited, to pass on the rest of its output (the start marker). */
    private static final long REMOTE_OUTPUT_WAIT_MILLIS = 1_000;

    private final LaunchOptions options;
    private final List<String> command;
    private final List<Placement> placements;
    /** Every PE's node, for {@link LaunchEnv#PROCESS_MAPPING}: one string for all PEs, its size grows with the hosts. */
    private final String processMapping;
    /** The CPU each PE is bound to (--bind-to), -1 for none. */
    private final int[] cpuOf;
    private final Map<String, String> launcherEnv;
    private final int npes;
    /** Per PE: on another host, so {@link #pes} holds its agent. */
    private final boolean[] remote;
    /** Per remote PE: completed when its start script has run (the marker arrived). */
    private final List<CompletableFuture<Void>> started;
    /** Per remote PE: completed when its standard output, which holds the marker, has been read to its end. */
    private final AtomicReferenceArray<CompletableFuture<Void>> markerReaders;
    private final BootstrapEndpoint endpoint;
    private final String jobId;
    private final byte[] secret;
    /** The secret's files for the local PEs ({@link JobSecret}); null until made, or with no local PE. */
    private volatile JobSecret.Handover secretFiles;
    private final AtomicReferenceArray<Process> pes;
    /** Starts the PEs: local processes, and the launch agents of the other hosts. */
    private final PeStarter starter;
    /**
     * Reads every PE output stream oshrun passes on, on one thread. With it and virtual threads for the
     * per-PE waits (a PE's exit, its launch timeout, a lost connection), oshrun's own threads do not
     * grow with N (issue 35); the JDK still has a small "process reaper" thread per child process.
     */
    private final OutputPump pump = new OutputPump("oshrun-output");
    /** Per stream the pump reads: completed at its end. */
    private final List<CompletableFuture<Void>> forwarders = new CopyOnWriteArrayList<>();
    /** Reads the PEs' standard error and prints repeated diagnostics once; null without aggregation. */
    private final MessageAggregator messages;
    private final CompletableFuture<Integer> outcome = new CompletableFuture<>();
    private final AtomicBoolean ending = new AtomicBoolean();
    private volatile String endReason;
    private volatile boolean finished;
    private volatile BootstrapServer server;
    private final Thread shutdownHook = new Thread(this::onSignal, "oshrun-shutdown");
    /** Held while a PE is being started, so terminate() never misses one started meanwhile. */
    private final Object starting = new Object();

    // Guarded by this.
    private int cleanExits;
    private final BitSet exitedUnconnected = new BitSet();
    /** PEs that exited cleanly after finalize: they can no longer join a re-initialization (1.6). */
    private final BitSet exitedFinalized = new BitSet();

    /**
     * @param command    the PE's java command line, the same for every PE and valid on every host
     * @param placements where each PE runs ({@link HostList})
     * @param endpoint   where the bootstrap server listens and what each node is told
     */
    Job(LaunchOptions options, List<String> command, List<Placement> placements, BootstrapEndpoint endpoint,
        Map<String, String> launcherEnv) {
        this.options = options;
        this.command = command;
        this.placements = List.copyOf(placements);
        int[] nodeOf = new int[this.placements.size()];
        for (Placement p : this.placements) {
            nodeOf[p.pe()] = p.node().id();
        }
        this.processMapping = io.jshmem.core.bootstrap.ProcessMapping.encode(nodeOf);
        this.endpoint = endpoint;
        this.launcherEnv = launcherEnv;
        this.npes = options.npes();
        this.pes = new AtomicReferenceArray<>(npes);
        this.remote = new boolean[npes];
        this.started = new ArrayList<>(npes);
        this.markerReaders = new AtomicReferenceArray<>(npes);
        for (int pe = 0; pe < npes; pe++) {
            remote[pe] = !placements.get(pe).node().local();
            started.add(new CompletableFuture<>());
        }
        this.cpuOf = CoreBinding.plan(options.bindTo(), options.mapping().mapBy(), remote);
        this.messages = options.output().aggregate() ? new MessageAggregator(npes, System.err) : null;
        byte[] random = JobSecret.randomBytes(JOB_ID_LENGTH + BootstrapProtocol.SECRET_BYTES);
        this.jobId = randomId(random);
        this.secret = Arrays.copyOfRange(random, JOB_ID_LENGTH, random.length);
        this.starter = new PeStarter(this, options, command, this.placements, cpuOf, remote, launcherEnv, jobId, secret,
                pes, started, markerReaders, pump, forwarders, messages);
    }

    /** The file PE {@code pe} reads the job secret from (a local PE's). */
    Path secretFile(int pe) {
        return secretFiles.fileFor(pe);
    }

    /** The job's id, which names its recordings ({@code --jfr}). */
    String jobId() {
        return jobId;
    }

    /** The process ids of the PEs started on this machine. */
    java.util.Set<Long> localPids() {
        java.util.Set<Long> pids = new java.util.HashSet<>();
        for (int pe = 0; pe < npes; pe++) {
            Process p = pes.get(pe);
            if (p != null && !remote[pe]) {
                pids.add(p.pid());
            }
        }
        return pids;
    }

    /** Runs the job to its end and returns oshrun's exit status; no PE outlives it. */
    int run() {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        StaleSegments.sweep(Path.of(shmDir()), System.currentTimeMillis());
        try {
            try {
                int silence = options.heartbeatTimeoutSeconds() * 1000;
                server = BootstrapServer.start(npes, secret, this, endpoint.bind(), silence,
                        BootstrapProtocol.heartbeatInterval(silence));
            } catch (IOException e) {
                System.err.println("oshrun: cannot start the bootstrap server on " + endpoint.bind() + ": "
                        + e.getMessage());
                return 1;
            }
            List<Integer> localPes = new ArrayList<>();
            for (int pe = 0; pe < npes; pe++) {
                if (!remote[pe]) {
                    localPes.add(pe);
                }
            }
            if (!localPes.isEmpty()) {
                try {
                    // Never in the PEs' environment: JFR records it, subprocesses inherit it.
                    secretFiles = JobSecret.handOver(secret, jobId, launcherEnv, localPes);
                } catch (IOException e) {
                    System.err.println("oshrun: cannot hand the job secret over to the PEs: " + e.getMessage());
                    server.close();
                    return 1;
                }
            }
            if (options.mapping().reportBindings()) {
                for (String line : CoreBinding.report(cpuOf, placements, options.bindTo())) {
                    System.err.println(line);
                }
            }
            startPes();
            int status = awaitOutcome();
            shutDown();
            return status;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // Shutdown in progress: the hook is finishing the job.
            }
        }
    }

    private void startPes() {
        for (int pe = 0; pe < npes; pe++) {
            synchronized (starting) {
                if (ending.get() || !startPe(pe)) {
                    return;
                }
            }
        }
    }

    /** Starts PE {@code pe} and its watcher; false if it could not be started (the job is then ending). */
    private boolean startPe(int pe) {
        return remote[pe] ? starter.startRemotePe(pe) : starter.startLocalPe(pe);
    }

    /** The job's variables for PE {@code pe}'s environment ({@link LaunchEnv}). */
    Map<String, String> jobVariables(int pe) {
        Placement p = placements.get(pe);
        return Map.of(
                LaunchEnv.JOBID, jobId,
                LaunchEnv.PE, Integer.toString(pe),
                LaunchEnv.NPES, Integer.toString(npes),
                LaunchEnv.NODE, Integer.toString(p.node().id()),
                LaunchEnv.LOCAL_PE, Integer.toString(p.localPe()),
                LaunchEnv.LOCAL_NPES, Integer.toString(p.node().npes()),
                LaunchEnv.PROCESS_MAPPING, processMapping,
                LaunchEnv.BOOTSTRAP, endpoint.hostPort(p.node().id(), server.port()),
                LaunchEnv.LAUNCH_TIMEOUT, Integer.toString(options.launchTimeoutSeconds()),
                LaunchEnv.HEARTBEAT_TIMEOUT, Integer.toString(options.heartbeatTimeoutSeconds()));
    }

    private int awaitOutcome() {
        try {
            if (options.timeoutSeconds() > 0) {
                try {
                    return outcome.get(options.timeoutSeconds(), TimeUnit.SECONDS);
                } catch (TimeoutException e) {
                    fail(124, "job exceeded --timeout " + options.timeoutSeconds() + " s");
                }
            }
            return outcome.get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException("oshrun's main thread was disturbed", e); // never completed exceptionally
        }
    }

    /** A PE process ended: decide whether that is a failure, or count it as a clean exit. */
    void watch(int pe, Process process) {
        int code;
        try {
            code = process.waitFor();
            if (remote[pe]) {
                // The marker may still be in the pipe (when the agent itself is gone).
                if (!started.get(pe).isDone()) {
                    try {
                        markerReaders.get(pe).get(REMOTE_OUTPUT_WAIT_MILLIS, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException | ExecutionException e) {
                        // decided below from what came
                    }
                }
                if (!started.get(pe).isDone()) {
                    agentFailed(pe, code); // its PE never ran: nothing of it to settle
                    return;
                }
            }
            // Let the server read what the PE sent just before dying, so its FINALIZED or ABORT counts.
            server.awaitSettled(pe, HELLO_GRACE_MILLIS, SETTLE_MILLIS);
        } catch (InterruptedException e) {
            return; // only at JVM exit
        }
        if (ending.get()) {
            return;
        }
        if (code != 0 || (server.hasConnected(pe) && !server.isFinalized(pe))) {
            peFailed(pe, code);
            return;
        }
        synchronized (this) {
            if (server.hasConnected(pe)) {
                // finalized: a clean exit, unless other PEs initialized jshmem again meanwhile (1.6
                // re-initialization is collective: they wait for this PE in their first fence)
                int generation = server.generation(pe);
                int ahead = server.firstInGeneration(generation + 1);
                if (ahead >= 0) {
                    fail(1, reinitWithoutExited(ahead, server.generation(ahead), pe));
                    return;
                }
                exitedFinalized.set(pe);
            } else if (server.anyConnected()) {
                fail(1, unconnectedExit(pe));
                return;
            } else {
                // Not (yet) a jshmem job: programs that never use jshmem may run under oshrun.
                exitedUnconnected.set(pe);
            }
            if (++cleanExits == npes) {
                outcome.complete(0);
            }
        }
    }

    /** The launch agent of remote PE {@code pe} exited ({@code code}) before the PE's start script ran. */
    private void agentFailed(int pe, int peCode) {
        int code = pes.get(pe) instanceof RemotePe r ? r.agentExitValue() : peCode;
        String host = placements.get(pe).node().host();
        fail(code == 0 ? 1 : code, "PE " + pe + " could not be started on host " + host + ": the launch agent (\""
                + RemoteCommand.describeAgent(options.launchAgent(), host) + " /bin/sh -s\") exited with status "
                + code + (code == 0
                        ? " without running the start script (does it pass its standard input on?"
                                + " docker exec needs -i)"
                        : " (is the host reachable, and does the agent work with it?)"));
    }

    /**
     * PE {@code pe} failed: it exited ({@code code}, maybe 0 but before finalize), or, with {@code code}
     * null, its connection closed before finalize while it runs on. Reports the PE that went first:
     * when one PE dies, others may fail because of it (a peer no longer answering), possibly before
     * its own exit has been seen. The connections are closed in the order the PEs died, so if another
     * PE's connection was lost before this one's, that PE is reported, with its exit status once known.
     */
    private void peFailed(int pe, Integer code) {
        // A PE that a signal killed, or that exited with a status before finalize without saying why
        // (System.exit(3)), comes first: the others' failures (a peer no longer answering, a
        // transport's timeout naming it) are what follows from it.
        if ((code == null || !isCause(pe, code)) && causeInstead(pe, describe(pe) + " "
                + (code == null ? "lost its connection to the launcher" : exitOf(pe, code)) + " before finalize"
                + ofGeneration(pe))) {
            return;
        }
        int culprit = server.firstLostBefore(pe);
        if (culprit >= 0 && culprit != pe) {
            Process process = pes.get(culprit);
            try {
                if (process != null && process.waitFor(disconnectGrace(culprit), TimeUnit.MILLISECONDS)) {
                    server.awaitSettled(culprit, HELLO_GRACE_MILLIS, SETTLE_MILLIS);
                    code = process.exitValue();
                } else {
                    code = null;
                }
            } catch (InterruptedException e) {
                return; // only at JVM exit
            }
            pe = culprit;
        }
        String who = describe(pe);
        if (code == null && server.wasSilent(pe)) {
            Process process = pes.get(pe);
            boolean stopped = !remote[pe] && process != null && processState(process.pid()) == 'T';
            fail(1, who + " stopped answering: nothing from it for " + options.heartbeatTimeoutSeconds()
                    + " s, before finalize (" + (stopped ? "it is stopped (SIGSTOP or SIGTSTP); SIGCONT resumes a stopped process"
                            : "is its host or the network to it gone?") + ")");
        } else if (code == null) {
            fail(1, who + " lost its connection to the launcher before finalize");
        } else if (code != 0) {
            fail(code, who + " " + exitOf(pe, code)
                    + (server.isFinalized(pe) ? " after finalize" : " before finalize") + ofGeneration(pe));
        } else {
            fail(1, who + " exited with status 0 before finalize" + ofGeneration(pe));
        }
    }

    /** Which initialization a PE that initialized jshmem more than once was in, for the messages; else "". */
    private String ofGeneration(int pe) {
        int generation = server.generation(pe);
        return generation > 0 ? " (in initialization " + (generation + 1) + " of jshmem in that PE)" : "";
    }

    /** "PE 3 (pid 4711)", or with a host list "PE 3 (pid 4711 on host node2)"; a remote pid is the PE's own. */
    private String describe(int pe) {
        Process process = pes.get(pe);
        long pid = remote[pe] ? server.pid(pe) : process == null ? -1 : process.pid();
        String where = options.multiHost() ? "on host " + placements.get(pe).node().host() : "";
        String inside = pid < 0 ? where : where.isEmpty() ? "pid " + pid : "pid " + pid + " " + where;
        return "PE " + pe + (inside.isEmpty() ? "" : " (" + inside + ")");
    }

    private long disconnectGrace(int pe) {
        return remote[pe] ? REMOTE_DISCONNECT_GRACE_MILLIS : DISCONNECT_GRACE_MILLIS;
    }

    private String unconnectedExit(int pe) {
        return describe(pe) + " exited with status 0 without connecting to the launcher, while other PEs did";
    }

    /** PE {@code pe} initialized jshmem again (for {@code generation}) while {@code exited} had already ended. */
    private String reinitWithoutExited(int pe, int generation, int exited) {
        return describe(pe) + " initialized jshmem again (initialization " + (generation + 1) + " of the job) but "
                + describe(exited) + " exited after finalize instead: re-initialization is collective, every PE must"
                + " call init again";
    }

    @Override
    public void connected(int pe) {
        synchronized (this) {
            int early = exitedUnconnected.nextSetBit(0);
            if (early >= 0) {
                // That PE can no longer join the fences this one will enter.
                fail(1, unconnectedExit(early));
                return;
            }
            int gone = exitedFinalized.nextSetBit(0);
            if (gone >= 0) {
                fail(1, reinitWithoutExited(pe, server.generation(pe), gone));
            }
        }
    }

    @Override
    public void aborted(int pe, int status, String message) {
        String line = "PE " + pe + " aborted the job with status " + status + ": " + message;
        // Its reason may be another PE's death by a signal or its exit with a status (a UCX endpoint
        // timeout naming PE 0, say): then that exit is the cause, and oshrun's status is that PE's.
        if (!causeInstead(pe, line)) {
            end(ExitStatus.toExitCode(status), line, line);
        }
    }

    /**
     * Ends the job with the exit of a PE other than {@code except} that is a cause ({@link #isCause}), if {@link #causingPe}
     * finds one, {@code also} (what PE {@code except} did or said) coming after; true if it did (or the
     * launcher is exiting), false if the caller is to report its own cause.
     */
    private boolean causeInstead(int except, String also) {
        int killed;
        try {
            killed = causingPe(except);
        } catch (InterruptedException e) {
            return true; // only at JVM exit
        }
        if (killed >= 0) {
            reportCause(killed, also);
        }
        return killed >= 0;
    }

    /**
     * A PE other than {@code except} whose exit is a cause ({@link #isCause}), or -1. Looks for {@link #SIGNALLED_SETTLE_MILLIS}
     * (an abort may arrive just before the death of the PE it is about is seen), and, while a PE is
     * seen dying (its connection lost before finalize, or its process a zombie not yet reaped), until
     * it has exited, for {@link #SIGNALLED_GRACE_MILLIS} at most (a remote PE's exit, which comes
     * through its agent, {@link #REMOTE_DISCONNECT_GRACE_MILLIS}).
     */
    private int causingPe(int except) throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            boolean dying = false;
            for (int q = 0; q < npes; q++) {
                Process process = pes.get(q);
                if (q == except || process == null) {
                    continue;
                }
                if (!process.isAlive()) {
                    if (isCause(q, process.exitValue())) {
                        return q;
                    }
                } else if ((server.isLost(q) || !remote[q] && isZombie(process.pid()))
                        && elapsed < (remote[q] ? REMOTE_DISCONNECT_GRACE_MILLIS : SIGNALLED_GRACE_MILLIS)) {
                    dying = true;
                }
            }
            if (ending.get() || !dying && elapsed >= SIGNALLED_SETTLE_MILLIS) {
                return -1;
            }
            Thread.sleep(SIGNALLED_POLL_MILLIS);
        }
    }

    /** Whether a process of this machine has exited but not been reaped yet (or is gone already). */
    private static boolean isZombie(long pid) {
        char state = processState(pid);
        return state == 'Z' || state == 'X' || state == '-';
    }

    /** The state letter of a process of this machine (/proc/PID/stat: R, S, T, Z, ...), '-' when it is gone. */
    private static char processState(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            int end = stat.lastIndexOf(')'); // the command name may hold spaces and parentheses
            return end >= 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : '?';
        } catch (IOException | RuntimeException e) {
            return '-';
        }
    }

    /**
     * Whether PE {@code pe}'s exit with {@code code} is a cause of the job's end rather than a consequence:
     * a signal killed it, or it exited with a status other than 0 before finalize and sent no abort
     * (which would say why it failed: an exception's, often a peer that no longer answers).
     */
    private boolean isCause(int pe, int code) {
        return killedBySignal(code) || code != 0 && !server.isFinalized(pe) && !server.hasAborted(pe);
    }

    /**
     * How PE {@code pe} ended, from its exit {@code code}: "was killed by signal 9 (SIGKILL)", or for
     * a remote PE whose exit its host never reported, what became of the launch agent that carried
     * it (the connection to the host was lost: the PE's own fate is unknown).
     */
    private String exitOf(int pe, int code) {
        if (pes.get(pe) instanceof RemotePe r && !r.reported()) {
            return "was lost with the launch agent of host " + placements.get(pe).node().host() + " (which "
                    + ExitStatus.describe(code) + " without reporting the PE's exit: the host, or the connection to it, gone?)";
        }
        return ExitStatus.describe(code);
    }

    /** An exit code that says a signal ended the process (128 + n), as Process reports it. */
    private static boolean killedBySignal(int code) {
        return code > 128 && code <= 128 + 64;
    }

    /** Ends the job with PE {@code pe}'s exit (a death by a signal, or a status) as its cause; {@code also} is what another PE said. */
    private void reportCause(int pe, String also) {
        int code = pes.get(pe).exitValue();
        String reason = describe(pe) + " " + exitOf(pe, code)
                + (server.isFinalized(pe) ? " after finalize" : " before finalize") + ofGeneration(pe);
        end(code, reason, reason + "; ending the job" + System.lineSeparator() + "oshrun: (then: " + also + ")");
    }

    @Override
    public void disconnected(int pe, boolean finalized) {
        Process process = pes.get(pe);
        if (finalized || ending.get() || process == null) {
            return;
        }
        Thread.ofVirtual().name("oshrun-disconnect-pe" + pe).start(() -> {
            try {
                if (!process.waitFor(disconnectGrace(pe), TimeUnit.MILLISECONDS)) {
                    peFailed(pe, null);
                }
            } catch (InterruptedException e) {
                // only at JVM exit
            }
        });
    }

    @Override
    public boolean waitingForCpu(int pe, long pid) {
        return pes.get(pe) != null && !(pes.get(pe) instanceof RemotePe) && ProcFs.SYSTEM.waitingForCpu(pid);
    }

    @Override
    public void failed(int pe, String reason) {
        fail(1, reason);
    }

    void fail(int status, String reason) {
        end(status, reason, reason + "; ending the job");
    }

    /** The first call decides the job's status and prints why; later calls are consequences. */
    private void end(int status, String reason, String line) {
        if (!ending.compareAndSet(false, true)) {
            return;
        }
        endReason = reason;
        System.err.println("oshrun: " + line);
        outcome.complete(status);
    }

    /** Ctrl-C or SIGTERM to oshrun: the JVM is exiting (130 / 143); take the PEs along. */
    private void onSignal() {
        if (!finished) {
            end(130, "oshrun was interrupted", "interrupted; ending the job");
            shutDown();
        }
    }

    /** Ends every PE, then releases the job's resources. Safe to run twice concurrently (main and hook). */
    private void shutDown() {
        if (server == null) {
            return; // interrupted before anything was started
        }
        terminate();
        server.close();
        sweepSegments();
        JobSecret.Handover files = secretFiles;
        if (files != null) {
            files.close(); // the files of PEs that never read theirs, and the directory
        }
        // And those of remote PEs on this very host whose start script was killed before its cleanup.
        JobSecret.sweep(jobId, launcherEnv);
        // Their pipes hit end of stream once the PEs are gone, unless a PE's orphan still holds them.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FORWARDER_DRAIN_MILLIS);
        for (CompletableFuture<Void> forwarder : forwarders) {
            try {
                forwarder.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // the pump's close below ends it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        pump.close();
        if (messages != null) {
            messages.close(); // what the PEs said last, before oshrun exits
        }
        finished = true;
    }

    /** Tells the PEs why the job ends, then SIGTERM, and SIGKILL for those still alive after the grace. */
    private void terminate() {
        String reason = endReason;
        if (reason != null) {
            server.abortAll(reason);
        }
        synchronized (starting) {
            // Waits out a PE being started right now; startPes() starts none after it (the job is
            // ending, or every PE has already exited).
        }
        PeTermination.endAll(pes, remote, starter::stopUnstartedAgents);
    }

    /** Removes the job's shared-memory files that PEs killed before unlinking them left behind. */
    private void sweepSegments() {
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(Path.of(shmDir()), "jshmem-" + jobId + "-*")) {
            for (Path file : leftovers) {
                Files.deleteIfExists(file);
            }
        } catch (IOException | RuntimeException e) {
            // No such directory, or a file we may not delete: nothing more we can do.
        }
    }

    /** Where the PEs put their heap segments. */
    private String shmDir() {
        return options.exportedEnv().getOrDefault(SHM_DIR_VARIABLE, launcherEnv.getOrDefault(SHM_DIR_VARIABLE, SHM_DIR));
    }

    private static final int JOB_ID_LENGTH = 12;

    /** The job id from the first {@value #JOB_ID_LENGTH} bytes (an id, not a secret: the slight bias of % is harmless). */
    private static String randomId(byte[] random) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder id = new StringBuilder(JOB_ID_LENGTH);
        for (int i = 0; i < JOB_ID_LENGTH; i++) {
            id.append(alphabet.charAt((random[i] & 0xff) % alphabet.length()));
        }
        return id.toString();
    }
}
