/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.core.bootstrap.BootstrapProtocol;
import io.jshmem.core.bootstrap.TcpBootstrap;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** An in-process {@link BootstrapServer} with {@link TcpBootstrap} clients (and one raw socket). */
class BootstrapServerTest {
    /** Bounds every wait, so a broken implementation fails the test instead of hanging it. */
    private static final long HANG_GUARD_SECONDS = 10;

    private final byte[] secret = secret(1);
    private final Events events = new Events();
    private final List<TcpBootstrap> clients = new ArrayList<>();
    private BootstrapServer server;

    @AfterEach
    void tearDown() {
        clients.forEach(TcpBootstrap::close);
        if (server != null) {
            server.close();
        }
    }

    @Test
    void putFenceGetRoundTripWithThreeClients() throws Exception {
        List<TcpBootstrap> pes = startJob(3);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (TcpBootstrap pe : pes) {
            done.add(CompletableFuture.runAsync(() -> twoRounds(pe), Thread::startVirtualThread));
        }
        for (CompletableFuture<Void> d : done) {
            d.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        }
        for (int pe = 0; pe < 3; pe++) {
            events.expect("connected " + pe);
        }
    }

    private static void twoRounds(TcpBootstrap pe) {
        int me = pe.rank();
        pe.put("key" + me, bytes("first " + me));
        pe.fence();
        for (int other = 0; other < pe.size(); other++) {
            assertArrayEquals(bytes("first " + other), pe.get("key" + other));
        }
        pe.put("key" + me, bytes("second " + me));
        assertArrayEquals(bytes("first " + me), pe.get("key" + me), "a put is visible only after the next fence");
        pe.fence();
        for (int other = 0; other < pe.size(); other++) {
            assertArrayEquals(bytes("second " + other), pe.get("key" + other));
        }
        assertNull(pe.get("never put"));
    }

    /**
     * Values on demand: a fence brings no values (its bytes do not grow with what the PEs put), a
     * lookup fetches one value, a second lookup of it is answered from the cache.
     */
    @Test
    void valuesComeOnDemandAndFencesCarryNone() throws Exception {
        List<TcpBootstrap> pes = startJob(4);
        byte[] big = new byte[10_000];
        runOnEach(pes, pe -> {
            pe.put("addr." + pe.rank(), big);
            pe.fence();
        });
        TcpBootstrap pe0 = pes.get(0);
        long afterFence = pe0.bytesReceived();
        assertTrue(afterFence < 1_000, "a fence shipped values: " + afterFence + " bytes received");
        assertEquals(0, pe0.lookups());
        assertEquals(big.length, pe0.get("addr.3").length);
        assertEquals(big.length, pe0.get("addr.3").length);
        assertEquals(1, pe0.lookups(), "the second get is answered from the cache");
        long value = pe0.bytesReceived() - afterFence;
        assertTrue(value >= big.length && value < big.length + 100, value + " bytes for one value");
        assertNull(pe0.get("addr.9"));
        assertEquals(2, server.lookups());
        long[] stored = server.storedKeysAndBytes();
        assertEquals(4, stored[0], "the server keeps each value once");
        assertTrue(stored[1] >= 4L * big.length && stored[1] < 4L * big.length + 100, "stored bytes " + stored[1]);
    }

    /**
     * A batch of lookups ({@code getAll}, eager UCX wire-up's): the values in the keys' order, null
     * for a key nobody put, one lookup per key not cached (a key asked twice, once), and the cached
     * ones not asked again; the answers match their requests though all were sent before the first came.
     */
    @Test
    void aBatchOfLookupsAnswersEveryKeyInOrder() throws Exception {
        List<TcpBootstrap> pes = startJob(4);
        runOnEach(pes, pe -> {
            pe.put("a." + pe.rank(), bytes("a of " + pe.rank()));
            pe.put("b." + pe.rank(), new byte[100 * (pe.rank() + 1)]);
            pe.fence();
        });
        TcpBootstrap pe0 = pes.get(0);
        assertArrayEquals(bytes("a of 2"), pe0.get("a.2"));
        List<byte[]> got = pe0.getAll(List.of("b.3", "a.1", "missing", "a.2", "b.1", "a.3", "a.1"));
        assertEquals(7, got.size());
        assertEquals(400, got.get(0).length);
        assertArrayEquals(bytes("a of 1"), got.get(1));
        assertNull(got.get(2));
        assertArrayEquals(bytes("a of 2"), got.get(3));
        assertEquals(200, got.get(4).length);
        assertArrayEquals(bytes("a of 3"), got.get(5));
        assertArrayEquals(bytes("a of 1"), got.get(6));
        assertEquals(6, pe0.lookups(), "a.2 came from the cache, a.1 was asked once");
        assertEquals(List.of(), pe0.getAll(List.of()));
        assertArrayEquals(bytes("a of 3"), pe0.getAll(List.of("a.3")).get(0));
        assertEquals(6, pe0.lookups(), "answered from the cache");
    }

    /** A flagged fence gives every PE the lowest PE that raised its flag, and the flags last one fence. */
    @Test
    void flaggedFenceNamesTheLowestFlaggedPe() throws Exception {
        List<TcpBootstrap> pes = startJob(3);
        List<CompletableFuture<String>> seen = new ArrayList<>();
        for (TcpBootstrap pe : pes) {
            seen.add(CompletableFuture.supplyAsync(() -> pe.fenceFlagged(pe.rank() >= 1) + "," + pe.fenceFlagged(false),
                    Thread::startVirtualThread));
        }
        for (CompletableFuture<String> s : seen) {
            assertEquals("1,-1", s.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        }
    }

    /** Lookups from many threads of one PE at once (endpoints made on first use) each get their own answer. */
    @Test
    void concurrentLookupsOfOnePeGetTheirOwnAnswers() throws Exception {
        List<TcpBootstrap> pes = startJob(2);
        runOnEach(pes, pe -> {
            for (int k = 0; k < 50; k++) {
                pe.put("k" + k + "." + pe.rank(), bytes("value " + k + " of " + pe.rank()));
            }
            pe.fence();
        });
        TcpBootstrap pe0 = pes.get(0);
        List<CompletableFuture<Void>> lookups = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            lookups.add(CompletableFuture.runAsync(() -> {
                for (int k = 0; k < 50; k++) {
                    assertArrayEquals(bytes("value " + k + " of 1"), pe0.get("k" + k + ".1"));
                }
            }, Thread::startVirtualThread));
        }
        for (CompletableFuture<Void> l : lookups) {
            l.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        }
        assertTrue(pe0.lookups() >= 50 && pe0.lookups() <= 8 * 50, "lookups " + pe0.lookups());
    }

    /** A lookup never waits on a job that is over: the server gone, it fails naming the reason. */
    @Test
    void lookupAfterTheLauncherIsGoneFails() throws Exception {
        List<TcpBootstrap> pes = startJob(1);
        runOnEach(pes, pe -> {
            pe.put("x.0", bytes("x"));
            pe.fence();
        });
        server.close();
        server = null;
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
            for (int i = 0; i < 1_000; i++) {
                pes.get(0).get("y." + i); // the first lookups may be sent before the close is noticed
                Thread.sleep(10);
            }
        });
        assertTrue(e.getMessage().contains("job is ending") || e.getMessage().contains("lost connection"), e.getMessage());
    }

    private static void runOnEach(List<TcpBootstrap> pes, java.util.function.Consumer<TcpBootstrap> step) throws Exception {
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (TcpBootstrap pe : pes) {
            done.add(CompletableFuture.runAsync(() -> step.accept(pe), Thread::startVirtualThread));
        }
        for (CompletableFuture<Void> d : done) {
            d.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void refusesWrongSecretDuplicatesAndStrangers() throws Exception {
        server = BootstrapServer.start(2, secret, events);
        connect(0, 2, secret);
        assertRefused("wrong job secret", () -> connect(1, 2, secret(2)));
        assertRefused("PE 0 is already connected", () -> connect(0, 2, secret));
        assertRefused("PE 5 is out of range", () -> connect(5, 6, secret));
        try (Socket socket = rawSocket()) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(0x12345678);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            assertEquals(BootstrapProtocol.HELLO_REFUSED, in.readByte());
            assertEquals("not a jshmem bootstrap client", in.readUTF());
        }
    }

    private static void assertRefused(String reason, Runnable connect) {
        String message = assertThrows(IllegalStateException.class, connect::run).getMessage();
        assertTrue(message.startsWith("bootstrap refused: ") && message.contains(reason), message);
    }

    @Test
    void abortNoticeRunsEveryHandlerOnce() throws Exception {
        List<TcpBootstrap> pes = startJob(3);
        BlockingQueue<String> reasons = new LinkedBlockingQueue<>();
        pes.forEach(pe -> pe.onAbort(reasons::add));
        server.abortAll("PE 2 was killed by signal 9 (SIGKILL) before finalize");
        for (int i = 0; i < 3; i++) {
            assertEquals("PE 2 was killed by signal 9 (SIGKILL) before finalize",
                    reasons.poll(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        }
        // A handler registered after the abort runs at once, on the caller's thread.
        pes.get(0).onAbort(reasons::add);
        assertEquals("PE 2 was killed by signal 9 (SIGKILL) before finalize", reasons.poll());
        assertNull(reasons.poll(), "each handler runs once");
    }

    @Test
    void fenceInProgressThrowsWhenTheJobIsAborted() throws Exception {
        List<TcpBootstrap> pes = startJob(3);
        // PEs 0 and 1 wait in a fence that PE 2 never joins.
        List<FenceThread> waiting = List.of(new FenceThread(pes.get(0)), new FenceThread(pes.get(1)));
        for (FenceThread t : waiting) {
            t.awaitWaiting();
        }
        server.abortAll("PE 2 exited with status 3 before finalize");
        for (FenceThread t : waiting) {
            Throwable failure = t.failure();
            assertTrue(failure instanceof IllegalStateException, String.valueOf(failure));
            assertTrue(failure.getMessage().contains("PE 2 exited with status 3 before finalize"), failure.getMessage());
        }
        // Later fences fail at once too.
        assertThrows(IllegalStateException.class, pes.get(2)::fence);
    }

    @Test
    void losingTheLauncherAbortsTheClient() throws Exception {
        List<TcpBootstrap> pes = startJob(2);
        BlockingQueue<String> reasons = new LinkedBlockingQueue<>();
        pes.get(0).onAbort(reasons::add);
        FenceThread waiting = new FenceThread(pes.get(0));
        waiting.awaitWaiting();
        server.close();
        assertEquals("lost connection to the launcher", reasons.poll(HANG_GUARD_SECONDS, TimeUnit.SECONDS));
        assertTrue(waiting.failure().getMessage().contains("lost connection to the launcher"));
    }

    @Test
    void reportsAbortFinalizeAndDisconnectOfARawClient() throws Exception {
        server = BootstrapServer.start(2, secret, events);
        try (Socket socket = rawSocket()) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(BootstrapProtocol.MAGIC);
            out.writeInt(BootstrapProtocol.VERSION);
            out.write(secret);
            out.writeInt(1);
            out.writeLong(4242);
            out.writeInt(0); // generation
            out.flush();
            assertEquals(BootstrapProtocol.HELLO_OK, new DataInputStream(socket.getInputStream()).readByte());
            events.expect("connected 1");
            out.writeByte(BootstrapProtocol.ABORT);
            out.writeInt(7);
            out.writeUTF("raw abort");
            out.writeByte(BootstrapProtocol.FINALIZED);
            out.flush();
            events.expect("aborted 1 7 raw abort");
        }
        server.awaitSettled(1, 0, TimeUnit.SECONDS.toMillis(HANG_GUARD_SECONDS));
        assertTrue(server.isFinalized(1));
        assertTrue(server.hasConnected(1));
        events.expect("disconnected 1 true");
    }

    @Test
    void fencingAfterAnotherPeFinalizedIsReportedInsteadOfHanging() throws Exception {
        List<TcpBootstrap> pes = startJob(2);
        pes.get(0).finalized();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
        while (!server.isFinalized(0)) { // so that the server sees FINALIZED before the FENCE
            assertTrue(System.nanoTime() < deadline, "FINALIZED never arrived");
            Thread.sleep(5);
        }
        FenceThread waiting = new FenceThread(pes.get(1));
        events.expect("failed 1 PE 1 entered a bootstrap fence after PE 0 had finalized");
        server.abortAll("ending"); // what the launcher does on a failure
        assertNotNull(waiting.failure());
    }

    /**
     * Re-initialization (1.6): PE 0 finalizes and connects for generation 1, and fences there while
     * PE 1 is still in generation 0 (not yet finalized). The fences do not mix: PE 0 waits until
     * PE 1 has finalized and joined generation 1 too, and then sees only generation 1's values.
     */
    @Test
    void aNewGenerationHasFencesOfItsOwn() throws Exception {
        List<TcpBootstrap> g0 = startJob(2);
        for (TcpBootstrap pe : g0) {
            pe.put("old" + pe.rank(), bytes("generation 0"));
        }
        FenceThread first = new FenceThread(g0.get(0));
        g0.get(1).fence();
        assertNull(first.failure());
        g0.get(0).finalized();
        g0.get(0).close();
        TcpBootstrap pe0 = connect(0, 2, secret, 1);
        assertEquals(1, pe0.generation());
        pe0.put("key0", bytes("generation 1 of PE 0"));
        FenceThread waiting = new FenceThread(pe0);
        waiting.awaitWaiting();
        assertEquals(1, server.generation(0));
        assertEquals(0, server.generation(1));
        assertTrue(!waiting.isDone(), "PE 0's fence of generation 1 completed while PE 1 was still in generation 0");
        g0.get(1).finalized();
        g0.get(1).close();
        TcpBootstrap pe1 = connect(1, 2, secret, 1);
        pe1.put("key1", bytes("generation 1 of PE 1"));
        pe1.fence();
        assertNull(waiting.failure());
        for (TcpBootstrap pe : List.of(pe0, pe1)) {
            assertArrayEquals(bytes("generation 1 of PE 0"), pe.get("key0"));
            assertArrayEquals(bytes("generation 1 of PE 1"), pe.get("key1"));
            assertNull(pe.get("old0"), "a value of generation 0 in generation 1");
        }
        assertEquals(1, server.maxGeneration());
        assertTrue(!server.isFinalized(0), "PE 0's latest connection has not finalized");
        events.expectNone("failed");
    }

    /** A HELLO for a generation out of turn, or after a connection lost without finalize, is refused. */
    @Test
    void refusesGenerationsOutOfTurn() throws Exception {
        List<TcpBootstrap> pes = startJob(2);
        String skipped = assertThrows(IllegalStateException.class, () -> connect(0, 2, secret, 2)).getMessage();
        assertTrue(skipped.contains("asks for generation 2 after generation 0"), skipped);
        pes.get(1).close(); // lost, not finalized
        String unfinalized = assertThrows(IllegalStateException.class, () -> connect(1, 2, secret, 1)).getMessage();
        assertTrue(unfinalized.contains("initialized jshmem again without finalizing generation 0"), unfinalized);
        server.close();
        server = BootstrapServer.start(2, secret, events);
        String early = assertThrows(IllegalStateException.class, () -> connect(0, 2, secret, 1)).getMessage();
        assertTrue(early.contains("never connected before"), early);
    }

    /** Starts a server for {@code npes} PEs and connects them all. */
    private List<TcpBootstrap> startJob(int npes) throws IOException {
        server = BootstrapServer.start(npes, secret, events);
        List<TcpBootstrap> pes = new ArrayList<>();
        for (int pe = 0; pe < npes; pe++) {
            pes.add(connect(pe, npes, secret));
        }
        return pes;
    }

    private TcpBootstrap connect(int pe, int npes, byte[] key) {
        return connect(pe, npes, key, 0);
    }

    private TcpBootstrap connect(int pe, int npes, byte[] key, int generation) {
        TcpBootstrap client = TcpBootstrap.connect(server.address(), key,
                new TcpBootstrap.Identity("testjob", pe, npes, "0", pe, npes), generation);
        clients.add(client);
        return client;
    }

    private Socket rawSocket() throws IOException {
        return new Socket(server.address().getAddress(), server.address().getPort());
    }

    private static byte[] secret(int seed) {
        byte[] s = new byte[BootstrapProtocol.SECRET_BYTES];
        for (int i = 0; i < s.length; i++) {
            s[i] = (byte) (seed * 31 + i);
        }
        return s;
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A thread calling fence() whose outcome the test can inspect. */
    private static final class FenceThread {
        private final CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        private final Thread thread;

        FenceThread(TcpBootstrap pe) {
            thread = Thread.ofPlatform().daemon().start(() -> {
                try {
                    pe.fence();
                    outcome.complete(null);
                } catch (Throwable t) {
                    outcome.complete(t);
                }
            });
        }

        /** Returns once the thread is parked inside fence(), i.e. the FENCE has been sent. */
        void awaitWaiting() throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
            while (thread.getState() != Thread.State.WAITING) {
                assertTrue(System.nanoTime() < deadline, "fence() never started waiting");
                Thread.sleep(5);
            }
        }

        boolean isDone() {
            return outcome.isDone();
        }

        Throwable failure() throws InterruptedException, ExecutionException, TimeoutException {
            return outcome.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Records the server's listener calls as text. */
    private static final class Events implements BootstrapServer.Listener {
        private final List<String> all = new ArrayList<>(); // guarded by this

        private synchronized void add(String event) {
            all.add(event);
            notifyAll();
        }

        @Override
        public void connected(int pe) {
            add("connected " + pe);
        }

        @Override
        public void aborted(int pe, int status, String message) {
            add("aborted " + pe + " " + status + " " + message);
        }

        @Override
        public void disconnected(int pe, boolean finalized) {
            add("disconnected " + pe + " " + finalized);
        }

        @Override
        public void failed(int pe, String reason) {
            add("failed " + pe + " " + reason);
        }

        /** Fails if some event so far starts with {@code prefix}. */
        synchronized void expectNone(String prefix) {
            assertTrue(all.stream().noneMatch(e -> e.startsWith(prefix)), "unexpected event \"" + prefix + "...\": " + all);
        }

        /** Waits until some event starts with {@code prefix}; events of different PEs come in any order. */
        synchronized void expect(String prefix) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_GUARD_SECONDS);
            while (all.stream().noneMatch(e -> e.startsWith(prefix))) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                assertTrue(left > 0, "no event \"" + prefix + "...\"; saw " + all);
                wait(left);
            }
        }
    }
}
