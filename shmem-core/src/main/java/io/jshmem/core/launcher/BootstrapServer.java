package io.jshmem.core.launcher;

import static io.jshmem.core.bootstrap.BootstrapProtocol.*;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The launcher's end of the bootstrap protocol ({@link io.jshmem.core.bootstrap.BootstrapProtocol}):
 * authenticates PEs, runs the key-value fences, and reports job-level events to a {@link Listener}.
 * Listens on 127.0.0.1 unless told otherwise (PEs on other hosts: see {@link BootstrapEndpoint}).
 * One (daemon, platform) thread per connection; a PE may vanish at any moment, which only ends its own thread.
 * Platform, not virtual, threads: a virtual thread blocked in socket I/O leaves the JDK's poller in
 * native code, and the JVM then waits up to ~300 ms at exit; oshrun's exit is on the job's start-up path.
 * A PE that has not finalized and sends nothing (not even its heartbeat) for
 * {@link io.jshmem.core.bootstrap.BootstrapProtocol#PE_SILENCE_LIMIT_MILLIS} counts as disconnected,
 * so a host that vanishes without closing its connections (power loss, a cut network) is noticed;
 * the server sends its own heartbeat to every PE for the same purpose on their side.
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
    }

    /** A connection that does not finish its HELLO in this time is dropped. */
    private static final int HANDSHAKE_TIMEOUT_MILLIS = 5_000;
    /** Bounds how long {@link #abortAll} may wait on a PE that does not read its socket. */
    private static final long ABORT_NOTICE_WAIT_MILLIS = 500;

    private final int npes;
    private final byte[] secret;
    private final int silenceLimitMillis;
    private final long heartbeatMillis;
    private final Listener listener;
    private final ServerSocket serverSocket;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    // Guarded by this.
    private final Peer[] peers;
    private int handshakes; // connections accepted whose HELLO is not settled yet
    private final Map<String, byte[]> putsSinceFence = new LinkedHashMap<>();
    private final boolean[] inFence;
    private int fenceArrivals;
    private int firstFinalized = -1;
    private long disconnects; // numbers the connections lost before finalize, in order

    /** The connection of one authenticated PE. */
    private static final class Peer {
        final int pe;
        final long pid;
        final DataOutputStream out; // guarded by itself: messages are written whole
        boolean finalized;          // guarded by the server
        boolean closed;             // guarded by the server
        boolean silent;             // guarded by the server: dropped for sending nothing too long
        long lostAs;                // guarded by the server: 1, 2, ... if closed before finalize, else 0

        Peer(int pe, long pid, DataOutputStream out) {
            this.pe = pe;
            this.pid = pid;
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

    private BootstrapServer(int npes, byte[] secret, Listener listener, ServerSocket serverSocket,
                            int silenceLimitMillis, long heartbeatMillis) {
        this.npes = npes;
        this.silenceLimitMillis = silenceLimitMillis;
        this.heartbeatMillis = heartbeatMillis;
        this.secret = secret.clone();
        this.listener = listener;
        this.serverSocket = serverSocket;
        this.peers = new Peer[npes];
        this.inFence = new boolean[npes];
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
        ServerSocket socket = new ServerSocket();
        try {
            socket.bind(address, npes + 16);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
        BootstrapServer server = new BootstrapServer(npes, secret, listener, socket, silenceLimitMillis,
                heartbeatMillis);
        Thread.ofPlatform().daemon().name("oshrun-bootstrap-accept").start(server::acceptLoop);
        Thread.ofPlatform().daemon().name("oshrun-bootstrap-heartbeat").start(server::heartbeatLoop);
        return server;
    }

    /** host:port for {@link io.jshmem.core.bootstrap.LaunchEnv#BOOTSTRAP}. */
    String hostPort() {
        return serverSocket.getInetAddress().getHostAddress() + ":" + serverSocket.getLocalPort();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) serverSocket.getLocalSocketAddress();
    }

    int port() {
        return serverSocket.getLocalPort();
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

    synchronized boolean hasConnected(int pe) {
        return peers[pe] != null;
    }

    synchronized boolean anyConnected() {
        return Arrays.stream(peers).anyMatch(p -> p != null);
    }

    synchronized boolean isFinalized(int pe) {
        return peers[pe] != null && peers[pe].finalized;
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
        byte[] notice = message(out -> {
            out.writeByte(ABORT_NOTICE);
            writeText(out, reason);
        });
        List<Thread> senders = new ArrayList<>();
        for (Peer peer : connectedPeers()) {
            senders.add(Thread.ofPlatform().daemon().name("oshrun-abort-notice-pe" + peer.pe).start(() -> peer.send(notice)));
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
        try {
            serverSocket.close();
        } catch (IOException e) {
            // already closed
        }
        sockets.forEach(BootstrapServer::closeQuietly);
    }

    private void acceptLoop() {
        while (!closed) {
            Socket socket;
            try {
                socket = serverSocket.accept();
            } catch (IOException e) {
                if (!closed) {
                    // PEs that cannot connect fail their init, which ends the job: no hang.
                    System.err.println("oshrun: bootstrap server stopped accepting: " + e.getMessage());
                }
                return;
            }
            sockets.add(socket);
            synchronized (this) {
                handshakes++;
            }
            Thread.ofPlatform().daemon().name("oshrun-bootstrap-conn").start(() -> serve(socket));
        }
    }

    private void serve(Socket socket) {
        Peer peer = null;
        try (socket) {
            socket.setTcpNoDelay(true);
            keepAlive(socket);
            socket.setSoTimeout(HANDSHAKE_TIMEOUT_MILLIS);
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            try {
                peer = handshake(in, out);
            } finally {
                synchronized (this) {
                    handshakes--;
                    notifyAll();
                }
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
            // else: a stranger that did not finish its HELLO
        } catch (IOException e) {
            // The PE went away (or never spoke the protocol); its exit is reported by the launcher.
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

    /** Reads HELLO; returns the registered peer, or null after sending a refusal. */
    private Peer handshake(DataInputStream in, DataOutputStream out) throws IOException {
        if (in.readInt() != MAGIC) {
            return refuse(out, "not a jshmem bootstrap client");
        }
        int version = in.readInt();
        if (version != VERSION) {
            return refuse(out, "client speaks bootstrap protocol " + version + ", this oshrun speaks " + VERSION
                    + " (mixed jshmem versions?)");
        }
        byte[] theirSecret = new byte[SECRET_BYTES];
        in.readFully(theirSecret);
        int pe = in.readInt();
        long pid = in.readLong();
        if (!MessageDigest.isEqual(theirSecret, secret)) {
            return refuse(out, "wrong job secret (is this PE from another job?)");
        }
        if (pe < 0 || pe >= npes) {
            return refuse(out, "PE " + pe + " is out of range for a job of " + npes + " PEs");
        }
        Peer peer = new Peer(pe, pid, out);
        // Holding the peer's output lock until HELLO_OK is written keeps an ABORT_NOTICE, sent as
        // soon as the peer is registered, from reaching the client before its handshake reply.
        synchronized (out) {
            synchronized (this) {
                if (closed) {
                    return refuse(out, "the job is ending");
                }
                if (peers[pe] != null) {
                    return refuse(out, "PE " + pe + " is already connected (pid " + peers[pe].pid + ")");
                }
                peers[pe] = peer;
            }
            out.writeByte(HELLO_OK);
            out.flush();
        }
        return peer;
    }

    private static Peer refuse(DataOutputStream out, String reason) throws IOException {
        out.writeByte(HELLO_REFUSED);
        writeText(out, reason);
        out.flush();
        return null;
    }

    private void readLoop(Peer peer, Socket socket, DataInputStream in) throws IOException {
        while (true) {
            byte type = in.readByte();
            switch (type) {
                case HEARTBEAT -> {
                    // its arrival has reset the read timeout
                }
                case PUT -> {
                    String key = in.readUTF();
                    byte[] value = readValue(in);
                    synchronized (this) {
                        putsSinceFence.put(key, value);
                    }
                }
                case FENCE -> fence(peer);
                case ABORT -> {
                    int status = in.readInt();
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

    private void fence(Peer peer) {
        String problem = null;
        byte[] done = null;
        List<Peer> waiting = List.of();
        synchronized (this) {
            if (inFence[peer.pe]) {
                problem = "PE " + peer.pe + " entered a bootstrap fence twice";
            } else if (firstFinalized >= 0) {
                problem = "PE " + peer.pe + " entered a bootstrap fence after PE " + firstFinalized
                        + " had finalized; it would wait forever";
            } else {
                inFence[peer.pe] = true;
                if (++fenceArrivals == npes) {
                    // Every PE has seen all earlier puts, so the puts of this epoch are all it lacks.
                    done = fenceDone(putsSinceFence);
                    putsSinceFence.clear();
                    Arrays.fill(inFence, false);
                    fenceArrivals = 0;
                    waiting = Arrays.asList(peers.clone());
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
        synchronized (this) {
            peer.finalized = true;
            if (firstFinalized < 0) {
                firstFinalized = peer.pe;
            }
            if (fenceArrivals > 0) {
                int waiter = 0;
                while (!inFence[waiter]) {
                    waiter++;
                }
                problem = "PE " + peer.pe + " finalized while PE " + waiter + " waits in a bootstrap fence";
            }
        }
        if (problem != null) {
            listener.failed(peer.pe, problem);
        }
    }

    private static byte[] fenceDone(Map<String, byte[]> puts) {
        return message(out -> {
            out.writeByte(FENCE_DONE);
            out.writeInt(puts.size());
            for (Map.Entry<String, byte[]> e : puts.entrySet()) {
                out.writeUTF(e.getKey());
                writeValue(out, e.getValue());
            }
        });
    }

    private interface MessageWriter {
        void write(DataOutputStream out) throws IOException;
    }

    /** Encodes a message once, so it can be sent to every PE as one write. */
    private static byte[] message(MessageWriter writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen with an in-memory stream
        }
        return bytes.toByteArray();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
