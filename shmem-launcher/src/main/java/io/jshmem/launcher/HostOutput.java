/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Takes apart one stream of a host's launch agent, which carries the output of all the host's PEs
 * ({@link RemoteCommand#hostScript}): a line {@code @<pe> text} is PE pe's line {@code text}, a line
 * {@code @<pe>+ text} a piece of one (no newline after it); each goes to that PE's sink (its
 * forwarder or the aggregator, as for a local PE). On the standard output, the start marker and the
 * PEs' exit reports are taken out and passed to {@code control}. Any other line (the script's own
 * messages, the agent's, an ssh warning) is passed on as it is to {@code other}.
 */
final class HostOutput implements OutputPump.Sink {
    /** Control lines of the script (the marker, exit reports), or null for a standard error. */
    interface Control {
        void started();

        void exited(int pe, int status);
    }

    /** A line longer than this without a newline is not the script's: passed on in parts. */
    private static final int MAX_LINE_BYTES = 64 * 1024;

    private final Map<Integer, OutputPump.Sink> sinks;
    private final PrintStream other;
    private final Control control;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    /**
     * @param pes     the host's PEs
     * @param sinkFor each PE's sink for this stream
     */
    HostOutput(Iterable<Integer> pes, IntFunction<OutputPump.Sink> sinkFor, PrintStream other, Control control) {
        Map<Integer, OutputPump.Sink> map = new java.util.LinkedHashMap<>();
        for (int pe : pes) {
            map.put(pe, sinkFor.apply(pe));
        }
        this.sinks = map;
        this.other = other;
        this.control = control;
    }

    @Override
    public void bytes(byte[] buffer, int offset, int length) {
        int start = offset;
        int end = offset + length;
        for (int i = offset; i < end; i++) {
            if (buffer[i] == '\n') {
                line.write(buffer, start, i - start);
                line(line.toByteArray(), true);
                line.reset();
                start = i + 1;
            }
        }
        line.write(buffer, start, end - start);
        if (line.size() > MAX_LINE_BYTES) {
            passOn(line.toByteArray(), false);
            line.reset();
        }
    }

    @Override
    public void end() {
        if (line.size() > 0) {
            line(line.toByteArray(), false);
            line.reset();
        }
        for (OutputPump.Sink sink : sinks.values()) {
            sink.end();
        }
    }

    private void line(byte[] bytes, boolean newline) {
        if (bytes.length > 1 && bytes[0] == '@') {
            int i = 1;
            int pe = 0;
            while (i < bytes.length && i < 11 && bytes[i] >= '0' && bytes[i] <= '9') {
                pe = pe * 10 + (bytes[i] - '0');
                i++;
            }
            boolean piece = i < bytes.length && bytes[i] == '+';
            int text = piece ? i + 2 : i + 1;
            OutputPump.Sink sink = i > 1 && text <= bytes.length && bytes[text - 1] == ' ' ? sinks.get(pe) : null;
            if (sink != null) {
                int n = bytes.length - text;
                if (piece || !newline) {
                    sink.bytes(bytes, text, n);
                } else {
                    byte[] withNewline = new byte[n + 1];
                    System.arraycopy(bytes, text, withNewline, 0, n);
                    withNewline[n] = '\n';
                    sink.bytes(withNewline, 0, n + 1);
                }
                return;
            }
        }
        if (control != null && newline) {
            String s = new String(bytes, StandardCharsets.ISO_8859_1);
            if (s.equals(RemoteCommand.STARTED_MARKER)) {
                control.started();
                return;
            }
            if (s.startsWith(RemoteCommand.EXIT_MARKER + " ")) {
                String[] words = s.split(" ");
                if (words.length == 3 && words[1].matches("\\d{1,9}") && words[2].matches("\\d{1,3}")
                        && sinks.containsKey(Integer.parseInt(words[1]))) {
                    control.exited(Integer.parseInt(words[1]), Integer.parseInt(words[2]));
                    return;
                }
            }
        }
        passOn(bytes, newline);
    }

    private void passOn(byte[] bytes, boolean newline) {
        byte[] out = bytes;
        if (newline) {
            out = new byte[bytes.length + 1];
            System.arraycopy(bytes, 0, out, 0, bytes.length);
            out[bytes.length] = '\n';
        }
        other.write(out, 0, out.length);
        other.flush();
    }
}
