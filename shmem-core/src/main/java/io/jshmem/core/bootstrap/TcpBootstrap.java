/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import io.jshmem.core.base.LaunchEnv;
import static io.jshmem.core.bootstrap.BootstrapProtocol.*;

import io.jshmem.core.base.Log;
import io.jshmem.core.base.ProcFs;
import io.jshmem.core.base.Setting;
import io.jshmem.core.base.Settings;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The PE side of the jshmem launcher's bootstrap: a TCP connection to {@code oshrun}'s server
 * (see {@link BootstrapProtocol}). A daemon reader thread receives fence completions, the answers
 * to lookups and abort notices, so {@link #fence()}, {@link #get} and the {@link #onAbort} handlers
 * never wait on a dead launcher. Values come on demand: {@link #get} asks the launcher for one key
 * the first time, from any thread, and caches the answer until the next fence.
 *
 * <p>Orphan guard: a PE started by oshrun ({@link #fromEnvironment}) that loses its connection to
 * the launcher before finalizing halts itself {@value #DEFAULT_ORPHAN_GRACE_MILLIS} ms later, unless
 * it has finalized or closed the bootstrap meanwhile. The connection is lost only when the launcher
 * is gone, or is ending the job (it closes its server after killing the PEs), or the network to it
 * failed (which the launcher reports as this PE's failure, ending the job): in every case the job is
 * over and no collective can complete. The abort handlers run at once, so a PE waiting in jshmem
 * fails and exits by itself; the halt is for a PE busy in its own code, which would otherwise live on
 * as an orphan, e.g. on another host when its launch agent's lifeline did not end it. The grace lets
 * the PE's own error handling run first. System property {@value #ORPHAN_GRACE_PROPERTY} sets it in
 * milliseconds (0: never halt). The loss is said at once, on the {@code io.jshmem.bootstrap} logger,
 * when it is the first news that the job is over: "the launcher (oshrun, pid N) died" when oshrun,
 * this PE's parent ({@link LaunchEnv#LAUNCHER_PID}), has died, else the address of the connection lost.
 */
public final class TcpBootstrap implements Bootstrap {

    /** Who this PE is, as the launcher assigned it. */
    public record Identity(String jobId, int rank, int size, String nodeId, int localRank, int localSize) {
    }

    /** A launcher that accepted the connection answers HELLO at once; this only guards against a stuck one. */
    private static final int HELLO_REPLY_TIMEOUT_MILLIS = 10_000;
    /**
     * How long to keep retrying a busy launcher (connections that time out, or are dropped before
     * the reply: its port flooded) when oshrun does not say (its --launch-timeout, {@link LaunchEnv#LAUNCH_TIMEOUT}).
     */
    static final long DEFAULT_BUSY_RETRY_MILLIS = 60_000;
    /** After sending ABORT, the launcher normally kills this PE within a few seconds. */
    private static final long ABORT_WAIT_MILLIS = 10_000;
    private static final String LOST_CONNECTION = "lost connection to the launcher";
    /** Milliseconds between losing the launcher and halting (see the class comment); 0 disables. */
    public static final String ORPHAN_GRACE_PROPERTY = Setting.ORPHAN_GRACE_MILLIS.key();
    static final long DEFAULT_ORPHAN_GRACE_MILLIS = 10_000;
    /** Exit status of a PE halted as an orphan. */
    static final int ORPHAN_STATUS = 1;
    /** Overrides {@link BootstrapProtocol#LAUNCHER_SILENCE_LIMIT_MILLIS} (milliseconds; for tests). */
    public static final String LAUNCHER_SILENCE_PROPERTY = Setting.LAUNCHER_SILENCE_MILLIS.key();

    private final Identity identity;
    /** Which initialization of jshmem in this process (see {@link Bootstrap#generation()}). */
    private final int generation;
    private final InetSocketAddress server;
    private final Socket socket;
    private final DataOutputStream out; // guarded by itself
    /** Values fetched since the last fence (a later fence may bring newer ones: cleared then). */
    private final Map<String, byte[]> cache = new ConcurrentHashMap<>();
    /** GETs sent and not answered yet, by request number: completed by the reader, or failed on abort. */
    private final Map<Integer, CompletableFuture<byte[]>> lookupsInFlight = new ConcurrentHashMap<>();
    private final AtomicInteger nextRequest = new AtomicInteger();
    private final AtomicLong lookupsSent = new AtomicLong();
    private final CountingInputStream received;
    /** The node index of every PE from the launcher's mapping ({@link LaunchEnv#PROCESS_MAPPING}), or null. */
    private volatile int[] nodeIndexes;

    private final Object state = new Object();
    private long fencesDone;                                        // guarded by state
    private int firstFlagged = -1;                                  // of the last fence; guarded by state
    private String abortReason;                                     // guarded by state
    private final List<Consumer<String>> abortHandlers = new ArrayList<>(); // guarded by state

    private final Object fenceCall = new Object(); // one fence at a time per PE
    private volatile boolean finalized;
    private volatile boolean closed;
    /** The launcher's pid when it is this process's parent ({@link LaunchEnv#LAUNCHER_PID}), else -1. */
    private volatile long launcherPid = -1;
    /** 0: never halt (a bootstrap not made by fromEnvironment, as in tests). */
    private volatile long orphanGraceMillis;
    /** Silence after which the launcher is gone: twice oshrun's --heartbeat-timeout, unless the property says. */
    private final int launcherSilenceLimit;
    private final long heartbeatMillis;

    private TcpBootstrap(Identity identity, int generation, InetSocketAddress server, Socket socket,
                         int heartbeatTimeoutMillis) throws IOException {
        this.generation = generation;
        this.launcherSilenceLimit = (int) millis(Setting.LAUNCHER_SILENCE_MILLIS, 2 * heartbeatTimeoutMillis);
        this.heartbeatMillis = heartbeatInterval(heartbeatTimeoutMillis);
        this.identity = identity;
        this.server = server;
        this.socket = socket;
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        this.received = new CountingInputStream(socket.getInputStream());
    }

    /** The bootstrap of this process's current generation, for the signal handler installed once. */
    private static volatile TcpBootstrap current;
    private static boolean signalsInstalled; // guarded by TcpBootstrap.class

    /**
     * Connects to the launcher described by the {@link LaunchEnv} variables in {@code env}, for
     * this process's first initialization of jshmem.
     *
     * @return the connected bootstrap, or {@code null} if {@code env} has no {@link LaunchEnv#BOOTSTRAP}
     *         (the process was not started by oshrun)
     * @throws IllegalStateException if the variables are incomplete or garbled, or the launcher
     *         cannot be reached or refuses this PE
     */
    public static TcpBootstrap fromEnvironment(Map<String, String> env) {
        return fromEnvironment(env, 0);
    }

    /**
     * As {@link #fromEnvironment(Map)}, for initialization {@code generation} of this process: each
     * one is a new session with the launcher (see {@link BootstrapProtocol}).
     */
    public static TcpBootstrap fromEnvironment(Map<String, String> env, int generation) {
        String address = env.get(LaunchEnv.BOOTSTRAP);
        if (address == null) {
            return null;
        }
        int size = LaunchVars.intVar(env, LaunchEnv.NPES, 1, Integer.MAX_VALUE);
        int localSize = LaunchVars.intVar(env, LaunchEnv.LOCAL_NPES, 1, size);
        Identity id = new Identity(
                LaunchVars.textVar(env, LaunchEnv.JOBID, LaunchVars.IDENTIFIER),
                LaunchVars.intVar(env, LaunchEnv.PE, 0, size - 1),
                size,
                LaunchVars.textVar(env, LaunchEnv.NODE, LaunchVars.IDENTIFIER),
                LaunchVars.intVar(env, LaunchEnv.LOCAL_PE, 0, localSize - 1),
                localSize);
        int[] nodeIndexes = LaunchVars.nodeIndexes(env, size, id.rank(), localSize);
        byte[] secret = JobSecret.of(env); // from its file (then deleted), or memory after the first initialization
        long busyRetry = env.containsKey(LaunchEnv.LAUNCH_TIMEOUT)
                ? LaunchVars.intVar(env, LaunchEnv.LAUNCH_TIMEOUT, 1, 86_400) * 1000L : DEFAULT_BUSY_RETRY_MILLIS;
        int heartbeatTimeout = env.containsKey(LaunchEnv.HEARTBEAT_TIMEOUT)
                ? LaunchVars.intVar(env, LaunchEnv.HEARTBEAT_TIMEOUT, 3, 86_400) * 1000 : PE_SILENCE_LIMIT_MILLIS;
        TcpBootstrap bootstrap = connect(LaunchVars.parseAddress(address), secret, id, generation,
                busyRetry, heartbeatTimeout);
        bootstrap.nodeIndexes = nodeIndexes;
        bootstrap.orphanGraceMillis = orphanGrace();
        bootstrap.launcherPid = LaunchVars.launcherPid(env);
        current = bootstrap;
        synchronized (TcpBootstrap.class) {
            if (!signalsInstalled) {
                signalsInstalled = true;
                // oshrun sends its abort notice before its SIGTERM; a SIGTERM from anyone else must end
                // this PE as such (exit status 143, reported by oshrun), not by a collective finalize at
                // exit whose barrier the other PEs, busy elsewhere, would take for a mismatched call.
                // Installed once per process: it reaches the current generation's bootstrap.
                LauncherSignals.onTermination(reason -> {
                    TcpBootstrap b = current;
                    if (b != null) {
                        b.aborted(reason);
                    }
                }, " to PE " + id.rank() + ": it is ending");
            }
        }
        return bootstrap;
    }

    private static long orphanGrace() {
        return millis(Setting.ORPHAN_GRACE_MILLIS, DEFAULT_ORPHAN_GRACE_MILLIS);
    }

    /** A milliseconds property of the tests; a bad value is ignored, with a warning. */
    private static long millis(Setting setting, long otherwise) {
        String value = Settings.system().text(setting, null);
        if (value != null) {
            try {
                return Math.min(Integer.MAX_VALUE, Math.max(0, Long.parseLong(value)));
            } catch (NumberFormatException e) {
                Log.BOOTSTRAP.warning("jshmem: ignoring -D" + setting.key() + "=" + value + " (not a number)");
            }
        }
        return otherwise;
    }

    /**
     * Connects to a bootstrap server and identifies as {@code identity.rank()}, retrying a busy
     * server for {@link #DEFAULT_BUSY_RETRY_MILLIS}.
     *
     * @throws IllegalStateException if the server cannot be reached or refuses this PE
     */
    public static TcpBootstrap connect(InetSocketAddress server, byte[] secret, Identity identity) {
        return connect(server, secret, identity, 0, DEFAULT_BUSY_RETRY_MILLIS, PE_SILENCE_LIMIT_MILLIS);
    }

    /** As {@link #connect(InetSocketAddress, byte[], Identity)}, for initialization {@code generation} of the PE. */
    public static TcpBootstrap connect(InetSocketAddress server, byte[] secret, Identity identity, int generation) {
        return connect(server, secret, identity, generation, DEFAULT_BUSY_RETRY_MILLIS, PE_SILENCE_LIMIT_MILLIS);
    }

    /**
     * Connects with retries and backoff: a launcher that is busy (its port flooded: connections time
     * out, or are dropped before the reply) is retried until {@code busyRetryMillis}; one that
     * refuses or cannot be reached, for {@link LauncherDialer#CONNECT_RETRY_MILLIS}. The final message says which.
     */
    static TcpBootstrap connect(InetSocketAddress server, byte[] secret, Identity identity, int generation,
                                long busyRetryMillis, int heartbeatTimeoutMillis) {
        if (secret.length != SECRET_BYTES) {
            throw new IllegalArgumentException("the job secret must have " + SECRET_BYTES + " bytes");
        }
        return LauncherDialer.dial(server, busyRetryMillis, socket -> {
            TcpBootstrap bootstrap = new TcpBootstrap(identity, generation, server, socket, heartbeatTimeoutMillis);
            bootstrap.hello(secret);
            bootstrap.startReader();
            return bootstrap;
        });
    }

    private void hello(byte[] secret) throws IOException {
        socket.setSoTimeout(HELLO_REPLY_TIMEOUT_MILLIS);
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.write(secret);
        out.writeInt(identity.rank());
        out.writeLong(ProcFs.selfPid());
        out.writeInt(generation);
        out.flush();
        DataInputStream in = new DataInputStream(received);
        if (in.readByte() != HELLO_OK) {
            throw new LauncherDialer.Refused("bootstrap refused: " + in.readUTF());
        }
        socket.setSoTimeout(0);
    }

    private void startReader() throws IOException {
        DataInputStream in = new DataInputStream(new BufferedInputStream(received));
        // The launcher sends a heartbeat every few seconds: silence this long means it is gone.
        socket.setSoTimeout(launcherSilenceLimit);
        Thread.ofPlatform().daemon().name("jshmem-bootstrap-reader").start(() -> readLoop(in));
        Thread.ofPlatform().daemon().name("jshmem-bootstrap-heartbeat").start(this::heartbeatLoop);
    }

    /** Tells the launcher, every heartbeat interval until finalize or close, that this PE is alive. */
    private void heartbeatLoop() {
        while (!closed && !finalized) {
            try {
                Thread.sleep(heartbeatMillis);
                if (closed || finalized) {
                    return;
                }
                synchronized (out) {
                    out.writeByte(HEARTBEAT);
                    out.flush();
                }
            } catch (InterruptedException | IOException e) {
                return; // the reader notices a lost connection
            }
        }
    }

    private void readLoop(DataInputStream in) {
        String lost = LOST_CONNECTION;
        try {
            while (true) {
                byte type;
                try {
                    type = in.readByte();
                } catch (SocketTimeoutException e) {
                    if (closed || finalized) {
                        socket.setSoTimeout(0); // the job is over for this PE: silence is fine now
                        continue;
                    }
                    lost = "the launcher stopped answering (nothing from it for " + launcherSilenceLimit + " ms)";
                    throw e;
                }
                switch (type) {
                    case FENCE_DONE -> {
                        int flagged = in.readInt();
                        cache.clear(); // a key put again before this fence has a newer value now
                        synchronized (state) {
                            firstFlagged = flagged;
                            fencesDone++;
                            state.notifyAll();
                        }
                    }
                    case VALUE -> {
                        int request = in.readInt();
                        byte[] value = in.readBoolean() ? readValue(in) : null;
                        CompletableFuture<byte[]> waiting = lookupsInFlight.remove(request);
                        if (waiting != null) {
                            waiting.complete(value);
                        }
                    }
                    case ABORT_NOTICE -> aborted(in.readUTF());
                    case SERVER_HEARTBEAT -> {
                        // its arrival has reset the read timeout
                    }
                    default -> throw new IOException("unknown bootstrap message type " + type);
                }
            }
        } catch (IOException e) {
            // No answer will come to a lookup still in flight, whatever the state.
            failLookups(closed ? "the bootstrap of PE " + identity.rank() + " is closed" : lost);
            // After finalize or close the launcher going away is expected; before, nothing else
            // would ever wake this PE's waiting loops.
            if (!closed && !finalized) {
                String died = LauncherLoss.launcherDied(launcherPid);
                String reason = died != null ? died : lost;
                boolean first;
                synchronized (state) {
                    first = abortReason == null;
                }
                if (first) {
                    // The first news that the job is over: say so, once, whatever the program does next.
                    String news = "jshmem: PE " + identity.rank() + ": "
                            + (died != null ? died : lost + " (" + LauncherDialer.hostPort(server) + ")") + " before finalize; "
                            + (orphanGraceMillis > 0 ? "ending this PE" : "the job is over");
                    LauncherLoss.tell(news);
                }
                aborted(reason);
                haltIfOrphaned();
            }
        }
    }

    /** Halts this process after the orphan grace, unless it finalized or closed the bootstrap meanwhile. */
    private void haltIfOrphaned() {
        long grace = orphanGraceMillis;
        if (grace <= 0) {
            return;
        }
        Thread.ofPlatform().daemon().name("jshmem-orphan-guard").start(() -> {
            try {
                Thread.sleep(grace);
            } catch (InterruptedException e) {
                return;
            }
            if (!closed && !finalized) {
                LauncherLoss.tell("jshmem: PE " + identity.rank() + ": lost the connection to the launcher at "
                        + LauncherDialer.hostPort(server) + " " + grace + " ms ago, before finalize: the job is over; halting");
                Runtime.getRuntime().halt(ORPHAN_STATUS);
            }
        });
    }

    /** Records the abort (first reason wins), wakes a waiting fence, and runs the handlers once. */
    private void aborted(String reason) {
        List<Consumer<String>> handlers;
        synchronized (state) {
            if (abortReason != null) {
                return;
            }
            abortReason = reason;
            handlers = List.copyOf(abortHandlers);
            state.notifyAll();
        }
        failLookups(reason);
        handlers.forEach(h -> runHandler(h, reason));
    }

    /** Ends every lookup in flight with an exception saying why: its answer will never come. */
    private void failLookups(String reason) {
        for (Integer request : List.copyOf(lookupsInFlight.keySet())) {
            CompletableFuture<byte[]> waiting = lookupsInFlight.remove(request);
            if (waiting != null) {
                waiting.completeExceptionally(new IllegalStateException("jshmem job is ending: " + reason));
            }
        }
    }

    private static void runHandler(Consumer<String> handler, String reason) {
        try {
            handler.accept(reason);
        } catch (RuntimeException e) {
            // A faulty handler must not stop the others from running.
            Log.BOOTSTRAP.log(Level.ERROR, null, e);
        }
    }

    @Override
    public int rank() {
        return identity.rank();
    }

    @Override
    public int size() {
        return identity.size();
    }

    @Override
    public String nodeId() {
        return identity.nodeId();
    }

    @Override
    public String jobId() {
        return identity.jobId();
    }

    @Override
    public int generation() {
        return generation;
    }

    /** Index of this PE among the PEs on its node. */
    public int localRank() {
        return identity.localRank();
    }

    /** Number of PEs on this PE's node. */
    public int localSize() {
        return identity.localSize();
    }

    @Override
    public void put(String key, byte[] value) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
        if (value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("bootstrap value of " + value.length + " bytes exceeds "
                    + MAX_VALUE_BYTES);
        }
        try {
            synchronized (out) {
                out.writeByte(PUT);
                out.writeUTF(key);
                writeValue(out, value);
                out.flush();
            }
        } catch (IOException e) {
            throw lostConnection(e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException if the job is being aborted or the launcher is gone, instead of
     *         waiting for PEs that will never come
     */
    @Override
    public void fence() {
        fenceFlagged(false);
    }

    /**
     * {@inheritDoc} The launcher's server keeps the lowest PE that raised its flag: O(1) bytes per PE.
     *
     * @throws IllegalStateException if the job is being aborted or the launcher is gone
     */
    @Override
    public int fenceFlagged(boolean flag) {
        synchronized (fenceCall) {
            long target;
            synchronized (state) {
                throwIfAborted();
                target = fencesDone + 1;
            }
            try {
                synchronized (out) {
                    out.writeByte(FENCE);
                    out.writeBoolean(flag);
                    out.flush();
                }
            } catch (IOException e) {
                throw lostConnection(e);
            }
            synchronized (state) {
                while (fencesDone < target && abortReason == null) {
                    try {
                        state.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting in a bootstrap fence", e);
                    }
                }
                if (fencesDone < target) {
                    throwIfAborted();
                }
                return firstFlagged;
            }
        }
    }

    private void throwIfAborted() {
        if (abortReason != null) {
            throw new IllegalStateException("jshmem job is ending: " + abortReason);
        }
    }

    /**
     * {@inheritDoc} Asks the launcher's server for this one key the first time (a round trip),
     * then answers from a cache until the next fence. Safe from any number of threads at once.
     *
     * @throws IllegalStateException if the job is ending or the launcher is gone, instead of waiting
     *         for an answer that will not come
     */
    @Override
    public byte[] get(String key) {
        Objects.requireNonNull(key, "key");
        byte[] cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        return answer(key, ask(List.of(key)).get(0));
    }

    /** Every key not cached yet is asked for before the first answer is awaited: one round trip for all. */
    @Override
    public List<byte[]> getAll(List<String> keys) {
        LinkedHashSet<String> missing = new LinkedHashSet<>();
        Map<String, byte[]> got = new HashMap<>();
        for (String key : keys) {
            byte[] cached = cache.get(Objects.requireNonNull(key, "key"));
            if (cached != null) {
                got.put(key, cached);
            } else {
                missing.add(key);
            }
        }
        if (!missing.isEmpty()) {
            List<String> asked = List.copyOf(missing);
            List<Asked> answers = ask(asked);
            for (int i = 0; i < asked.size(); i++) {
                got.put(asked.get(i), answer(asked.get(i), answers.get(i)));
            }
        }
        List<byte[]> values = new ArrayList<>(keys.size());
        for (String key : keys) {
            values.add(got.get(key));
        }
        return values;
    }

    /** A lookup sent: its request number and where its answer comes. */
    private record Asked(int request, CompletableFuture<byte[]> answer) {
    }

    /** Sends a lookup of each key (one flush for all); the answers come to the reader thread. */
    private List<Asked> ask(List<String> keys) {
        List<Asked> asked = new ArrayList<>(keys.size());
        synchronized (state) {
            throwIfAborted();
            if (closed) {
                throw new IllegalStateException("PE " + identity.rank() + ": bootstrap lookup of \"" + keys.get(0)
                        + "\" after close");
            }
            for (int i = 0; i < keys.size(); i++) {
                Asked a = new Asked(nextRequest.incrementAndGet(), new CompletableFuture<>());
                lookupsInFlight.put(a.request(), a.answer());
                asked.add(a);
            }
        }
        try {
            synchronized (out) {
                for (int i = 0; i < keys.size(); i++) {
                    out.writeByte(GET);
                    out.writeInt(asked.get(i).request());
                    out.writeUTF(keys.get(i));
                }
                out.flush();
            }
        } catch (IOException e) {
            asked.forEach(a -> lookupsInFlight.remove(a.request()));
            throw lostConnection(e);
        }
        lookupsSent.addAndGet(keys.size());
        return asked;
    }

    /** Waits for the answer to the lookup of {@code key}, and caches it. */
    private byte[] answer(String key, Asked asked) {
        byte[] value;
        try {
            value = asked.answer().get();
        } catch (InterruptedException e) {
            lookupsInFlight.remove(asked.request());
            Thread.currentThread().interrupt();
            throw new IllegalStateException("PE " + identity.rank() + ": interrupted in a bootstrap lookup of \""
                    + key + "\"", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("PE " + identity.rank() + ": bootstrap lookup of \"" + key + "\" failed: "
                    + e.getCause().getMessage(), e.getCause());
        }
        if (value != null) {
            cache.put(key, value);
        }
        return value;
    }

    @Override
    public int[] nodeIndexes() {
        return nodeIndexes;
    }

    /** Lookups sent to the launcher so far (cache misses), for SHMEM_DEBUG and the scale tests. */
    public long lookups() {
        return lookupsSent.get();
    }

    /** Bytes received from the launcher so far (HELLO reply, fences, values, heartbeats). */
    public long bytesReceived() {
        return received.count();
    }

    @Override
    public String traffic() {
        return lookups() + " lookups, " + bytesReceived() + " bytes received";
    }

    /** Sends ABORT and waits for the launcher to end this process; halts with {@code status} if it does not. */
    @Override
    public void abort(int status, String message) {
        try {
            sendAbort(status, message);
            Thread.sleep(ABORT_WAIT_MILLIS);
        } catch (IOException | InterruptedException e) {
            // No launcher to end the job (or told to hurry): this process can at least end itself.
        }
        Runtime.getRuntime().halt(status);
    }

    @Override
    public void exiting(int status, String message) {
        try {
            sendAbort(status, message); // the launcher ends the job with it; this PE exits on its own
        } catch (IOException e) {
            // no launcher to tell: it sees the exit status
        }
    }

    private void sendAbort(int status, String message) throws IOException {
        synchronized (out) {
            out.writeByte(ABORT);
            out.writeInt(status);
            writeText(out, message);
            out.flush();
        }
    }

    /** Best effort: a launcher that is already gone no longer cares. */
    @Override
    public void finalized() {
        finalized = true;
        try {
            synchronized (out) {
                out.writeByte(FINALIZED);
                out.flush();
            }
        } catch (IOException e) {
            // The launcher is gone or ending the job; there is nobody left to tell.
        }
    }

    /** Runs {@code handler} when the job is aborted; at once if it already was. */
    @Override
    public void onAbort(Consumer<String> handler) {
        Objects.requireNonNull(handler, "handler");
        String reason;
        synchronized (state) {
            abortHandlers.add(handler);
            reason = abortReason;
        }
        if (reason != null) {
            runHandler(handler, reason);
        }
    }

    @Override
    public String describe() {
        return "jshmem launcher " + LauncherDialer.hostPort(server);
    }

    @Override
    public void close() {
        closed = true;
        LauncherDialer.closeQuietly(socket);
        failLookups("the bootstrap of PE " + identity.rank() + " is closed");
    }

    private IllegalStateException lostConnection(IOException e) {
        String reason;
        synchronized (state) {
            reason = abortReason;
        }
        return new IllegalStateException(reason != null ? "jshmem job is ending: " + reason : LOST_CONNECTION, e);
    }

}
