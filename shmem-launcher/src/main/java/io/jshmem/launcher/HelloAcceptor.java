/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static io.jshmem.core.bootstrap.BootstrapProtocol.MAGIC;
import static io.jshmem.core.bootstrap.BootstrapProtocol.SECRET_BYTES;
import static io.jshmem.core.bootstrap.BootstrapProtocol.VERSION;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The accept thread of a {@link BootstrapServer}: accepts connections with a selector and reads each
 * HELLO without blocking, within {@link #HELLO_DEADLINE_MILLIS}, keeping at most {@link #MAX_PENDING}
 * connections without one (the oldest dropped for a newer one), so that anyone flooding the port
 * cannot stop PEs from connecting. An authenticated connection is handed over to the server
 * ({@link BootstrapServer#handOver}); dropped and refused ones are reported through the {@link DropLog}.
 */
final class HelloAcceptor {
    /** A connection that does not finish its HELLO in this time is dropped (a PE sends it at once). */
    static final int HELLO_DEADLINE_MILLIS = 2_000;
    /** Connections accepted whose HELLO has not arrived, at most; the oldest make room for new ones. */
    static final int MAX_PENDING = 1024;
    /** HELLO: magic, version, secret, PE, pid, generation. */
    static final int HELLO_BYTES = 4 + 4 + SECRET_BYTES + 4 + 8 + 4;

    private final BootstrapServer server;
    private final ServerSocketChannel serverChannel;
    private final Selector selector;
    private final byte[] secret;
    private final int npes;
    private final DropLog drops;
    private volatile boolean closed;

    /** Connections without their HELLO yet, oldest first; only the accept thread touches it. */
    private final LinkedHashMap<SocketChannel, Pending> pending = new LinkedHashMap<>();

    /** A connection whose HELLO is being read. */
    record Pending(SocketChannel channel, SelectionKey key, ByteBuffer hello, long deadline, String from) {
    }

    HelloAcceptor(BootstrapServer server, ServerSocketChannel serverChannel, Selector selector, byte[] secret,
                  int npes, DropLog drops) {
        this.server = server;
        this.serverChannel = serverChannel;
        this.selector = selector;
        this.secret = secret;
        this.npes = npes;
        this.drops = drops;
    }

    /** Stops listening; the accept thread then drops the pending connections and ends. Idempotent. */
    void close() {
        closed = true;
        try {
            serverChannel.close();
        } catch (IOException e) {
            // already closed
        }
        selector.wakeup();
    }

    /** Accepts connections and reads their HELLOs on one thread, never waiting on any one peer. */
    void acceptLoop() {
        try {
            while (!closed) {
                selector.select(100);
                List<Pending> complete = new ArrayList<>();
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        acceptSome();
                    } else if (key.isReadable()) {
                        Pending p = readHello((Pending) key.attachment());
                        if (p != null) {
                            complete.add(p);
                        }
                    }
                }
                selector.selectedKeys().clear();
                expire();
                if (!complete.isEmpty()) {
                    selector.selectNow(); // deregisters the cancelled keys, so the channels may block
                    selector.selectedKeys().clear();
                    for (Pending p : complete) {
                        server.handOver(p);
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            if (!closed) {
                // PEs that cannot connect fail their init, which ends the job: no hang.
                System.err.println("oshrun: bootstrap server stopped accepting: " + e);
            }
        } finally {
            for (Pending p : List.copyOf(pending.values())) {
                drop(p, null);
            }
            try {
                selector.close();
            } catch (IOException e) {
                // nothing left to release
            }
        }
    }

    private void acceptSome() {
        for (int i = 0; i < 256; i++) {
            SocketChannel channel;
            try {
                channel = serverChannel.accept();
            } catch (IOException e) {
                if (closed) {
                    return;
                }
                // Out of file descriptors, most likely (a flood): make room, keep accepting.
                drops.dropped("(not accepted)", "cannot accept: " + e.getMessage());
                List<Pending> oldest = pending.values().stream().limit(Math.max(1, pending.size() / 2)).toList();
                oldest.forEach(p -> drop(p, "dropped to free resources: " + e.getMessage()));
                return;
            }
            if (channel == null) {
                return;
            }
            String from = "?";
            try {
                from = String.valueOf(channel.getRemoteAddress()).replaceFirst("^[^/]*/", "");
                channel.configureBlocking(false);
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                Pending p = new Pending(channel, key, ByteBuffer.allocate(HELLO_BYTES),
                        System.nanoTime() + HELLO_DEADLINE_MILLIS * 1_000_000L, from);
                key.attach(p);
                pending.put(channel, p);
                server.accepted();
            } catch (IOException e) {
                drops.dropped(from, "failed at accept: " + e.getMessage());
                closeQuietly(channel);
                continue;
            }
            if (pending.size() > MAX_PENDING) {
                drop(pending.values().iterator().next(), "no HELLO yet while " + MAX_PENDING
                        + " newer connections waited (a flood?)");
            }
        }
    }

    /** Reads what has arrived of a HELLO; returns the connection once it is whole and valid. */
    private Pending readHello(Pending p) {
        ByteBuffer b = p.hello();
        int n;
        try {
            n = p.channel().read(b);
        } catch (IOException e) {
            drop(p, "failed before its HELLO: " + e.getMessage());
            return null;
        }
        if (b.position() >= 4 && b.getInt(0) != MAGIC) {
            refuse(p, "not a jshmem bootstrap client");
            return null;
        }
        if (b.position() >= 8 && b.getInt(4) != VERSION) {
            refuse(p, "client speaks bootstrap protocol " + b.getInt(4) + ", this oshrun speaks " + VERSION
                    + " (mixed jshmem versions?)");
            return null;
        }
        if (n < 0) {
            drop(p, "closed before its HELLO was complete (" + b.position() + " of " + HELLO_BYTES + " bytes)");
            return null;
        }
        if (b.hasRemaining()) {
            return null;
        }
        byte[] theirSecret = new byte[SECRET_BYTES];
        b.get(8, theirSecret);
        int pe = b.getInt(8 + SECRET_BYTES);
        if (!MessageDigest.isEqual(theirSecret, secret)) {
            refuse(p, "wrong job secret (is this PE from another job?)");
            return null;
        }
        if (pe < 0 || pe >= npes) {
            refuse(p, "PE " + pe + " is out of range for a job of " + npes + " PEs");
            return null;
        }
        pending.remove(p.channel());
        p.key().cancel();
        return p;
    }

    /** Drops the connections whose HELLO is overdue. */
    private void expire() {
        long now = System.nanoTime();
        List<Pending> late = new ArrayList<>();
        for (Pending p : pending.values()) {
            if (now - p.deadline() < 0) {
                break; // in order of acceptance, hence of deadline
            }
            late.add(p);
        }
        late.forEach(p -> drop(p, "no HELLO within " + HELLO_DEADLINE_MILLIS + " ms"));
    }

    /** Sends a refusal (a fresh connection's send buffer always takes it) and drops the connection. */
    private void refuse(Pending p, String reason) {
        try {
            p.channel().write(ByteBuffer.wrap(ServerMessages.refusal(reason)));
        } catch (IOException e) {
            // gone already
        }
        drop(p, "refused: " + reason);
    }

    /** Closes a connection without a valid HELLO; reported unless {@code why} is null (the server is closing). */
    private void drop(Pending p, String why) {
        pending.remove(p.channel());
        p.key().cancel();
        closeQuietly(p.channel());
        if (why != null && !closed) {
            drops.dropped(p.from(), why);
        }
        server.settled();
    }

    private static void closeQuietly(java.io.Closeable c) {
        try {
            c.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
