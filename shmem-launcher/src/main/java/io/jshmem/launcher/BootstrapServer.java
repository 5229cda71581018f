/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static io.jshmem.core.bootstrap.BootstrapProtocol.*;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The launcher's end of the bootstrap protocol ({@link io.jshmem.core.bootstrap.BootstrapProtocol}):
 * authenticates PEs, runs the fences, keeps the values PEs put and answers per-key lookups (values
 * on demand: a fence ships no values), and reports job-level events to a {@link Listener}.
 * Listens on 127.0.0.1 unless told otherwise (PEs on other hosts: see {@link BootstrapEndpoint}).
 *
 * <p>Start-up must survive anyone on the machine flooding the port (any local user can connect).
 * One thread accepts with a selector and reads each HELLO without blocking, with a short deadline
 * ({@link HelloAcceptor#HELLO_DEADLINE_MILLIS}); at most {@link HelloAcceptor#MAX_PENDING} connections may be without a HELLO,
 * the oldest being dropped for a newer one (a PE sends its HELLO the moment it connects, so only idle
 * strangers are ever old); the listen backlog is large, so a PE's connection is not lost while the
 * accept thread catches up, and a PE that is dropped or times out anyway retries
 * ({@link io.jshmem.core.bootstrap.TcpBootstrap}). Dropped and refused connections are reported,
 * with the peer's address, at most one line every {@link DropLog#INTERVAL_MILLIS}.
 * Only an authenticated PE gets a (daemon, platform) thread; a PE may vanish at any moment, which
 * only ends its own thread. Platform, not virtual, threads: a virtual thread blocked in socket I/O
 * leaves the JDK's poller in native code, and the JVM then waits up to ~300 ms at exit; oshrun's exit
 * is on the job's start-up path.
 * A PE that has not finalized and sends nothing (not even its heartbeat) for
 * {@link io.jshmem.core.bootstrap.BootstrapProtocol#PE_SILENCE_LIMIT_MILLIS} counts as disconnected,
 * so a host that vanishes without closing its connections (power loss, a cut network) is noticed;
 * the server sends its own heartbeat to every PE for the same purpose on their side.
 *
 * <p>Re-initialization (OpenSHMEM 1.6): a PE that finalized may connect again, from the same
 * process, for the next generation; its HELLO says which. Each generation has its own fences, so
 * PEs initializing again never mix with PEs still finalizing the previous one. The queries below
 * ({@link #isFinalized}, {@link #pid}, ...) are about each PE's latest connection.
 */
final class BootstrapServer implements AutoCloseable {

    /** Job-level events, called on server threads without any server lock held. */
    interface Listener {
        /** PE {@code pe} completed its handshake. */
        void connected(int pe);

        /** PE {@code pe} asked to end the job. */
        void aborted(int pe, int status, String message);

        /** The connection of PE {@code pe} ended while the server is open. */
        void disconnected(int pe, boolean finalized);

        /** PE {@code pe} broke the protocol, or made a fence impossible to complete; {@code reason} says how. */
        void failed(int pe, String reason);

        /**
         * Whether PE {@code pe}, silent past the limit, is a process of this host (JVM {@code pid})
         * that is waiting for a CPU, not stopped: then it is given more time (see {@link #SILENCE_PATIENCE}).
         */
        default boolean waitingForCpu(int pe, long pid) {
            return false;
        }
    }

    /**
     * How many more silence limits a PE of this host gets while it is runnable but not running: on a
     * machine with far more runnable threads than cores (load averages of 100 on 2 cores were seen in
     * CI) a healthy PE's heartbeat thread can wait seconds for a CPU, and blaming it would end the
     * job with the wrong PE named. A stopped or vanished PE, or one on another host, gets none.
     */
    static final int SILENCE_PATIENCE = 5;

    /**
     * How long a PE's HELLO for its next generation may wait for the FINALIZED of its previous one,
     * which arrives on the other connection and may be read a little later.
     */
    private static final long PREVIOUS_GENERATION_WAIT_MILLIS = 5_000;
    /** Listen backlog (the kernel caps it at net.core.somaxconn). */
    private static final int BACKLOG = 4096;
    /** Bounds how long {@link #abortAll} may wait on a PE that does not read its socket. */
    private static final long ABORT_NOTICE_WAIT_MILLIS = 500;
    /** The ABORT_NOTICE message once {@link #abortAll} ran, else null. Guarded by this. */
    private byte[] abortNotice;

    private final int npes;
    private final int silenceLimitMillis;
    private final long heartbeatMillis;
    private final Listener listener;
    private final ServerSocketChannel serverChannel;
    /** Accepts connections and reads their HELLOs (the accept thread). */
    private final HelloAcceptor acceptor;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final DropLog drops = new DropLog();
    private volatile boolean closed;

    // Guarded by this.
    private final Peer[] peers; // each PE's latest connection
    private int handshakes; // connections accepted whose HELLO is not settled yet
    private final Map<Integer, Generation> generations = new HashMap<>(); // those not yet finalized by every PE
    private int maxGeneration = -1;
    private long disconnects; // numbers the connections lost before finalize, in order
    private long lookups; // GETs answered, for the scale tests

    /** The fences of one generation (guarded by the server). */
    private static final class Generation {
        final int number;
        final Peer[] peers;
        final Map<String, byte[]> putsSinceFence = new LinkedHashMap<>();
        /** Values put before the last completed fence: what GET answers from (O(N) in all, not per PE). */
        final Map<String, byte[]> visible = new HashMap<>();
        final boolean[] inFence;
        int fenceArrivals;
        /** The lowest PE whose FENCE in the current fence raised its flag, or -1. */
        int firstFlagged = -1;
        int firstFinalized = -1;
        int finalizedCount;

        Generation(int number, int npes) {
            this.number = number;
            this.peers = new Peer[npes];
            this.inFence = new boolean[npes];
        }
    }

    /** The connection of one authenticated PE. */
    private static final class Peer {
        final int pe;
        final long pid;
        final Generation generation;
        final DataOutputStream out; // guarded by itself: messages are written whole
        boolean finalized;          // guarded by the server
        boolean aborted;            // guarded by the server: it sent ABORT (its exit is then what that says)
        boolean closed;             // guarded by the server
        boolean silent;             // guarded by the server: dropped for sending nothing too long
        long lostAs;                // guarded by the server: 1, 2, ... if closed before finalize, else 0

        Peer(int pe, long pid, Generation generation, DataOutputStream out) {
            this.pe = pe;
            this.pid = pid;
            this.generation = generation;
            this.out = out;
        }

        /** Writes a complete message; a failure means the PE is gone, which its reader thread reports. */
        void send(byte[] message) {
            try {
                synchronized (out) {
                    out.write(message);
                    out.flush();
                }
            } catch (IOException e) {
                // The connection's reader sees the same failure and reports the disconnect.
            }
        }
    }

    private BootstrapServer(int npes, byte[] secret, Listener listener, ServerSocketChannel serverChannel,
                            Selector selector, int silenceLimitMillis, long heartbeatMillis) {
        this.npes = npes;
        this.silenceLimitMillis = silenceLimitMillis;
        this.heartbeatMillis = heartbeatMillis;
        this.listener = listener;
        this.serverChannel = serverChannel;
        this.acceptor = new HelloAcceptor(this, serverChannel, selector, secret.clone(), npes, drops);
        this.peers = new Peer[npes];
    }

    /** Binds an ephemeral port on 127.0.0.1 and starts accepting PEs. */
    static BootstrapServer start(int npes, byte[] secret, Listener listener) throws IOException {
        return start(npes, secret, listener,
                new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 0));
    }

    /** Binds {@code address} (port 0: an ephemeral one) and starts accepting PEs. */
    static BootstrapServer start(int npes, byte[] secret, Listener listener, InetSocketAddress address)
            throws IOException {
        return start(npes, secret, listener, address, PE_SILENCE_LIMIT_MILLIS, HEARTBEAT_INTERVAL_MILLIS);
    }

    /** As {@link #start(int, byte[], Listener, InetSocketAddress)}, with the heartbeat timing given (tests). */
    static BootstrapServer start(int npes, byte[] secret, Listener listener, InetSocketAddress address,
                                 int silenceLimitMillis, long heartbeatMillis) throws IOException {
        ServerSocketChannel channel = ServerSocketChannel.open();
        Selector selector;
        try {
            channel.bind(address, BACKLOG);
            channel.configureBlocking(false);
            selector = Selector.open();
            channel.register(selector, SelectionKey.OP_ACCEPT);
        } catch (IOException e) {
            channel.close();
            throw e;
        }
        BootstrapServer server = new BootstrapServer(npes, secret, listener, channel, selector, silenceLimitMillis,
                heartbeatMillis);
        Thread.ofPlatform().daemon().name("oshrun-bootstrap-accept").start(server.acceptor::acceptLoop);
        Thread.ofPlatform().daemon().name("oshrun-bootstrap-heartbeat").start(server::heartbeatLoop);
        return server;
    }

    /** host:port for {@link io.jshmem.core.base.LaunchEnv#BOOTSTRAP}. */
    String hostPort() {
        return address().getAddress().getHostAddress() + ":" + port();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.socket().getLocalSocketAddress();
    }

    int port() {
        return serverChannel.socket().getLocalPort();
    }

    /** The process id PE {@code pe} gave in its HELLO (on its own host), or -1 if it has not connected. */
    synchronized long pid(int pe) {
        return peers[pe] == null ? -1 : peers[pe].pid;
    }

    /**
     * The PE whose connection was lost (closed before finalize) first, if that was before PE
     * {@code pe}'s, or at all if {@code pe}'s is not lost; -1 if none. When PEs fail one after
     * another, the first to go is the likely cause, the others its casualties.
     */
    synchronized int firstLostBefore(int pe) {
        long limit = peers[pe] != null && peers[pe].lostAs > 0 ? peers[pe].lostAs : Long.MAX_VALUE;
        int first = -1;
        for (Peer p : peers) {
            if (p != null && p.lostAs > 0 && p.lostAs < limit) {
                limit = p.lostAs;
                first = p.pe;
            }
        }
        return first;
    }

    /** Whether PE {@code pe}'s latest connection closed before it finalized (it died, or is dying). */
    synchronized boolean isLost(int pe) {
        return peers[pe] != null && peers[pe].lostAs > 0;
    }

    synchronized boolean hasConnected(int pe) {
        return peers[pe] != null;
    }

    synchronized boolean anyConnected() {
        return Arrays.stream(peers).anyMatch(p -> p != null);
    }

    /** Whether PE {@code pe}'s latest connection sent ABORT (a failure it reported itself, with its reason). */
    synchronized boolean hasAborted(int pe) {
        return peers[pe] != null && peers[pe].aborted;
    }

    synchronized boolean isFinalized(int pe) {
        return peers[pe] != null && peers[pe].finalized;
    }

    /** The generation of PE {@code pe}'s latest connection (0: its first initialization), or -1 if none. */
    synchronized int generation(int pe) {
        return peers[pe] == null ? -1 : peers[pe].generation.number;
    }

    /** A PE connected for generation {@code generation} or a later one, or -1 if none has. */
    synchronized int firstInGeneration(int generation) {
        for (Peer p : peers) {
            if (p != null && p.generation.number >= generation) {
                return p.pe;
            }
        }
        return -1;
    }

    /** GETs answered so far (all PEs, all generations). */
    synchronized long lookups() {
        return lookups;
    }

    /** Keys and value bytes the server holds now, over the generations not yet finalized by every PE. */
    synchronized long[] storedKeysAndBytes() {
        long keys = 0;
        long bytes = 0;
        for (Generation g : generations.values()) {
            for (Map<String, byte[]> m : List.of(g.visible, g.putsSinceFence)) {
                keys += m.size();
                for (Map.Entry<String, byte[]> e : m.entrySet()) {
                    bytes += e.getKey().length() + e.getValue().length;
                }
            }
        }
        return new long[] {keys, bytes};
    }

    /** The latest generation any PE connected for, -1 before the first connection. */
    synchronized int maxGeneration() {
        return maxGeneration;
    }

    /**
     * Waits until everything PE {@code pe} sent has been processed, for a PE whose process has exited:
     * until its connection is closed or, if it has none, for {@code helloGraceMillis} in case its
     * connection is still in the accept queue. Bounded by {@code timeoutMillis}.
     */
    synchronized void awaitSettled(int pe, long helloGraceMillis, long timeoutMillis) throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            long elapsed = (System.nanoTime() - start) / 1_000_000;
            Peer peer = peers[pe];
            if (peer != null ? peer.closed : handshakes == 0 && elapsed >= helloGraceMillis) {
                return;
            }
            long until = peer == null && handshakes == 0 ? Math.min(helloGraceMillis, timeoutMillis) : timeoutMillis;
            if (elapsed >= until) {
                return;
            }
            wait(until - elapsed);
        }
    }

    /**
     * Tells every connected PE that the job is ending, so waiting loops end promptly. Waits at most
     * {@link #ABORT_NOTICE_WAIT_MILLIS}: a stopped PE must not delay the end of the job.
     */
    void abortAll(String reason) {
        byte[] notice = ServerMessages.message(out -> {
            out.writeByte(ABORT_NOTICE);
            writeText(out, reason);
        });
        synchronized (this) {
            abortNotice = notice; // from now on no fence completes (see fence)
        }
        List<Thread> senders = new ArrayList<>();
        for (Peer peer : connectedPeers()) {
            senders.add(Thread.ofVirtual().name("oshrun-abort-notice-pe" + peer.pe).start(() -> peer.send(notice)));
        }
        long deadline = System.nanoTime() + ABORT_NOTICE_WAIT_MILLIS * 1_000_000;
        for (Thread sender : senders) {
            try {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0 || !sender.join(Duration.ofMillis(left))) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private synchronized List<Peer> connectedPeers() {
        return Arrays.stream(peers).filter(p -> p != null && !p.closed).toList();
    }

    /** Whether PE {@code pe}'s connection was dropped because it sent nothing for too long. */
    synchronized boolean wasSilent(int pe) {
        return peers[pe] != null && peers[pe].silent;
    }

    /** Tells every connected PE, every heartbeat interval, that the launcher is alive. */
    private void heartbeatLoop() {
        byte[] beat = {SERVER_HEARTBEAT};
        while (!closed) {
            try {
                Thread.sleep(heartbeatMillis);
            } catch (InterruptedException e) {
                return;
            }
            for (Peer peer : connectedPeers()) {
                peer.send(beat);
            }
        }
    }

    /** Stops listening and drops every connection; idempotent. */
    @Override
    public void close() {
        closed = true;
        acceptor.close(); // the accept thread then drops the pending connections and ends
        sockets.forEach(BootstrapServer::closeQuietly);
        drops.summary();
    }

    /** A connection was accepted: its HELLO is awaited (see {@link #awaitSettled}). */
    synchronized void accepted() {
        handshakes++;
    }

    /** A connection accepted was dropped or refused before it became a PE's. */
    synchronized void settled() {
        handshakes--;
        notifyAll();
    }

    /**
     * Gives an authenticated connection its own thread, which registers the PE and reads its messages.
     * A virtual thread (issue 35: no platform thread per PE): a blocking socket read unmounts it, so N
     * connections cost N small stacks on the heap, not N threads.
     */
    void handOver(HelloAcceptor.Pending p) {
        SocketChannel channel = p.channel();
        try {
            channel.configureBlocking(true);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel);
            drops.dropped(p.from(), "failed after its HELLO: " + e.getMessage());
            settled();
            return;
        }
        Socket socket = channel.socket();
        sockets.add(socket);
        ByteBuffer hello = p.hello();
        int pe = hello.getInt(8 + SECRET_BYTES);
        long pid = hello.getLong(12 + SECRET_BYTES);
        int generation = hello.getInt(20 + SECRET_BYTES);
        Thread.ofVirtual().name("oshrun-bootstrap-pe" + pe).start(() -> serve(socket, pe, pid, generation));
    }

    private void serve(Socket socket, int pe, long pid, int generation) {
        Peer peer = null;
        try (socket) {
            socket.setTcpNoDelay(true);
            keepAlive(socket);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            try {
                peer = register(pe, pid, generation, out);
            } finally {
                settled();
            }
            if (peer == null) {
                return;
            }
            socket.setSoTimeout(silenceLimitMillis);
            listener.connected(peer.pe);
            readLoop(peer, socket, in);
        } catch (SocketTimeoutException e) {
            if (peer != null) {
                synchronized (this) {
                    peer.silent = true; // reported as a disconnect below
                }
            }
        } catch (IOException e) {
            // The PE went away; its exit is reported by the launcher.
        } finally {
            sockets.remove(socket);
            if (peer != null) {
                boolean finalized;
                synchronized (this) {
                    peer.closed = true;
                    finalized = peer.finalized;
                    if (!finalized && !closed) {
                        peer.lostAs = ++disconnects;
                    }
                    notifyAll();
                }
                if (!closed) {
                    listener.disconnected(peer.pe, finalized);
                }
            }
        }
    }

    /** Registers an authenticated PE and answers its HELLO; null after sending a refusal. */
    private Peer register(int pe, long pid, int generation, DataOutputStream out) throws IOException {
        Peer peer = null;
        // Holding the peer's output lock until HELLO_OK is written keeps an ABORT_NOTICE, sent as
        // soon as the peer is registered, from reaching the client before its handshake reply.
        synchronized (out) {
            String refusal;
            synchronized (this) {
                refusal = admissible(pe, pid, generation);
                if (refusal == null) {
                    Generation g = generations.computeIfAbsent(generation, n -> new Generation(n, npes));
                    peer = new Peer(pe, pid, g, out);
                    g.peers[pe] = peer;
                    peers[pe] = peer;
                    maxGeneration = Math.max(maxGeneration, generation);
                }
            }
            if (refusal != null) {
                out.write(ServerMessages.refusal(refusal));
                out.flush();
                return null;
            }
            out.writeByte(HELLO_OK);
            out.flush();
        }
        return peer;
    }

    /**
     * Why PE {@code pe} may not connect for {@code generation}, or null if it may: its first
     * connection is generation 0; each later one comes from the same process, for the next
     * generation, after it finalized the previous one (whose FINALIZED, read on the other connection,
     * is waited for a little). Called holding the server's lock.
     */
    private String admissible(int pe, long pid, int generation) {
        if (closed) {
            return "the job is ending";
        }
        Peer last = peers[pe];
        if (last == null) {
            return generation == 0 ? null : "PE " + pe + " (pid " + pid + ") asks to initialize jshmem again (generation "
                    + generation + ") but never connected before";
        }
        if (generation == last.generation.number) {
            return "PE " + pe + " is already connected (pid " + last.pid + ")";
        }
        if (generation != last.generation.number + 1) {
            return "PE " + pe + " (pid " + pid + ") asks for generation " + generation + " after generation "
                    + last.generation.number;
        }
        if (pid != last.pid) {
            return "PE " + pe + " initialized again from pid " + pid + ", not from pid " + last.pid
                    + " that initialized it before";
        }
        long deadline = System.nanoTime() + PREVIOUS_GENERATION_WAIT_MILLIS * 1_000_000;
        while (!last.finalized && !last.closed && !closed) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                break;
            }
            try {
                wait(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "the job is ending";
            }
        }
        if (closed) {
            return "the job is ending";
        }
        return last.finalized ? null : "PE " + pe + " initialized jshmem again without finalizing generation "
                + last.generation.number;
    }

    /**
     * The type byte of the next message. A read timeout here is at a message boundary (nothing of the
     * next message has arrived), so reading again loses nothing.
     */
    private byte nextType(Peer peer, DataInputStream in) throws IOException {
        for (int extra = 0; ; extra++) {
            try {
                return in.readByte();
            } catch (SocketTimeoutException e) {
                if (extra >= SILENCE_PATIENCE || !listener.waitingForCpu(peer.pe, peer.pid)) {
                    throw e;
                }
            }
        }
    }

    private void readLoop(Peer peer, Socket socket, DataInputStream in) throws IOException {
        while (true) {
            byte type = nextType(peer, in);
            switch (type) {
                case HEARTBEAT -> {
                    // its arrival has reset the read timeout
                }
                case PUT -> {
                    String key = in.readUTF();
                    byte[] value = readValue(in);
                    synchronized (this) {
                        peer.generation.putsSinceFence.put(key, value);
                    }
                }
                case FENCE -> fence(peer, in.readBoolean());
                case GET -> {
                    int request = in.readInt();
                    String key = in.readUTF();
                    byte[] value;
                    synchronized (this) {
                        value = peer.generation.visible.get(key);
                        lookups++;
                    }
                    peer.send(ServerMessages.valueReply(request, value));
                }
                case ABORT -> {
                    int status = in.readInt();
                    synchronized (this) {
                        peer.aborted = true;
                    }
                    listener.aborted(peer.pe, status, in.readUTF());
                }
                case FINALIZED -> {
                    finalized(peer);
                    socket.setSoTimeout(0); // a finalized PE may compute on in silence for as long as it likes
                }
                default -> {
                    listener.failed(peer.pe, "PE " + peer.pe + " sent an unknown bootstrap message (type " + type + ")");
                    return;
                }
            }
        }
    }

    private void fence(Peer peer, boolean flag) {
        String problem = null;
        byte[] done = null;
        List<Peer> waiting = List.of();
        Generation g = peer.generation;
        byte[] aborted;
        synchronized (this) {
            aborted = abortNotice;
        }
        if (aborted != null) {
            // The job is ending: a PE that had not yet read the notice must not get a fence completed
            // by the arrivals of PEs that have since given up on it. It gets the notice (again) instead.
            peer.send(aborted);
            return;
        }
        synchronized (this) {
            if (g.inFence[peer.pe]) {
                problem = "PE " + peer.pe + " entered a bootstrap fence twice";
            } else if (g.firstFinalized >= 0) {
                problem = "PE " + peer.pe + " entered a bootstrap fence after PE " + g.firstFinalized
                        + " had finalized; it would wait forever";
            } else {
                g.inFence[peer.pe] = true;
                if (flag && (g.firstFlagged < 0 || peer.pe < g.firstFlagged)) {
                    g.firstFlagged = peer.pe;
                }
                if (++g.fenceArrivals == npes) {
                    // The epoch's puts become visible before any PE learns that the fence is done,
                    // so every GET it sends after the fence finds them.
                    g.visible.putAll(g.putsSinceFence);
                    g.putsSinceFence.clear();
                    done = ServerMessages.fenceDone(g.firstFlagged);
                    g.firstFlagged = -1;
                    Arrays.fill(g.inFence, false);
                    g.fenceArrivals = 0;
                    waiting = Arrays.asList(g.peers.clone());
                }
            }
        }
        if (problem != null) {
            listener.failed(peer.pe, problem);
        }
        for (Peer p : waiting) {
            p.send(done);
        }
    }

    private void finalized(Peer peer) {
        String problem = null;
        Generation g = peer.generation;
        synchronized (this) {
            if (peer.finalized) {
                return;
            }
            peer.finalized = true;
            notifyAll(); // its HELLO for the next generation may be waiting for this
            if (g.firstFinalized < 0) {
                g.firstFinalized = peer.pe;
            }
            if (g.fenceArrivals > 0) {
                int waiter = 0;
                while (!g.inFence[waiter]) {
                    waiter++;
                }
                problem = "PE " + peer.pe + " finalized while PE " + waiter + " waits in a bootstrap fence";
            }
            if (++g.finalizedCount == npes) {
                generations.remove(g.number); // done with: every PE has finalized it
            }
        }
        if (problem != null) {
            listener.failed(peer.pe, problem);
        }
    }

    private static void closeQuietly(java.io.Closeable socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
