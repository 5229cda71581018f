/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.base.Setting;
import io.jshmem.core.bootstrap.BootstrapProtocol;
import io.jshmem.core.bootstrap.JobSecret;
import io.jshmem.launcher.HostList.Placement;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
    /** Between SIGTERM and SIGKILL: a PE's JVM runs its shutdown hooks in well under this. */
    private static final long GRACE_MILLIS = 2_000;
    /** For a dead PE's last bootstrap messages (FINALIZED, ABORT) to be read from its socket. */
    private static final long SETTLE_MILLIS = 2_000;
    /** For the connection of a PE that died right after connecting to get out of the accept queue. */
    private static final long HELLO_GRACE_MILLIS = 100;
    /** A PE that drops its connection usually exits; give its exit the chance to be the reported cause. */
    private static final long DISCONNECT_GRACE_MILLIS = 1_000;
    /**
     * When a PE aborts or fails, how long to look for another PE that a signal killed, which is then
     * the cause reported (see {@link #signalledPe}): at least this long...
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
     * may take to be reported as exited, and how long closing its lifeline may take to end it (the
     * remote script allows {@link RemoteCommand#REMOTE_KILL_GRACE_SECONDS} before SIGKILL).
     */
    private static final long REMOTE_DISCONNECT_GRACE_MILLIS = 3_000;
    private static final long REMOTE_GRACE_MILLIS = 2_000 + RemoteCommand.REMOTE_KILL_GRACE_SECONDS * 1_000L;
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
        byte[] random = randomBytes(JOB_ID_LENGTH + BootstrapProtocol.SECRET_BYTES);
        this.jobId = randomId(random);
        this.secret = Arrays.copyOfRange(random, JOB_ID_LENGTH, random.length);
    }

    /** The job's id, which names its recordings ({@code --jfr}). */
    String jobId() {
        return jobId;
    }

    /** Runs the job to its end and returns oshrun's exit status; no PE outlives it. */
    int run() {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
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
            makeJfrDirectory();
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

    /**
     * With --jfr, the recordings' directory, which is also JFR's repository (see PeCommand), made 0700
     * before the PEs start: their JVMs would make it with the umask's mode. One that exists stays as it is.
     */
    private void makeJfrDirectory() {
        String dir = options.exportedEnv().get("JSHMEM_JFR_DIR");
        if (options.exportedEnv().containsKey("JSHMEM_JFR") && dir != null && !Files.isDirectory(Path.of(dir))) {
            try {
                Files.createDirectories(Path.of(dir), PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } catch (IOException | RuntimeException e) {
                // Each PE tries again, and reports why it cannot record.
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
        return remote[pe] ? startRemotePe(pe) : startLocalPe(pe);
    }

    private boolean startLocalPe(int pe) {
        ProcessBuilder builder = new ProcessBuilder(cpuOf[pe] < 0 ? command : CoreBinding.bound(cpuOf[pe], command));
        Map<String, String> env = builder.environment();
        env.putAll(options.exportedEnv());
        env.putAll(jobVariables(pe)); // also replaces those of an enclosing job
        env.put(LaunchEnv.LAUNCHER_PID, Long.toString(ProcessHandle.current().pid())); // its parent: see IdentityGuard
        env.remove(LaunchEnv.SECRET); // an enclosing job's, or a hand-made launch's: the file below is the one read
        env.put(LaunchEnv.SECRET_FILE, secretFiles.fileFor(pe).toString());
        if (cpuOf[pe] >= 0) {
            // The runtime then knows whether its core is its own (it waits without spinning if not).
            env.put(LaunchEnv.BIND, CoreBinding.shared(cpuOf, pe) ? "shared" : "core");
        } else {
            env.remove(LaunchEnv.BIND);
        }
        builder.redirectInput(pe == 0 ? ProcessBuilder.Redirect.INHERIT
                : ProcessBuilder.Redirect.from(new File("/dev/null")));
        Path files = null;
        if (options.output().directory() != null) {
            try {
                files = outputDirectory(pe);
            } catch (IOException e) {
                fail(1, "cannot make the directory for PE " + pe + "'s output (--output-filename): " + e.getMessage());
                return false;
            }
        }
        if (!forwardsLines()) {
            if (files != null) {
                builder.redirectOutput(files.resolve("pe" + pe + ".stdout").toFile());
                builder.redirectError(files.resolve("pe" + pe + ".stderr").toFile());
            } else {
                builder.redirectOutput(ProcessBuilder.Redirect.INHERIT);
                // Through oshrun when it aggregates: only the standard error, so stdout keeps its order.
                builder.redirectError(messages != null ? ProcessBuilder.Redirect.PIPE : ProcessBuilder.Redirect.INHERIT);
            }
        }
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            fail(1, "cannot start PE " + pe + ": " + e.getMessage());
            return false;
        }
        pes.set(pe, process);
        if (forwardsLines()) {
            forwarders.add(pump.add(process.getInputStream(), process, OutputForwarder.sink(pe, options.tagOutput(),
                    options.output().timestamp(), target(files, pe, "stdout", System.out), null, null)));
            forwarders.add(pump.add(process.getErrorStream(), process, OutputForwarder.sink(pe, options.tagOutput(),
                    options.output().timestamp(), target(files, pe, "stderr", System.err), null, null)));
        } else if (messages != null) {
            forwarders.add(pump.add(process.getErrorStream(), process, messages.sink(pe)));
        }
        // A virtual thread: waiting for a process (Object.wait) unmounts it, no carrier is held.
        Thread.ofVirtual().name("oshrun-watch-pe" + pe).start(() -> watch(pe, process));
        return true;
    }

    /**
     * Starts the launch agent of PE {@code pe}'s host, unless it runs already: one agent per host
     * (issue 35), which runs the start script of all that host's PEs ({@link RemoteCommand#hostScript})
     * and whose standard input, kept open, is the host's lifeline. Its standard output and error carry
     * the PEs' lines, each tagged with its PE, which {@link HostOutput} takes apart, and the script's
     * reports of each PE's exit, which end that PE's {@link RemotePe}. So a job on H hosts has H agents
     * (ssh sessions), not one per PE.
     */
    private boolean startRemotePe(int pe) {
        if (pes.get(pe) != null) {
            return true; // started with the other PEs of its host
        }
        Placement placement = placements.get(pe);
        String host = placement.node().host();
        int node = placement.node().id();
        List<Integer> hostPes = new ArrayList<>();
        for (Placement p : placements) {
            if (p.node().id() == node) {
                hostPes.add(p.pe());
            }
        }
        List<String> agentCommand = RemoteCommand.agentCommand(options.launchAgent(), host);
        // The agent itself gets oshrun's environment; the PEs get what the script exports.
        ProcessBuilder builder = new ProcessBuilder(agentCommand);
        Process agent;
        try {
            agent = builder.start();
        } catch (IOException e) {
            fail(1, "cannot start PE " + pe + " on host " + host + ": the launch agent \""
                    + String.join(" ", options.launchAgent()) + "\" failed to run: " + e.getMessage().strip());
            return false;
        }
        Path files = null;
        try {
            files = options.output().directory() == null ? null : outputDirectory(pe);
        } catch (IOException e) {
            fail(1, "cannot make the directory for PE " + pe + "'s output (--output-filename): " + e.getMessage());
        }
        Path outputFiles = files;
        // Completed once the agent's standard output, which carries the exit reports, has been read to its end.
        CompletableFuture<Void> reports = new CompletableFuture<>();
        Map<Integer, RemotePe> remotes = new java.util.HashMap<>();
        for (int q : hostPes) {
            remotes.put(q, new RemotePe(agent, reports));
        }
        HostOutput.Control control = new HostOutput.Control() {
            @Override
            public void started() {
                hostPes.forEach(q -> started.get(q).complete(null));
            }

            @Override
            public void exited(int q, int status) {
                remotes.get(q).exited(status);
            }
        };
        HostOutput out = new HostOutput(hostPes, q -> OutputForwarder.sink(q, options.tagOutput(),
                options.output().timestamp(), target(outputFiles, q, "stdout", System.out), null, null),
                System.out, control);
        HostOutput err = new HostOutput(hostPes, q -> messages != null ? messages.sink(q)
                : OutputForwarder.sink(q, options.tagOutput(), options.output().timestamp(),
                        target(outputFiles, q, "stderr", System.err), null, null),
                System.err, null);
        for (int q : hostPes) {
            pes.set(q, remotes.get(q));
            markerReaders.set(q, reports);
        }
        forwarders.add(pump.add(agent.getInputStream(), agent, out).whenComplete((x, e) -> reports.complete(null)));
        forwarders.add(pump.add(agent.getErrorStream(), agent, err));
        List<RemoteCommand.HostPe> scriptPes = new ArrayList<>();
        for (int q : hostPes) {
            scriptPes.add(new RemoteCommand.HostPe(q,
                    RemoteCommand.environment(launcherEnv, options.exportedEnv(), jobVariables(q))));
        }
        String script = RemoteCommand.hostScript(command, scriptPes, System.getProperty("user.dir"), jobId,
                HexFormat.of().formatHex(secret),
                JobSecret.DIRECTORY_PREFIX + jobId + "-node" + node + "-" + HexFormat.of().formatHex(randomBytes(8)));
        try {
            OutputStream lifeline = agent.getOutputStream();
            lifeline.write(script.getBytes(StandardCharsets.UTF_8));
            lifeline.flush(); // and kept open: closing it ends the host's PEs
        } catch (IOException e) {
            // The agent is already gone: the watchers report why.
        }
        for (int q : hostPes) {
            RemotePe remotePe = remotes.get(q);
            Thread.ofVirtual().name("oshrun-watch-pe" + q).start(() -> watch(q, remotePe));
        }
        Thread.ofVirtual().name("oshrun-launch-timeout-node" + node).start(() -> awaitStart(pe, host));
        return true;
    }

    /** Whether oshrun cuts the PEs' output into lines to prefix them (--tag-output, --timestamp-output). */
    private boolean forwardsLines() {
        return options.tagOutput() || options.output().timestamp();
    }

    /** --output-filename DIR: DIR, made if needed, for PE k's files pe&lt;k&gt;.stdout and pe&lt;k&gt;.stderr. */
    private Path outputDirectory(int pe) throws IOException {
        return Files.createDirectories(Path.of(options.output().directory()));
    }

    /** Where a forwarder writes: PE {@code pe}'s file in {@code files} (new, truncated), else oshrun's own stream. */
    private static PrintStream target(Path files, int pe, String name, PrintStream own) {
        if (files == null) {
            return own;
        }
        Path file = files.resolve("pe" + pe + "." + name);
        try {
            return new PrintStream(new FileOutputStream(file.toFile()), false);
        } catch (IOException e) {
            System.err.println("oshrun: cannot write " + file + " (--output-filename): " + e.getMessage()
                    + "; this output goes to oshrun's " + name);
            return own;
        }
    }

    /** A remote PE whose start script has not run within --launch-timeout ends the job. */
    private void awaitStart(int pe, String host) {
        try {
            started.get(pe).get(options.launchTimeoutSeconds(), TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            if (pes.get(pe).isAlive()) {
                fail(1, "PE " + pe + " did not start on host " + host + " within " + options.launchTimeoutSeconds()
                        + " s (--launch-timeout), started with \""
                        + RemoteCommand.describeAgent(options.launchAgent(), host) + " /bin/sh -s\"");
            }
        } catch (InterruptedException | ExecutionException e) {
            // only at JVM exit; never completed exceptionally
        }
    }

    private Map<String, String> jobVariables(int pe) {
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
    private void watch(int pe, Process process) {
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
        // A PE that a signal killed comes first: the others' failures (a peer no longer answering,
        // a transport's timeout naming it) are what follows from it.
        if ((code == null || !killedBySignal(code)) && signalledInstead(pe, describe(pe) + " "
                + (code == null ? "lost its connection to the launcher" : ExitStatus.describe(code)) + " before finalize"
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
            fail(1, who + " stopped answering: nothing from it for " + options.heartbeatTimeoutSeconds()
                    + " s, before finalize (is its host or the network to it gone?)");
        } else if (code == null) {
            fail(1, who + " lost its connection to the launcher before finalize");
        } else if (code != 0) {
            fail(code, who + " " + ExitStatus.describe(code)
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
        // Its reason may be another PE's death by a signal (a UCX endpoint timeout naming PE 0, say):
        // then that death is the cause, and oshrun's status is 128 + the signal.
        if (!signalledInstead(pe, line)) {
            end(ExitStatus.toExitCode(status), line, line);
        }
    }

    /**
     * Ends the job with the death by a signal of a PE other than {@code except}, if {@link #signalledPe}
     * finds one, {@code also} (what PE {@code except} did or said) coming after; true if it did (or the
     * launcher is exiting), false if the caller is to report its own cause.
     */
    private boolean signalledInstead(int except, String also) {
        int killed;
        try {
            killed = signalledPe(except);
        } catch (InterruptedException e) {
            return true; // only at JVM exit
        }
        if (killed >= 0) {
            reportSignalled(killed, also);
        }
        return killed >= 0;
    }

    /**
     * A PE other than {@code except} that a signal killed, or -1. Looks for {@link #SIGNALLED_SETTLE_MILLIS}
     * (an abort may arrive just before the death of the PE it is about is seen), and, while a PE is
     * seen dying (its connection lost before finalize, or its process a zombie not yet reaped), until
     * it has exited, for {@link #SIGNALLED_GRACE_MILLIS} at most (a remote PE's exit, which comes
     * through its agent, {@link #REMOTE_DISCONNECT_GRACE_MILLIS}).
     */
    private int signalledPe(int except) throws InterruptedException {
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
                    if (killedBySignal(process.exitValue())) {
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
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            int end = stat.lastIndexOf(')'); // the command name may hold spaces and parentheses
            char state = end >= 0 && end + 2 < stat.length() ? stat.charAt(end + 2) : '?';
            return state == 'Z' || state == 'X';
        } catch (IOException | RuntimeException e) {
            return true; // no such process any more
        }
    }

    /** An exit code that says a signal ended the process (128 + n), as Process reports it. */
    private static boolean killedBySignal(int code) {
        return code > 128 && code <= 128 + 64;
    }

    /** Ends the job with PE {@code pe}'s death by a signal as its cause; {@code also} is what another PE said. */
    private void reportSignalled(int pe, String also) {
        int code = pes.get(pe).exitValue();
        String reason = describe(pe) + " " + ExitStatus.describe(code)
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
    public void failed(int pe, String reason) {
        fail(1, reason);
    }

    private void fail(int status, String reason) {
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
        // Remote PEs: closing the agent's standard input makes the start script there end the PE
        // (SIGTERM, SIGKILL after a grace), after which the agent exits with the PE's status.
        Set<ProcessHandle> agents = new LinkedHashSet<>();
        Set<ProcessHandle> victims = new LinkedHashSet<>();
        for (int pe = 0; pe < npes; pe++) {
            Process process = pes.get(pe);
            if (process != null && remote[pe]) {
                agents.add(process.toHandle());
                closeQuietly(process.getOutputStream());
            } else if (process != null) {
                victims.add(process.toHandle());
            }
        }
        stopUnstartedAgents();
        // Also whatever the PEs started: once a PE is dead its children are no longer ours to find,
        // so when every PE has exited (a job's normal end) there is nothing to look for, and the
        // scan of /proc that finds descendants (milliseconds, before oshrun can exit) is skipped.
        // The agents' own children (an ssh ProxyCommand, say) go with their agent.
        victims.removeIf(h -> !h.isAlive());
        if (!victims.isEmpty() || !agents.isEmpty()) {
            Set<ProcessHandle> agentChildren = new LinkedHashSet<>();
            agents.forEach(a -> a.descendants().forEach(agentChildren::add));
            ProcessHandle.current().descendants()
                    .filter(h -> !agents.contains(h) && !agentChildren.contains(h))
                    .forEach(victims::add);
        }
        victims.removeIf(h -> !h.isAlive());
        agents.removeIf(h -> !h.isAlive());
        if (victims.isEmpty() && agents.isEmpty()) {
            return;
        }
        victims.forEach(ProcessHandle::destroy);
        CompletableFuture<Boolean> agentsGone = CompletableFuture.supplyAsync(
                () -> awaitExit(agents, REMOTE_GRACE_MILLIS), Thread::startVirtualThread);
        if (!awaitExit(victims, GRACE_MILLIS)) {
            victims.forEach(ProcessHandle::destroyForcibly);
            awaitExit(victims, GRACE_MILLIS);
        }
        if (!agentsGone.join()) {
            // The remote side did not answer (host gone?): at least no local agent outlives the job.
            Set<ProcessHandle> stuck = new LinkedHashSet<>();
            agents.stream().filter(ProcessHandle::isAlive).forEach(a -> {
                stuck.add(a);
                a.descendants().forEach(stuck::add);
            });
            stuck.forEach(ProcessHandle::destroyForcibly);
            awaitExit(stuck, GRACE_MILLIS);
        }
    }

    /**
     * Agents whose PE's start script has not run (no marker yet) have no PE to end gracefully: one
     * still connecting (ssh to a host that does not answer waits out its ConnectTimeout) would not
     * notice its closed standard input, and the job would wait out the remote grace for nothing.
     * They are killed at once, with their children; a script that did start meanwhile sees its
     * lifeline end and ends its PE.
     */
    private void stopUnstartedAgents() {
        for (int pe = 0; pe < npes; pe++) {
            Process agent = pes.get(pe);
            if (agent != null && remote[pe] && !started.get(pe).isDone()) {
                agent.descendants().forEach(ProcessHandle::destroyForcibly);
                agent.destroyForcibly();
            }
        }
    }

    private static void closeQuietly(OutputStream stream) {
        try {
            stream.close();
        } catch (IOException e) {
            // the agent is gone already
        }
    }

    private static boolean awaitExit(Set<ProcessHandle> processes, long millis) {
        CompletableFuture<?>[] exits = processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(millis, TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException | ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Removes the job's shared-memory files that PEs killed before unlinking them left behind. */
    private void sweepSegments() {
        String dir = options.exportedEnv().getOrDefault(SHM_DIR_VARIABLE, launcherEnv.getOrDefault(SHM_DIR_VARIABLE, SHM_DIR));
        try (DirectoryStream<Path> leftovers = Files.newDirectoryStream(Path.of(dir), "jshmem-" + jobId + "-*")) {
            for (Path file : leftovers) {
                Files.deleteIfExists(file);
            }
        } catch (IOException | RuntimeException e) {
            // No such directory, or a file we may not delete: nothing more we can do.
        }
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

    /**
     * Random bytes from /dev/urandom, which SecureRandom reads on Linux too, without loading the
     * security providers (about a tenth of the launcher's start-up); SecureRandom where it is missing.
     */
    private static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        try (InputStream in = new FileInputStream("/dev/urandom")) {
            if (in.readNBytes(bytes, 0, n) == n) {
                return bytes;
            }
        } catch (IOException e) {
            // below
        }
        new SecureRandom().nextBytes(bytes);
        return bytes;
    }
}
