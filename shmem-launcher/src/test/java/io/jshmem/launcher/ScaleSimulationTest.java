/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.core.base.Config;
import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.bootstrap.Bootstrap;
import io.jshmem.core.bootstrap.BootstrapProtocol;
import io.jshmem.core.bootstrap.ProcessMapping;
import io.jshmem.core.bootstrap.TcpBootstrap;
import io.jshmem.core.heap.SettingsAgreement;
import io.jshmem.core.heap.SharedSegments;
import io.jshmem.core.heap.SymmetricHeap;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Start-up at scale, simulated on one machine (issue 35): the real bootstrap and heap init code of a
 * sample PE runs in a job of N PEs, 64 per node, whose other PEs are simulated, and the test counts
 * what the sample PE receives from the bootstrap: after init (its node's segment records, nothing
 * per remote PE) and after the lookups a barrier and a ring put would add (the UCX addresses of the
 * off-node peers they use: the right neighbour and the dissemination partners). O(peers used), not
 * O(N).
 *
 * <ul>
 * <li>{@link #realServerAndClient}: oshrun's real {@link BootstrapServer} and a real
 *     {@link TcpBootstrap}, the other PEs raw protocol clients (a socket each, no thread), at 256 and
 *     1,024 PEs: the sample's bytes are the same at both sizes, the server's stored bytes grow 4x for
 *     4x the PEs (O(N) in all, not O(N^2)), and the counting model below agrees with the real
 *     protocol's lookups and bytes.
 * <li>{@link #countingModel}: 1,024, 4,096 and 16,384 PEs with a counting {@link Bootstrap} that
 *     answers for the simulated PEs and charges each lookup the bytes of the real protocol's reply
 *     (a real server would need a thread and two sockets per PE, beyond this machine's limits).
 * </ul>
 * Nothing here measures time.
 */
class ScaleSimulationTest {
    private static final int PES_PER_NODE = 64;
    private static final long SYMMETRIC_SIZE = 1 << 20;
    /** Sizes of a UCX worker address and packed rkey as published today (order of magnitude: TCP + shm). */
    private static final int UCX_ADDRESS_BYTES = 300;
    private static final int UCX_RKEY_BYTES = 120;
    /** Bytes of a VALUE reply around the value: type, request number, found flag, then the value's length. */
    private static final int VALUE_REPLY_OVERHEAD = 1 + 4 + 1 + 4;
    private static final int FENCE_DONE_BYTES = 1 + 4;

    private Path shmDir;
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @BeforeEach
    void setUp() throws IOException {
        shmDir = Files.createTempDirectory(Path.of("/dev/shm"), "jshmem-scale-test-");
        System.setProperty(TcpBootstrap.ORPHAN_GRACE_PROPERTY, "0"); // the test ends the server: no halt
    }

    @AfterEach
    void tearDown() throws Exception {
        for (AutoCloseable c : cleanup.reversed()) {
            c.close();
        }
        try (Stream<Path> files = Files.list(shmDir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
        }
        Files.deleteIfExists(shmDir);
    }

    /** What the sample PE received from the bootstrap. */
    record Traffic(long lookups, long bytes) {
    }

    /**
     * The sample PE's traffic after init and after the peers' lookups, what the server holds (real
     * server) or the bytes the heap's init allocated (model: this thread's allocation counter).
     */
    record Outcome(Traffic init, Traffic afterPeers, long serverKeys, long serverBytes, long initAllocated) {
        Outcome(Traffic init, Traffic afterPeers, long serverKeys, long serverBytes) {
            this(init, afterPeers, serverKeys, serverBytes, -1);
        }
    }

    @Test
    void realServerAndClient() throws Exception {
        Outcome small = realJob(256, 197);
        Outcome large = realJob(1024, 197);
        report("real server", 256, small);
        report("real server", 1024, large);
        // Init: the 63 node-mates' records, whatever N.
        assertEquals(PES_PER_NODE - 1, small.init().lookups());
        assertEquals(PES_PER_NODE - 1, large.init().lookups());
        // (The records name the job and the PEs' files: a few digits longer in a larger job.)
        assertTrue(Math.abs(large.init().bytes() - small.init().bytes()) <= 63 * 4L,
                "init bytes grew with N: " + small.init() + " at 256, " + large.init() + " at 1024");
        // The server holds every PE's values once (4 keys a simulated PE, the sample's heap record):
        // 4x the PEs, 4x the bytes (O(N) in all).
        assertEquals(4 * 255 + 1, small.serverKeys());
        assertEquals(4 * 1023 + 1, large.serverKeys());
        double ratio = (double) large.serverBytes() / small.serverBytes();
        assertTrue(ratio > 3.9 && ratio < 4.3, "server bytes " + small.serverBytes() + " -> " + large.serverBytes());
        // The counting model charges what the real protocol sends (the real one also got its HELLO
        // reply and, on a slow machine, heartbeats of a byte each).
        Outcome model = modelJob(1024, 197);
        assertEquals(large.init().lookups(), model.init().lookups());
        assertEquals(large.afterPeers().lookups(), model.afterPeers().lookups());
        long extra = large.afterPeers().bytes() - model.afterPeers().bytes();
        assertTrue(extra >= 1 && extra <= 1 + 60, "real " + large.afterPeers() + ", model " + model.afterPeers());
    }

    @ParameterizedTest(name = "{0} PEs")
    @ValueSource(ints = {1024, 4096, 16384})
    void countingModel(int npes) throws Exception {
        int log2 = 32 - Integer.numberOfLeadingZeros(npes - 1);
        Outcome reference = null;
        for (int sample : new int[] {197, npes - 1}) {
            Outcome o = modelJob(npes, sample);
            report("model", npes, o);
            assertEquals(PES_PER_NODE - 1, o.init().lookups(), "init lookups of PE " + sample);
            // The target: peers looked up after init + barrier + ring put <= 2 log2 N + PEs on the
            // node (a node-mate costs one key, an off-node peer three: address, rkey, base).
            long peerLookups = o.afterPeers().lookups() - o.init().lookups();
            assertTrue(peerLookups <= 3L * (log2 + 1), peerLookups + " lookups for the peers used");
            assertTrue(o.afterPeers().lookups() <= 2L * log2 * 3 + PES_PER_NODE,
                    "PE " + sample + ": " + o.afterPeers() + " at " + npes + " PEs");
            if (reference == null) {
                reference = o;
            }
        }
        // Init bytes do not depend on N (records differ by a few digits at most).
        Outcome at1024 = npes == 1024 ? reference : modelJob(1024, 197);
        assertTrue(Math.abs(reference.init().bytes() - at1024.init().bytes()) <= 63 * 4L,
                reference.init() + " at " + npes + " PEs, " + at1024.init() + " at 1024");
        // Memory: what the heap's init allocates per added PE is its flat per-PE arrays (a reference
        // per PE for the mapped segments; the node indexes come from the bootstrap), not records or
        // objects per PE. Measured again now that the code has run once (class loading aside).
        if (npes > 1024) {
            long perPe = (modelJob(npes, 197).initAllocated() - modelJob(1024, 197).initAllocated()) / (npes - 1024);
            System.out.printf("[scale] heap init allocates %d bytes per added PE (1,024 -> %,d PEs)%n", perPe, npes);
            assertTrue(perPe <= 16, perPe + " bytes allocated per added PE");
        }
    }

    private static void report(String how, int npes, Outcome o) {
        System.out.printf("[scale] %s, %d PEs: init %d lookups %d bytes; + barrier and ring put %d lookups %d bytes;"
                + " server holds %d keys %d bytes%n", how, npes, o.init().lookups(), o.init().bytes(),
                o.afterPeers().lookups(), o.afterPeers().bytes(), o.serverKeys(), o.serverBytes());
    }

    // ---------------------------------------------------------------- the job, two ways

    /** Node index of each PE: 64 per node, as oshrun places them; through the real mapping string. */
    private static String mapping(int npes) {
        int[] nodeOf = new int[npes];
        for (int pe = 0; pe < npes; pe++) {
            nodeOf[pe] = pe / PES_PER_NODE;
        }
        return ProcessMapping.encode(nodeOf);
    }

    /** Tells apart the jobs of one test (their segment files): one letter, so every job id has one length. */
    private char nextJob = 'a';

    private String jobId(int npes, int sample) {
        return "scale" + npes + "x" + sample + nextJob++;
    }

    private Config config() {
        return Config.fromEnvironment(Map.of("SHMEM_SYMMETRIC_SIZE", Long.toString(SYMMETRIC_SIZE),
                "JSHMEM_SHM_DIR", shmDir.toString()));
    }

    private static long segmentBytes() {
        return SymmetricHeap.INTERNAL_SIZE + SYMMETRIC_SIZE;
    }

    /** The record PE {@code pe} publishes as "shm.pe" (as SymmetricHeap does: node, segment, size, settings). */
    private byte[] shmRecord(String jobId, int pe) {
        Path path = shmDir.resolve(SharedSegments.fileName(jobId, 0, pe));
        return ((pe / PES_PER_NODE) + "\n" + path + "\n" + segmentBytes() + "\n" + SettingsAgreement.values(config()))
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Every value a simulated PE publishes: its heap record and its UCX address, rkey and base. */
    private Map<String, byte[]> published(String jobId, int pe) {
        Map<String, byte[]> v = new HashMap<>();
        v.put("shm." + pe, shmRecord(jobId, pe));
        v.put("ucx.addr." + pe, new byte[UCX_ADDRESS_BYTES]);
        v.put("ucx.rkey." + pe, new byte[UCX_RKEY_BYTES]);
        v.put("ucx.base." + pe, new byte[8]);
        return v;
    }

    /** Creates the segments of the sample's node-mates (sparse files), as they would have. */
    private void nodeMateSegments(String jobId, int npes, int sample) {
        Arena arena = Arena.ofShared();
        cleanup.add(arena::close);
        int first = sample / PES_PER_NODE * PES_PER_NODE;
        for (int pe = first; pe < Math.min(npes, first + PES_PER_NODE); pe++) {
            if (pe != sample) {
                SharedSegments.create(shmDir.resolve(SharedSegments.fileName(jobId, 0, pe)), segmentBytes(), arena);
            }
        }
    }

    /** The off-node peers a barrier (dissemination partners) and a ring put (right neighbour) use. */
    private static Set<Integer> peersUsed(int me, int npes) {
        Set<Integer> peers = new TreeSet<>();
        peers.add((me + 1) % npes);
        for (int d = 1; d < npes; d <<= 1) {
            peers.add((me + d) % npes);
        }
        peers.removeIf(pe -> pe / PES_PER_NODE == me / PES_PER_NODE);
        return peers;
    }

    /** What the UCX transport fetches for a peer on first use. */
    private static void fetchAddresses(Bootstrap b, Set<Integer> peers) {
        for (int pe : peers) {
            for (String key : List.of("ucx.addr.", "ucx.rkey.", "ucx.base.")) {
                assertTrue(b.get(key + pe) != null, key + pe);
            }
        }
    }

    /** The sample PE's init through oshrun's real server and a real TcpBootstrap; the others raw clients. */
    private Outcome realJob(int npes, int sample) throws Exception {
        String jobId = "realj" + jobId(npes, sample); // as long as the model's: the records have the same sizes
        nodeMateSegments(jobId, npes, sample);
        byte[] secret = new byte[BootstrapProtocol.SECRET_BYTES];
        secret[0] = 7;
        List<String> failures = new ArrayList<>();
        BootstrapServer server = BootstrapServer.start(npes, secret, new BootstrapServer.Listener() {
            @Override
            public void connected(int pe) {
            }

            @Override
            public void aborted(int pe, int status, String message) {
                failures.add("aborted " + pe + ": " + message);
            }

            @Override
            public void disconnected(int pe, boolean finalized) {
            }

            @Override
            public void failed(int pe, String reason) {
                failures.add("failed " + pe + ": " + reason);
            }
        });
        cleanup.add(server::close);
        // The simulated PEs: HELLO, their values, the first fence; one socket each, driven from here.
        List<Socket> others = new ArrayList<>();
        for (int pe = 0; pe < npes; pe++) {
            if (pe == sample) {
                continue;
            }
            Socket s = new Socket(server.address().getAddress(), server.port());
            cleanup.add(s);
            others.add(s);
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
            out.writeInt(BootstrapProtocol.MAGIC);
            out.writeInt(BootstrapProtocol.VERSION);
            out.write(secret);
            out.writeInt(pe);
            out.writeLong(100_000 + pe);
            out.writeInt(0);
            for (Map.Entry<String, byte[]> e : published(jobId, pe).entrySet()) {
                out.writeByte(BootstrapProtocol.PUT);
                out.writeUTF(e.getKey());
                BootstrapProtocol.writeValue(out, e.getValue());
            }
            out.writeByte(BootstrapProtocol.FENCE);
            out.writeBoolean(false);
            out.flush();
        }
        Map<String, String> env = new HashMap<>();
        env.put(LaunchEnv.JOBID, jobId);
        env.put(LaunchEnv.PE, Integer.toString(sample));
        env.put(LaunchEnv.NPES, Integer.toString(npes));
        env.put(LaunchEnv.NODE, Integer.toString(sample / PES_PER_NODE));
        env.put(LaunchEnv.LOCAL_PE, Integer.toString(sample % PES_PER_NODE));
        env.put(LaunchEnv.LOCAL_NPES, Integer.toString(PES_PER_NODE));
        env.put(LaunchEnv.PROCESS_MAPPING, mapping(npes));
        env.put(LaunchEnv.BOOTSTRAP, "127.0.0.1:" + server.port());
        env.put(LaunchEnv.SECRET, HexFormat.of().formatHex(secret));
        TcpBootstrap bootstrap = TcpBootstrap.fromEnvironment(env);
        cleanup.add(() -> {
            bootstrap.finalized();
            bootstrap.close();
        });
        CompletableFuture<SymmetricHeap> init = CompletableFuture.supplyAsync(() -> SymmetricHeap.create(bootstrap, config()));
        // The heap's second fence: each simulated PE enters it once the first is done.
        for (Socket s : others) {
            awaitFenceDone(new DataInputStream(new BufferedInputStream(s.getInputStream())));
            DataOutputStream out = new DataOutputStream(s.getOutputStream());
            out.writeByte(BootstrapProtocol.FENCE);
            out.writeBoolean(false);
            out.flush();
        }
        SymmetricHeap heap = init.get(120, TimeUnit.SECONDS);
        cleanup.add(heap::close);
        assertEquals(PES_PER_NODE, heap.pesOnThisNode());
        assertTrue(failures.isEmpty(), failures.toString());
        Traffic afterInit = new Traffic(bootstrap.lookups(), bootstrap.bytesReceived());
        fetchAddresses(bootstrap, peersUsed(sample, npes));
        Traffic afterPeers = new Traffic(bootstrap.lookups(), bootstrap.bytesReceived());
        long[] stored = server.storedKeysAndBytes();
        return new Outcome(afterInit, afterPeers, stored[0], stored[1]);
    }

    /** Reads a simulated PE's messages up to its FENCE_DONE (after its HELLO_OK, heartbeats aside). */
    private static void awaitFenceDone(DataInputStream in) throws IOException {
        assertEquals(BootstrapProtocol.HELLO_OK, in.readByte());
        while (true) {
            byte type = in.readByte();
            if (type == BootstrapProtocol.FENCE_DONE) {
                assertEquals(-1, in.readInt(), "nobody flagged a problem");
                return;
            }
            assertEquals(BootstrapProtocol.SERVER_HEARTBEAT, type, "unexpected message");
        }
    }

    /** The sample PE's init against the counting model. */
    private Outcome modelJob(int npes, int sample) {
        String jobId = "model" + jobId(npes, sample);
        nodeMateSegments(jobId, npes, sample);
        Map<String, byte[]> everyone = new HashMap<>();
        for (int pe = 0; pe < npes; pe++) {
            if (pe != sample) {
                everyone.putAll(published(jobId, pe));
            }
        }
        CountingBootstrap bootstrap = new CountingBootstrap(sample, npes, jobId, everyone,
                ProcessMapping.nodeOfRanks(mapping(npes), npes));
        Config config = config();
        long before = allocatedBytes();
        SymmetricHeap heap = SymmetricHeap.create(bootstrap, config);
        long allocated = allocatedBytes() - before;
        cleanup.add(heap::close);
        assertEquals(PES_PER_NODE, heap.pesOnThisNode());
        for (String key : bootstrap.asked()) {
            int pe = Integer.parseInt(key.substring(key.lastIndexOf('.') + 1));
            // Node-mates' records, and the previous PE's (the chain along which settings are compared).
            assertTrue(key.startsWith("shm.") && (pe / PES_PER_NODE == sample / PES_PER_NODE || pe == sample - 1),
                    "init asked for " + key + ", not a node-mate's or the previous PE's record");
        }
        Traffic afterInit = new Traffic(bootstrap.asked().size(), bootstrap.bytes());
        fetchAddresses(bootstrap, peersUsed(sample, npes));
        return new Outcome(afterInit, new Traffic(bootstrap.asked().size(), bootstrap.bytes()), everyone.size(), 0, allocated);
    }

    /** Bytes this thread has allocated so far (HotSpot's counter, through the platform MBean server). */
    private static long allocatedBytes() {
        try {
            return (Long) java.lang.management.ManagementFactory.getPlatformMBeanServer().invoke(
                    new javax.management.ObjectName("java.lang:type=Threading"), "getThreadAllocatedBytes",
                    new Object[] {Thread.currentThread().threadId()}, new String[] {"long"});
        } catch (javax.management.JMException e) {
            throw new AssertionError("no allocation counter: " + e, e);
        }
    }

    /**
     * A bootstrap for one PE of a simulated job: the other PEs' values are there from the start (they
     * put them before the first fence), fences complete at once, and each lookup is charged the
     * bytes of the real protocol's VALUE reply; a fence, its FENCE_DONE. Caches like TcpBootstrap.
     * A record: its components are the identity accessors {@link Bootstrap} asks for.
     */
    private record CountingBootstrap(int rank, int size, String jobId, Map<String, byte[]> values, int[] nodeIndexes,
                                     Map<String, byte[]> pending, Set<String> asked, long[] charged) implements Bootstrap {
        CountingBootstrap(int rank, int size, String jobId, Map<String, byte[]> values, int[] nodeIndexes) {
            this(rank, size, jobId, values, nodeIndexes, new HashMap<>(), new HashSet<>(), new long[1]);
        }

        long bytes() {
            return charged[0];
        }

        @Override
        public String nodeId() {
            return Integer.toString(nodeIndexes[rank]);
        }

        @Override
        public int generation() {
            return 0;
        }

        @Override
        public void put(String key, byte[] value) {
            pending.put(key, value.clone());
        }

        @Override
        public void fence() {
            fenceFlagged(false);
        }

        @Override
        public int fenceFlagged(boolean flag) {
            values.putAll(pending);
            pending.clear();
            charged[0] += FENCE_DONE_BYTES;
            return flag ? rank : -1; // the simulated PEs raise no flag
        }

        @Override
        public byte[] get(String key) {
            byte[] v = values.get(key);
            if (asked.add(key)) {
                charged[0] += VALUE_REPLY_OVERHEAD + (v == null ? -4 : v.length);
            }
            return v;
        }

        @Override
        public void abort(int status, String message) {
            throw new AssertionError("abort: " + message);
        }

        // Nothing to tell a launcher, no abort to notice, nothing to release.
        @Override public void finalized() { }
        @Override public void onAbort(Consumer<String> handler) { }
        @Override public String describe() { return "counting model"; }
        @Override public void close() { }
    }
}
