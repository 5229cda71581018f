/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

/** Pipelined blocking transfers of a {@link Channel} (moved out of it to keep it short). */
final class Transfers {
    private Transfers() {
    }

    /**
     * A blocking put or get between native memory and {@code pe}: in {@link Channel#CHUNK}s with up to
     * {@link Channel#WINDOW} in flight when large. {@code window} is the calling thread's request ring.
     */
    static void transfer(Channel c, Channel.Rma op, int pe, long local, long n, long offset, String what, long[] window) {
        if (n <= Channel.CHUNK) {
            c.run(op, pe, local, n, offset, what);
            return;
        }
        int head = 0;
        int inFlight = 0;
        try {
            for (long done = 0; done < n; done += Channel.CHUNK) {
                if (inFlight == Channel.WINDOW) {
                    long r = window[head];
                    window[head] = 0;
                    head = (head + 1) % Channel.WINDOW;
                    inFlight--;
                    c.await(r, pe, what);
                }
                window[(head + inFlight) % Channel.WINDOW] = c.post(op, pe, local + done, Math.min(Channel.CHUNK, n - done), offset + done);
                inFlight++;
            }
            while (inFlight > 0) {
                long r = window[head];
                window[head] = 0;
                head = (head + 1) % Channel.WINDOW;
                inFlight--;
                c.await(r, pe, what);
            }
        } finally {
            // On failure: release the rest (UCX finishes or fails them; they are no one's any more).
            c.abandonRequests(window, head, inFlight);
        }
    }
}
