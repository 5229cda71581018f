package io.jshmem.core.launcher;

import io.jshmem.core.bootstrap.BootstrapProtocol;
import io.jshmem.core.bootstrap.LaunchEnv;
import java.io.File;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
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
    /** For the --tag-output forwarders to pass on the PEs' last lines. */
    private static final long FORWARDER_DRAIN_MILLIS = 1_000;
    /** The runtime's default directory for its shared-memory segments, and the variable overriding it. */
    private static final String SHM_DIR = "/dev/shm";
    private static final String SHM_DIR_VARIABLE = "JSHMEM_SHM_DIR";
    private static final String NODE_ID = "0"; // single host for now

    private final LaunchOptions options;
    private final List<String> command;
    private final Map<String, String> launcherEnv;
    private final int npes;
    private final String jobId;
    private final byte[] secret;
    private final AtomicReferenceArray<Process> pes;
    private final List<Thread> forwarders = new CopyOnWriteArrayList<>();
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

    Job(LaunchOptions options, List<String> command, Map<String, String> launcherEnv) {
        this.options = options;
        this.command = command;
        this.launcherEnv = launcherEnv;
        this.npes = options.npes();
        this.pes = new AtomicReferenceArray<>(npes);
        SecureRandom random = new SecureRandom();
        this.jobId = randomId(random);
        this.secret = new byte[BootstrapProtocol.SECRET_BYTES];
        random.nextBytes(secret);
    }

    /** Runs the job to its end and returns oshrun's exit status; no PE outlives it. */
    int run() {
        Runtime.getRuntime().addShutdownHook(shutdownHook);
        try {
            try {
                server = BootstrapServer.start(npes, secret, this);
            } catch (IOException e) {
                System.err.println("oshrun: cannot start the bootstrap server: " + e.getMessage());
                return 1;
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
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> env = builder.environment();
        env.putAll(options.exportedEnv());
        env.putAll(jobVariables(pe)); // also replaces those of an enclosing job
        builder.redirectInput(pe == 0 ? ProcessBuilder.Redirect.INHERIT
                : ProcessBuilder.Redirect.from(new File("/dev/null")));
        if (!options.tagOutput()) {
            builder.redirectOutput(ProcessBuilder.Redirect.INHERIT);
            builder.redirectError(ProcessBuilder.Redirect.INHERIT);
        }
        Process process;
        try {
            process = builder.start();
        } catch (IOException e) {
            fail(1, "cannot start PE " + pe + ": " + e.getMessage());
            return false;
        }
        pes.set(pe, process);
        if (options.tagOutput()) {
            forwarders.add(OutputForwarder.start(pe, process.getInputStream(), System.out, "stdout"));
            forwarders.add(OutputForwarder.start(pe, process.getErrorStream(), System.err, "stderr"));
        }
        Thread.ofVirtual().name("oshrun-watch-pe" + pe).start(() -> watch(pe, process));
        return true;
    }

    private Map<String, String> jobVariables(int pe) {
        return Map.of(
                LaunchEnv.JOBID, jobId,
                LaunchEnv.PE, Integer.toString(pe),
                LaunchEnv.NPES, Integer.toString(npes),
                LaunchEnv.NODE, NODE_ID,
                LaunchEnv.LOCAL_PE, Integer.toString(pe),
                LaunchEnv.LOCAL_NPES, Integer.toString(npes),
                LaunchEnv.BOOTSTRAP, server.hostPort(),
                LaunchEnv.SECRET, HexFormat.of().formatHex(secret));
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
            // Let the server read what the PE sent just before dying, so its FINALIZED or ABORT counts.
            server.awaitSettled(pe, HELLO_GRACE_MILLIS, SETTLE_MILLIS);
        } catch (InterruptedException e) {
            return; // only at JVM exit
        }
        if (ending.get()) {
            return;
        }
        String who = "PE " + pe + " (pid " + process.pid() + ")";
        boolean finalized = server.isFinalized(pe);
        if (code != 0) {
            fail(code, who + " " + ExitStatus.describe(code) + (finalized ? " after finalize" : " before finalize"));
            return;
        }
        synchronized (this) {
            if (server.hasConnected(pe)) {
                if (!finalized) {
                    fail(1, who + " exited with status 0 before finalize");
                    return;
                }
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

    private String unconnectedExit(int pe) {
        return "PE " + pe + " (pid " + pes.get(pe).pid() + ") exited with status 0 without connecting to the launcher,"
                + " while other PEs did";
    }

    @Override
    public void connected(int pe) {
        synchronized (this) {
            int early = exitedUnconnected.nextSetBit(0);
            if (early >= 0) {
                // That PE can no longer join the fences this one will enter.
                fail(1, unconnectedExit(early));
            }
        }
    }

    @Override
    public void aborted(int pe, int status, String message) {
        String line = "PE " + pe + " aborted the job with status " + status + ": " + message;
        end(ExitStatus.toExitCode(status), line, line);
    }

    @Override
    public void disconnected(int pe, boolean finalized) {
        Process process = pes.get(pe);
        if (finalized || ending.get() || process == null) {
            return;
        }
        Thread.ofVirtual().name("oshrun-disconnect-pe" + pe).start(() -> {
            try {
                if (!process.waitFor(DISCONNECT_GRACE_MILLIS, TimeUnit.MILLISECONDS)) {
                    fail(1, "PE " + pe + " (pid " + process.pid() + ") closed its connection to the launcher"
                            + " before finalize");
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
        // Their pipes hit end of stream once the PEs are gone, unless a PE's orphan still holds them.
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FORWARDER_DRAIN_MILLIS);
        for (Thread forwarder : forwarders) {
            try {
                forwarder.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
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
        Set<ProcessHandle> victims = new LinkedHashSet<>();
        for (int pe = 0; pe < npes; pe++) {
            Process process = pes.get(pe);
            if (process != null) {
                victims.add(process.toHandle());
            }
        }
        // Also whatever the PEs started: once a PE is dead its children are no longer ours to find.
        ProcessHandle.current().descendants().forEach(victims::add);
        victims.removeIf(h -> !h.isAlive());
        if (victims.isEmpty()) {
            return;
        }
        victims.forEach(ProcessHandle::destroy);
        if (!awaitExit(victims)) {
            victims.forEach(ProcessHandle::destroyForcibly);
            awaitExit(victims);
        }
    }

    private static boolean awaitExit(Set<ProcessHandle> processes) {
        CompletableFuture<?>[] exits = processes.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(GRACE_MILLIS, TimeUnit.MILLISECONDS);
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

    private static String randomId(SecureRandom random) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder id = new StringBuilder(12);
        for (int i = 0; i < 12; i++) {
            id.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return id.toString();
    }
}
