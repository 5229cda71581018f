/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.jshmem.ShmemException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/**
 * The active-message handler ({@link Pushes#onMessage}) called as UCX calls it, with native header,
 * data and receive parameters: the data then the word (set or add; none for a put) land in the heap; a malformed
 * message (outside the heap, an unknown operation, a rendezvous descriptor) changes nothing, returns
 * UCS_OK instead of throwing (an exception would cross the upcall) and is thrown by {@link Pushes#check}.
 */
class PushesTest {
    private static void header(MemorySegment h, long data, long word, long operand, long op) {
        h.set(JAVA_LONG, Pushes.H_DATA, data);
        h.set(JAVA_LONG, Pushes.H_COUNTER, word);
        h.set(JAVA_LONG, Pushes.H_INCREMENT, operand);
        h.set(JAVA_LONG, Pushes.H_OP, op);
    }

    @Test
    void dataThenSignalAndMalformedMessagesAreRecorded() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment heap = arena.allocate(4096, 64);
            MemorySegment h = arena.allocate(Pushes.HEADER_BYTES, 8);
            MemorySegment data = arena.allocate(100);
            MemorySegment param = arena.allocate(16, 8); // ucp_am_recv_param_t: recv_attr, reply_ep
            for (int i = 0; i < 100; i++) {
                data.set(JAVA_BYTE, i, (byte) (i + 1));
            }
            Pushes p = new Pushes(3, heap);

            header(h, 1000, 64, 42, Pushes.OP_SET);
            assertEquals(UcpAbi.UCS_OK, p.onMessage(0, h.address(), Pushes.HEADER_BYTES, data.address(), 100, param.address()));
            assertEquals(42, heap.get(JAVA_LONG, 64));
            for (int i = 0; i < 100; i++) {
                assertEquals((byte) (i + 1), heap.get(JAVA_BYTE, 1000 + i), "byte " + i);
            }
            header(h, 0, 64, 5, Pushes.OP_ADD);
            p.onMessage(0, h.address(), Pushes.HEADER_BYTES, data.address(), 0, param.address());
            assertEquals(47, heap.get(JAVA_LONG, 64));
            // A put: the data alone; the word fields are not used (here out of range and unaligned).
            header(h, 2000, -3, 99, Pushes.OP_PUT);
            assertEquals(UcpAbi.UCS_OK, p.onMessage(0, h.address(), Pushes.HEADER_BYTES, data.address(), 16, param.address()));
            assertEquals(47, heap.get(JAVA_LONG, 64));
            for (int i = 0; i < 16; i++) {
                assertEquals((byte) (i + 1), heap.get(JAVA_BYTE, 2000 + i), "put byte " + i);
            }
            assertEquals(0, heap.get(JAVA_BYTE, 2016), "nothing past the put");
            p.check(); // nothing recorded

            // Outside the heap: dropped, nothing written, recorded.
            header(h, 4090, 64, 1, Pushes.OP_SET);
            assertEquals(UcpAbi.UCS_OK, p.onMessage(0, h.address(), Pushes.HEADER_BYTES, data.address(), 100, param.address()));
            assertEquals(47, heap.get(JAVA_LONG, 64));
            ShmemException e = assertThrows(ShmemException.class, p::check);
            assertTrue(e.getMessage().startsWith("PE 3: dropped a malformed UCX push message (100 bytes at 4090"), e.getMessage());
            Pushes outside = new Pushes(3, heap);
            header(h, 4090, 0, 0, Pushes.OP_PUT); // a put's data must lie in the heap too
            outside.onMessage(0, h.address(), Pushes.HEADER_BYTES, data.address(), 8, param.address());
            assertEquals(0, heap.get(JAVA_BYTE, 4090));
            assertThrows(ShmemException.class, outside::check);

            // Later malformed ones (an unknown operation, a rendezvous descriptor) are dropped too.
            Pushes q = new Pushes(3, heap);
            header(h, 0, 64, 1, 7);
            q.onMessage(0, h.address(), Pushes.HEADER_BYTES, data.address(), 8, param.address());
            assertEquals(47, heap.get(JAVA_LONG, 64));
            assertTrue(assertThrows(ShmemException.class, q::check).getMessage().contains("operation 7"));
            Pushes r = new Pushes(3, heap);
            header(h, 0, 64, 1, Pushes.OP_ADD);
            param.set(JAVA_LONG, 0, UcpAbi.UCP_AM_RECV_ATTR_FLAG_RNDV);
            r.onMessage(0, h.address(), Pushes.HEADER_BYTES, data.address(), 8, param.address());
            assertEquals(47, heap.get(JAVA_LONG, 64));
            assertTrue(assertThrows(ShmemException.class, r::check).getMessage().contains("rendezvous"));
        }
    }
}
