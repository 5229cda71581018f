/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.bootstrap.JobSecret;
import io.jshmem.launcher.HostList.Placement;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Starts a {@link Job}'s PEs where their placements say: a local PE as a child process (bound to its
 * CPU, its output passed on as --tag-output, --output-filename and aggregation say), the PEs of
 * another host through that host's one launch agent. Each started PE gets its watcher
 * ({@link Job#watch}); a failure to start ends the job ({@link Job#fail}).
 */
final class PeStarter {
    private final Job job;
    private final LaunchOptions options;
    private final List<String> command;
    private final List<Placement> placements;
    private final int[] cpuOf;
    private final boolean[] remote;
    private final int npes;
    private final Map<String, String> launcherEnv;
    private final String jobId;
    private final byte[] secret;
    private final AtomicReferenceArray<Process> pes;
    private final List<CompletableFuture<Void>> started;
    private final AtomicReferenceArray<CompletableFuture<Void>> markerReaders;
    private final OutputPump pump;
    private final List<CompletableFuture<Void>> forwarders;
    private final MessageAggregator messages;

    /** The job's state this shares: see the fields of the same names in {@link Job}. */
    PeStarter(Job job, LaunchOptions options, List<String> command, List<Placement> placements, int[] cpuOf,
              boolean[] remote, Map<String, String> launcherEnv, String jobId, byte[] secret,
              AtomicReferenceArray<Process> pes, List<CompletableFuture<Void>> started,
              AtomicReferenceArray<CompletableFuture<Void>> markerReaders, OutputPump pump,
              List<CompletableFuture<Void>> forwarders, MessageAggregator messages) {
        this.job = job;
        this.options = options;
        this.command = command;
        this.placements = placements;
        this.cpuOf = cpuOf;
        this.remote = remote;
        this.npes = remote.length;
        this.launcherEnv = launcherEnv;
        this.jobId = jobId;
        this.secret = secret;
        this.pes = pes;
        this.started = started;
        this.markerReaders = markerReaders;
        this.pump = pump;
        this.forwarders = forwarders;
        this.messages = messages;
    }

    /** Starts local PE {@code pe} and its watcher; false if it could not be started (the job is then ending). */
    boolean startLocalPe(int pe) {
        ProcessBuilder builder = new ProcessBuilder(cpuOf[pe] < 0 ? command : CoreBinding.bound(cpuOf[pe], command));
        Map<String, String> env = builder.environment();
        env.putAll(options.exportedEnv());
        env.putAll(job.jobVariables(pe)); // also replaces those of an enclosing job
        env.put(LaunchEnv.LAUNCHER_PID, Long.toString(ProcessHandle.current().pid())); // its parent: see IdentityGuard
        env.remove(LaunchEnv.SECRET); // an enclosing job's, or a hand-made launch's: the file below is the one read
        env.put(LaunchEnv.SECRET_FILE, job.secretFile(pe).toString());
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
                job.fail(1, "cannot make the directory for PE " + pe + "'s output (--output-filename): " + e.getMessage());
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
            job.fail(1, "cannot start PE " + pe + ": " + e.getMessage());
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
        Thread.ofVirtual().name("oshrun-watch-pe" + pe).start(() -> job.watch(pe, process));
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
    boolean startRemotePe(int pe) {
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
            job.fail(1, "cannot start PE " + pe + " on host " + host + ": the launch agent \""
                    + String.join(" ", options.launchAgent()) + "\" failed to run: " + e.getMessage().strip());
            return false;
        }
        Path files = null;
        try {
            files = options.output().directory() == null ? null : outputDirectory(pe);
        } catch (IOException e) {
            job.fail(1, "cannot make the directory for PE " + pe + "'s output (--output-filename): " + e.getMessage());
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
                    RemoteCommand.environment(launcherEnv, options.exportedEnv(), job.jobVariables(q))));
        }
        String script = RemoteCommand.hostScript(command, scriptPes, System.getProperty("user.dir"), jobId,
                HexFormat.of().formatHex(secret),
                JobSecret.DIRECTORY_PREFIX + jobId + "-node" + node + "-" + HexFormat.of().formatHex(JobSecret.randomBytes(8)));
        try {
            OutputStream lifeline = agent.getOutputStream();
            lifeline.write(script.getBytes(StandardCharsets.UTF_8));
            lifeline.flush(); // and kept open: closing it ends the host's PEs
        } catch (IOException e) {
            // The agent is already gone: the watchers report why.
        }
        for (int q : hostPes) {
            RemotePe remotePe = remotes.get(q);
            Thread.ofVirtual().name("oshrun-watch-pe" + q).start(() -> job.watch(q, remotePe));
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
                job.fail(1, "PE " + pe + " did not start on host " + host + " within " + options.launchTimeoutSeconds()
                        + " s (--launch-timeout), started with \""
                        + RemoteCommand.describeAgent(options.launchAgent(), host) + " /bin/sh -s\"");
            }
        } catch (InterruptedException | ExecutionException e) {
            // only at JVM exit; never completed exceptionally
        }
    }

    /**
     * Agents whose PE's start script has not run (no marker yet) have no PE to end gracefully: one
     * still connecting (ssh to a host that does not answer waits out its ConnectTimeout) would not
     * notice its closed standard input, and the job would wait out the remote grace for nothing.
     * They are killed at once, with their children; a script that did start meanwhile sees its
     * lifeline end and ends its PE.
     */
    void stopUnstartedAgents() {
        for (int pe = 0; pe < npes; pe++) {
            Process agent = pes.get(pe);
            if (agent != null && remote[pe] && !started.get(pe).isDone()) {
                agent.descendants().forEach(ProcessHandle::destroyForcibly);
                agent.destroyForcibly();
            }
        }
    }
}
