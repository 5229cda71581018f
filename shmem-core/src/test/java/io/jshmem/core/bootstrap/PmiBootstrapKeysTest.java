/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * jshmem's key-value semantics over a write-once launcher store ({@link PmiBootstrap}'s generated
 * keys and per-fence directories), with an in-memory store standing in for PMI: values are visible
 * only after a fence, any PE may read any key without knowing who put it, keys may be put again
 * after a fence, and the store never sees a key twice.
 */
class PmiBootstrapKeysTest {

    /** A launcher store shared by the PEs of one job (threads here). */
    static final class Store {
        final Map<String, byte[]> visible = new ConcurrentHashMap<>();
        final Map<Integer, Map<String, byte[]>> staged = new ConcurrentHashMap<>();
        final CyclicBarrier barrier;
        final List<String> written = java.util.Collections.synchronizedList(new ArrayList<>());

        Store(int n) {
            barrier = new CyclicBarrier(n, () -> {
                staged.values().forEach(visible::putAll);
                staged.clear();
            });
        }
    }

    static final class FakePe extends PmiBootstrap {
        final Store store;
        int gets;

        FakePe(Store store, int rank, int size) {
            super(new Identity(rank, size, "n0", rank, size, "fake1"), "a test");
            this.store = store;
        }

        @Override
        String interfaceName() {
            return "fake";
        }

        @Override
        String detail() {
            return "";
        }

        @Override
        void storePut(String key, byte[] value) {
            if (store.written.contains(key)) {
                throw new AssertionError("key " + key + " stored twice");
            }
            store.written.add(key);
            store.staged.computeIfAbsent(rank(), r -> new HashMap<>()).put(key, value.clone());
        }

        @Override
        void storeFence() {
            try {
                store.barrier.await(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        @Override
        byte[] storeGet(int rank, String key) {
            gets++;
            assertTrue(key.startsWith("j" + rank + "."), key + " asked of PE " + rank);
            return store.visible.get(key);
        }

        @Override
        void nativeAbort(int status, String message) {
        }

        @Override
        void nativeFinalize() {
        }
    }

    static <T> List<T> onEveryPe(int n, Function<FakePe, T> body) throws Exception {
        Store store = new Store(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<T>> fs = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                FakePe pe = new FakePe(store, r, n);
                fs.add(pool.submit(() -> body.apply(pe)));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> f : fs) {
                out.add(f.get(30, TimeUnit.SECONDS));
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String s(byte[] v) {
        return v == null ? null : new String(v, StandardCharsets.UTF_8);
    }

    @Test
    void everyPeSeesEveryKeyAfterTheFence() throws Exception {
        List<String> seen = onEveryPe(4, pe -> {
            pe.put("shm." + pe.rank(), b("segment of " + pe.rank()));
            pe.put("ucx.addr." + pe.rank(), new byte[3000 + pe.rank()]);
            assertNull(pe.get("shm." + pe.rank()), "visible before the fence");
            pe.fence();
            StringBuilder sb = new StringBuilder();
            for (int r = 0; r < 4; r++) {
                sb.append(s(pe.get("shm." + r))).append(';');
                assertEquals(3000 + r, pe.get("ucx.addr." + r).length);
            }
            assertNull(pe.get("nobody.put.this"));
            return sb.toString();
        });
        for (String v : seen) {
            assertEquals("segment of 0;segment of 1;segment of 2;segment of 3;", v);
        }
    }

    @Test
    void aKeyPutAgainAfterAFenceHasItsNewValue() throws Exception {
        List<String> seen = onEveryPe(3, pe -> {
            if (pe.rank() == 1) {
                pe.put("config", b("first"));
            }
            pe.fence();
            String before = s(pe.get("config"));
            pe.fence(); // an empty epoch
            if (pe.rank() == 2) {
                pe.put("config", b("second"));
            }
            pe.fence();
            return before + "/" + s(pe.get("config"));
        });
        assertEquals(List.of("first/second", "first/second", "first/second"), seen);
    }

    @Test
    void directoriesAreReadOncePerFence() throws Exception {
        List<Integer> gets = onEveryPe(4, pe -> {
            pe.put("k" + pe.rank(), b("v"));
            pe.fence();
            for (int i = 0; i < 3; i++) {
                for (int r = 0; r < 4; r++) {
                    pe.get("k" + r);
                }
            }
            return pe.gets;
        });
        // 4 directories + 4 values, whatever the number of reads
        assertEquals(List.of(8, 8, 8, 8), gets);
    }

    /** A key that names its owner ({@code <name>.<pe>}) reads that PE's directories only, not N. */
    @Test
    void ownerKeysReadOnlyTheOwnersDirectories() throws Exception {
        List<Integer> gets = onEveryPe(8, pe -> {
            pe.put("shm." + pe.rank(), b("segment of " + pe.rank()));
            pe.fence();
            pe.fence(); // an empty epoch: one more directory of the owner to read
            int right = (pe.rank() + 1) % pe.size();
            assertEquals("segment of " + right, s(pe.get("shm." + right)));
            assertEquals("segment of " + right, s(pe.get("shm." + right)));
            assertNull(pe.get("shm." + pe.size()), "no such PE: an ordinary key, nobody put it");
            return pe.gets;
        });
        // 2 directories of the right neighbour + its value; then the ordinary key reads the other
        // 7 PEs' 2 directories each (the neighbour's are read already)
        assertEquals(List.of(3 + 14, 3 + 14, 3 + 14, 3 + 14, 3 + 14, 3 + 14, 3 + 14, 3 + 14), gets);
    }

    /** The flagged fence over a PMI store: every PE learns the lowest flagged PE, in ceil(log2 N) rounds. */
    @Test
    void flaggedFenceAgreesOnTheLowestFlaggedPe() throws Exception {
        List<String> seen = onEveryPe(5, pe -> {
            pe.put("before." + pe.rank(), b("x"));
            int first = pe.fenceFlagged(pe.rank() >= 3);
            int none = pe.fenceFlagged(false);
            int all = pe.fenceFlagged(true);
            int gets = pe.gets;
            assertEquals("x", s(pe.get("before." + (pe.rank() + 1) % 5)), "a put before it is visible after it");
            return first + "," + none + "," + all + "," + gets;
        });
        // 3 rounds of one flag lookup each per call, no directories
        assertEquals(List.of("3,-1,0,9", "3,-1,0,9", "3,-1,0,9", "3,-1,0,9", "3,-1,0,9"), seen);
    }

    @Test
    void valuesAreCopies() throws Exception {
        onEveryPe(1, pe -> {
            byte[] v = b("abc");
            pe.put("k", v);
            v[0] = 'x';
            pe.fence();
            byte[] got = pe.get("k");
            got[1] = 'y';
            assertArrayEquals(b("abc"), pe.get("k"));
            return null;
        });
    }

    @Test
    void abortNoticesReachHandlersAndStopFences() throws Exception {
        onEveryPe(1, pe -> {
            List<String> reasons = new ArrayList<>();
            pe.onAbort(reasons::add);
            pe.aborted("SIGTERM from the launcher");
            pe.aborted("second reason is ignored");
            pe.onAbort(reasons::add); // registered late: runs at once
            assertEquals(List.of("SIGTERM from the launcher", "SIGTERM from the launcher"), reasons);
            assertTrue(assertThrows(IllegalStateException.class, pe::fence).getMessage().contains("SIGTERM"));
            return null;
        });
    }

    @Test
    void closeBeforeFinalizeKeepsTheSessionForAnAbort() throws Exception {
        onEveryPe(1, pe -> {
            pe.close();
            assertThrows(IllegalStateException.class, () -> pe.put("k", b("v")));
            return null;
        });
    }

    @Test
    void badKeysAreRejected() throws Exception {
        onEveryPe(1, pe -> {
            assertThrows(IllegalArgumentException.class, () -> pe.put("a\nb", b("v")));
            assertThrows(NullPointerException.class, () -> pe.put("a", null));
            return null;
        });
    }
}
