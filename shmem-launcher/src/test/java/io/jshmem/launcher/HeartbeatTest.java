/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.core.bootstrap.BootstrapProtocol;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The bootstrap server's heartbeats, with short timings: a PE that goes silent (its host vanished
 * without closing the connection) is dropped as silent; one that beats stays; the server beats too.
 */
class HeartbeatTest {
    private static final int SILENCE_MILLIS = 600;
    private static final long BEAT_MILLIS = 150;

    private final byte[] secret = new byte[BootstrapProtocol.SECRET_BYTES];
    private final CompletableFuture<String> disconnected = new CompletableFuture<>();
    private BootstrapServer server;

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aSilentPeIsDroppedAndMarkedSilent() throws Exception {
        start();
        try (Socket pe = hello(0)) {
            long t0 = System.nanoTime();
            assertEquals("0 false", disconnected.get(10, TimeUnit.SECONDS));
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(millis >= SILENCE_MILLIS - 100, "dropped after " + millis + " ms");
            assertTrue(server.wasSilent(0));
        }
    }

    @Test
    void aBeatingPeStaysAndHearsTheServersBeat() throws Exception {
        start();
        try (Socket pe = hello(0)) {
            DataOutputStream out = new DataOutputStream(pe.getOutputStream());
            DataInputStream in = new DataInputStream(pe.getInputStream());
            pe.setSoTimeout(5_000);
            for (int i = 0; i < 8; i++) { // 8 x 150 ms: twice the silence limit
                out.writeByte(BootstrapProtocol.HEARTBEAT);
                out.flush();
                Thread.sleep(BEAT_MILLIS);
            }
            assertFalse(disconnected.isDone(), "dropped although it beat: " + disconnected.getNow(""));
            assertEquals(BootstrapProtocol.SERVER_HEARTBEAT, in.readByte());
            assertFalse(server.wasSilent(0));
        }
    }

    @Test
    void aFinalizedPeMayStaySilent() throws Exception {
        start();
        try (Socket pe = hello(0)) {
            DataOutputStream out = new DataOutputStream(pe.getOutputStream());
            out.writeByte(BootstrapProtocol.FINALIZED);
            out.flush();
            Thread.sleep(3L * SILENCE_MILLIS);
            assertFalse(disconnected.isDone(), "dropped after finalize: " + disconnected.getNow(""));
        }
    }

    private void start() throws Exception {
        server = BootstrapServer.start(1, secret, new BootstrapServer.Listener() {
            @Override
            public void connected(int pe) {
            }

            @Override
            public void aborted(int pe, int status, String message) {
            }

            @Override
            public void disconnected(int pe, boolean finalized) {
                disconnected.complete(pe + " " + finalized);
            }

            @Override
            public void failed(int pe, String reason) {
            }
        }, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), SILENCE_MILLIS, BEAT_MILLIS);
    }

    private Socket hello(int pe) throws Exception {
        Socket socket = new Socket(server.address().getAddress(), server.address().getPort());
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(BootstrapProtocol.MAGIC);
        out.writeInt(BootstrapProtocol.VERSION);
        out.write(secret);
        out.writeInt(pe);
        out.writeLong(1234);
        out.writeInt(0); // generation
        out.flush();
        assertEquals(BootstrapProtocol.HELLO_OK, new DataInputStream(socket.getInputStream()).readByte());
        return socket;
    }
}
