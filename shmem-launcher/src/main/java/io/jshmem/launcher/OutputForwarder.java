/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;

/**
 * Copies one PE output stream to the launcher's, prefixing each line with {@code [PE k] }
 * (--tag-output) and/or the time it arrived (--timestamp-output), or as it comes (untagged: the output of PEs on other hosts, which arrives through
 * the launch agent). Works on bytes, so any encoding passes through. Each batch of complete lines
 * goes out in one locked write, so tagged lines of different PEs never interleave mid-line.
 *
 * <p>oshrun feeds forwarders from its one {@link OutputPump} thread ({@link #sink}); {@link #start}
 * runs one on a thread of its own, reading a stream.
 *
 * <p>A forwarder may also watch for a marker line: the first line equal to it is swallowed and
 * reported (the start script of a remote PE prints one when it runs; see {@link RemoteCommand}).
 */
final class OutputForwarder implements Runnable, OutputPump.Sink {
    /** A line longer than this is cut and emitted in parts rather than buffered without bound. */
    private static final int MAX_LINE_BYTES = 64 * 1024;
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    /** The {@code [PE k] } tag, or null when untagged. */
    private final byte[] tag;
    /** Prefix each line with the time it arrived (--timestamp-output). */
    private final boolean timestamp;
    /** Whether lines are prefixed (tagged or timestamped), so the stream is cut into lines. */
    private final boolean lines;
    private final InputStream in;
    private final PrintStream out;
    private final ByteArrayOutputStream partialLine = new ByteArrayOutputStream();
    private final ByteArrayOutputStream batch = new ByteArrayOutputStream();
    /** The marker line still awaited, or null. */
    private byte[] marker;
    private final Runnable onMarker;

    /** A forwarder fed with {@link #bytes} and {@link #end} (by an {@link OutputPump}); arguments as {@link #start}. */
    static OutputForwarder sink(int pe, boolean tag, boolean timestamp, PrintStream out, String marker, Runnable onMarker) {
        return new OutputForwarder(pe, tag, timestamp, null, out, marker, onMarker);
    }

    private OutputForwarder(int pe, boolean tag, boolean timestamp, InputStream in, PrintStream out, String marker,
                            Runnable onMarker) {
        this.tag = tag ? ("[PE " + pe + "] ").getBytes(StandardCharsets.US_ASCII) : null;
        this.timestamp = timestamp;
        this.lines = tag || timestamp;
        this.in = in;
        this.out = out;
        this.marker = marker == null ? null : marker.getBytes(StandardCharsets.US_ASCII);
        this.onMarker = onMarker;
    }

    /** Starts forwarding with tags on a daemon thread, which ends at end of stream. */
    static Thread start(int pe, InputStream in, PrintStream out, String streamName) {
        return start(pe, true, in, out, streamName, null, null);
    }

    /**
     * Starts forwarding on a daemon thread, which ends at end of stream; tags lines if {@code tag}.
     * If {@code marker} is not null, the first line equal to it is not forwarded: {@code onMarker}
     * runs instead.
     */
    static Thread start(int pe, boolean tag, InputStream in, PrintStream out, String streamName, String marker,
                        Runnable onMarker) {
        return start(pe, tag, false, in, out, streamName, marker, onMarker);
    }

    /** As above; with {@code timestamp}, each line also starts with the time it arrived, {@code [HH:mm:ss.SSS] }. */
    static Thread start(int pe, boolean tag, boolean timestamp, InputStream in, PrintStream out, String streamName,
                        String marker, Runnable onMarker) {
        return Thread.ofPlatform().daemon().name("oshrun-pe" + pe + "-" + streamName)
                .start(new OutputForwarder(pe, tag, timestamp, in, out, marker, onMarker));
    }

    private void writePrefix() {
        if (timestamp) {
            batch.writeBytes(("[" + LocalTime.now().format(TIME) + "] ").getBytes(StandardCharsets.US_ASCII));
        }
        if (tag != null) {
            batch.writeBytes(tag);
        }
    }

    @Override
    public void run() {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                bytes(buffer, 0, n);
            }
        } catch (IOException e) {
            // The PE's end of the pipe is gone; forward what we have.
        }
        end();
    }

    @Override
    public void bytes(byte[] buffer, int offset, int length) {
        if (offset != 0) {
            buffer = Arrays.copyOfRange(buffer, offset, offset + length);
        }
        int start = marker == null ? 0 : awaitMarker(buffer, length);
        if (!lines) {
            batch.write(buffer, start, length - start);
        } else {
            split(buffer, start, length);
        }
        emit();
    }

    @Override
    public void end() {
        if (partialLine.size() > 0) {
            endLastLine();
            emit();
        }
    }

    /**
     * Before the marker: collects lines, forwarding those that are not the marker. Returns where
     * the bytes after the marker start in {@code buffer}, or {@code length} if it is not there yet.
     */
    private int awaitMarker(byte[] buffer, int length) {
        int start = 0;
        for (int i = 0; i < length && marker != null; i++) {
            if (buffer[i] == '\n' || partialLine.size() + (i - start) >= MAX_LINE_BYTES) {
                partialLine.write(buffer, start, i - start);
                byte[] line = partialLine.toByteArray();
                partialLine.reset();
                if (buffer[i] == '\n' && Arrays.equals(line, marker)) {
                    marker = null;
                    onMarker.run();
                } else {
                    if (lines) {
                        writePrefix();
                    }
                    batch.writeBytes(line);
                    if (buffer[i] == '\n' || lines) { // prefixed: an overlong line is cut, as split() does
                        batch.write('\n');
                    }
                }
                start = buffer[i] == '\n' ? i + 1 : i;
            }
        }
        if (marker != null) {
            partialLine.write(buffer, start, length - start);
            return length;
        }
        return start;
    }

    private void split(byte[] buffer, int from, int length) {
        int start = from;
        for (int i = from; i < length; i++) {
            if (buffer[i] == '\n') {
                partialLine.write(buffer, start, i - start);
                endLine();
                start = i + 1;
            } else if (partialLine.size() + (i - start) >= MAX_LINE_BYTES) {
                partialLine.write(buffer, start, i - start);
                endLine();
                start = i;
            }
        }
        partialLine.write(buffer, start, length - start);
    }

    private void endLine() {
        writePrefix();
        batch.writeBytes(partialLine.toByteArray());
        batch.write('\n');
        partialLine.reset();
    }

    /** At end of stream: the unterminated last line, tagged and ended, or as it is when untagged. */
    private void endLastLine() {
        if (lines) {
            endLine();
        } else {
            batch.writeBytes(partialLine.toByteArray());
            partialLine.reset();
        }
    }

    private void emit() {
        if (batch.size() > 0) {
            // PrintStream.write(byte[], int, int) holds the stream's lock for the whole array.
            out.write(batch.toByteArray(), 0, batch.size());
            out.flush();
            batch.reset();
        }
    }
}
