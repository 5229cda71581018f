/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * Reads every PE output pipe of a job on one thread, so that oshrun's threads do not grow with N
 * (issue 35): before it, each PE had a platform thread per stream it forwarded.
 *
 * <p>Why polling {@link InputStream#available()} rather than a thread per stream or a selector:
 * <ul>
 * <li>A virtual thread per stream does not help. A process pipe is a {@code FileInputStream}, and a
 *     virtual thread blocked in a file read pins its carrier; the JDK compensates with a new carrier
 *     thread, so 64 PEs' streams cost 64+ carrier threads (measured: 129 at 64 PEs x 2 streams).
 * <li>A process pipe is not a selectable channel, and its file descriptor is not reachable without
 *     opening JDK internals or native code ({@code poll(2)} through {@code java.lang.foreign}), which
 *     would also cost the launcher's start-up the FFM linker.
 * <li>{@code available()} on a pipe is {@code ioctl(FIONREAD)}: it never blocks, and reading no more
 *     than it says never blocks either. One thread therefore serves any number of streams.
 * </ul>
 * The thread sleeps between rounds: {@value #ACTIVE_NANOS} ns after a round that moved data, doubling
 * up to {@value #IDLE_NANOS} ns while nothing comes (a 64-PE job that prints nothing costs a few
 * thousand cheap system calls a second). A stream ends when its process has exited and nothing is
 * left in it: the process's writes all happened before its exit, so what is then available is all of
 * it. (What a PE's orphan writes to the inherited pipe after the PE exited is not forwarded.)
 * A sink whose consumer is slow holds up only its own stream: the pipe fills and its PE waits, as it
 * would with a blocking reader. The sinks run on this thread, in turn.
 */
final class OutputPump {
    /** Where a stream's bytes go: called on the pump's thread, never concurrently for one stream. */
    interface Sink {
        void bytes(byte[] buffer, int offset, int length);

        /** At the end of the stream, once. */
        void end();
    }

    static final long ACTIVE_NANOS = 1_000_000;
    static final long IDLE_NANOS = 40_000_000;
    private static final int CHUNK = 64 * 1024;

    private record Stream(InputStream in, Process source, Sink sink, CompletableFuture<Void> done) {
    }

    private final List<Stream> streams = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean closed;

    OutputPump(String name) {
        thread = Thread.ofPlatform().daemon().name(name).start(this::run);
    }

    /**
     * Forwards {@code in} to {@code sink} until {@code source} has exited and {@code in} is drained
     * (or it is closed); the future completes after {@link Sink#end}.
     */
    CompletableFuture<Void> add(InputStream in, Process source, Sink sink) {
        Stream s = new Stream(in, source, sink, new CompletableFuture<>());
        streams.add(s);
        LockSupport.unpark(thread);
        // A round when the process exits, not after the pause (up to IDLE_NANOS while it was quiet):
        // its stream then ends at once, and with it the job's wait for its output.
        source.onExit().thenRun(() -> LockSupport.unpark(thread));
        return s.done();
    }

    /** Ends every stream still open (after what is available now), and the thread. */
    void close() {
        closed = true;
        LockSupport.unpark(thread);
    }

    private void run() {
        byte[] buffer = new byte[CHUNK];
        long pause = ACTIVE_NANOS;
        while (true) {
            boolean last = closed; // a round after close() drains what is there, then ends every stream
            boolean moved = false;
            for (Stream s : streams) {
                moved |= pump(s, buffer, last);
            }
            if (last) {
                return;
            }
            pause = moved ? ACTIVE_NANOS : Math.min(IDLE_NANOS, pause * 2);
            LockSupport.parkNanos(pause);
        }
    }

    /** One turn of stream {@code s}: true if bytes moved. Ends it when drained after its process exited, or {@code last}. */
    private boolean pump(Stream s, byte[] buffer, boolean last) {
        boolean exited = !s.source().isAlive(); // first: every byte written before the exit is now available
        boolean moved = false;
        boolean ended = false;
        try {
            int available = s.in().available();
            // A few chunks a turn at most, so that one busy stream does not hold up the others.
            for (int turns = 0; available > 0 && turns < 4; turns++) {
                int n = s.in().read(buffer, 0, Math.min(available, buffer.length));
                if (n < 0) {
                    ended = true;
                    break;
                }
                s.sink().bytes(buffer, 0, n);
                moved = true;
                available = s.in().available();
            }
            ended |= exited && available <= 0;
        } catch (IOException e) {
            ended = true; // closed: the process is gone and its stream with it
        } catch (RuntimeException e) {
            ended = true; // a sink failed: stop feeding it rather than the whole pump
        }
        if (ended || last) {
            finish(s);
        }
        return moved;
    }

    private void finish(Stream s) {
        streams.remove(s);
        try {
            s.sink().end();
        } catch (RuntimeException e) {
            // a sink's failure at its end changes nothing for the others
        } finally {
            try {
                s.in().close();
            } catch (IOException e) {
                // nothing to do
            }
            s.done().complete(null);
        }
    }
}
