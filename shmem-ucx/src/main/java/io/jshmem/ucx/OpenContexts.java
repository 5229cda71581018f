/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.ucx;

import java.util.ArrayList;
import java.util.List;

/**
 * The transports of the contexts open on a PE ({@link UcxTransport#openContext}), and their
 * channels for the PE's progress: over TCP a context's put or atomic reaches its target only as
 * the initiator's worker is progressed, and no thread of its own serves a context, so the PE's
 * waits ({@link UcxTransport#progress}) and its {@link ProgressEngine} progress each context's
 * worker while it has operations posted since its last quiet ({@link Channel#wantsProgress}).
 * Opening and closing take this object's monitor (the PE's teardown too: no context is opened
 * past it); progress reads an array published at each change, no lock.
 */
final class OpenContexts {
    private static final Channel[] NONE = new Channel[0];

    private final List<UcxTransport> open = new ArrayList<>(); // guarded by this
    private volatile Channel[] channels = NONE;

    /** Holding this object's monitor. */
    void add(UcxTransport context) {
        open.add(context);
        publish();
    }

    synchronized void remove(UcxTransport context) {
        open.remove(context);
        publish();
    }

    /** Removes and returns every open context (the PE's teardown). */
    synchronized List<UcxTransport> takeAll() {
        List<UcxTransport> all = List.copyOf(open);
        open.clear();
        publish();
        return all;
    }

    synchronized List<UcxTransport> list() {
        return List.copyOf(open);
    }

    private void publish() {
        channels = open.isEmpty() ? NONE : open.stream().map(c -> c.main).toArray(Channel[]::new);
    }

    /**
     * One round of progress on each context's worker that has operations posted, unless another
     * thread holds it (that thread progresses it); whether any did something. No allocation.
     */
    boolean progress() {
        boolean did = false;
        for (Channel c : channels) {
            if (c.wantsProgress) {
                did |= c.tryProgress();
            }
        }
        return did;
    }

    /** Whether some context has operations posted (the progress thread then polls its own worker briefly, not for long). */
    boolean wantProgress() {
        for (Channel c : channels) {
            if (c.wantsProgress) {
                return true;
            }
        }
        return false;
    }
}
