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
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints jshmem's diagnostics once for all the PEs that printed them, as Open MPI does with its own
 * help and error messages, instead of once per PE: a too-large heap at 20 PEs was 2 lines per PE
 * and a 9-line stack trace from each, over 200 lines saying one thing.
 *
 * <p>What is aggregated, from the PEs' standard error only: jshmem's own lines
 * ({@code jshmem: PE k: ...}, see the runtime's {@code Log}) and the JVM's report of an uncaught
 * exception ({@code Exception in thread "..." ...} with its {@code at}/{@code Caused by} lines).
 * Lines that differ only in the PE's own number ({@code PE k}) are one message: it is printed once,
 * with the PE's number replaced by the list ({@code jshmem: PEs 0-19: ...}), when every PE has
 * printed it, when no other PE has joined for {@value #QUIET_MILLIS} ms, or at the end of the job.
 * A message from one PE is printed as it was. A stack trace whose exception message repeats a
 * jshmem line becomes one line naming the exception and the PEs: jshmem's line already said why.
 *
 * <p>Everything else (standard output, and any other standard error line) is passed on at once
 * and untouched, so a program's own output keeps its order; a partial line (a prompt) too, unless
 * it may be the start of one of those messages. oshrun --no-aggregate (or --tag-output) shows every
 * PE's lines as they come.
 */
final class MessageAggregator {
    /** A message is printed once no other PE has printed it for this long. */
    static final long QUIET_MILLIS = 1_500;
    /** A stack trace has ended when its PE printed nothing more for this long (or another line). */
    private static final long TRACE_END_MILLIS = 300;
    private static final long TICK_MILLIS = 100;
    /** A line longer than this is passed on in parts rather than buffered without bound. */
    private static final int MAX_LINE_BYTES = 64 * 1024;

    private static final String DIAGNOSTIC = "jshmem: PE ";
    private static final String UNCAUGHT = "Exception in thread \"";
    /** Stands for the PE's own number in a message's key. */
    private static final String SELF = "PE \u0001";
    private static final Pattern DIAGNOSTIC_LINE = Pattern.compile("jshmem: PE (\\d+): .*");

    private final int npes;
    private final PrintStream err;
    /** Messages not printed yet, in the order they first appeared. Guarded by this. */
    private final Map<String, Message> pending = new LinkedHashMap<>();
    /** jshmem lines seen (their key without "jshmem: "), for stack traces that repeat one. Guarded by this. */
    private final Set<String> explained = new HashSet<>();
    /** Per PE, its stack trace being read. Guarded by this. */
    private final Trace[] traces;
    private final Thread ticker;
    private volatile boolean closed;

    MessageAggregator(int npes, PrintStream err) {
        this.npes = npes;
        this.err = err;
        this.traces = new Trace[npes];
        this.ticker = Thread.ofPlatform().daemon().name("oshrun-messages").start(this::tick);
    }

    /** Starts reading PE {@code pe}'s standard error on a daemon thread, which ends at end of stream. */
    Thread startReader(int pe, InputStream in) {
        return Thread.ofPlatform().daemon().name("oshrun-pe" + pe + "-stderr").start(() -> read(pe, in));
    }

    /** Prints whatever is still held (the job is over, its PEs' streams read). */
    void close() {
        closed = true;
        ticker.interrupt();
        synchronized (this) {
            for (int pe = 0; pe < npes; pe++) {
                endTrace(pe);
            }
            flush(true, System.nanoTime());
        }
    }

    private void tick() {
        while (!closed) {
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            long now = System.nanoTime();
            synchronized (this) {
                for (int pe = 0; pe < npes; pe++) {
                    if (traces[pe] != null && now - traces[pe].last > TRACE_END_MILLIS * 1_000_000) {
                        endTrace(pe);
                    }
                }
                flush(false, now);
            }
        }
    }

    // ------------------------------------------------------------------ reading a PE's stream

    private void read(int pe, InputStream in) {
        OutputPump.Sink sink = sink(pe);
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                sink.bytes(buffer, 0, n);
            }
        } catch (IOException e) {
            // the PE's end is gone: what was read is handled below
        }
        sink.end();
    }

    /** Takes PE {@code pe}'s standard error as it comes (from oshrun's {@link OutputPump}, or {@link #startReader}). */
    OutputPump.Sink sink(int pe) {
        return new OutputPump.Sink() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();
            private boolean passing; // the start of the current line was passed on already

            @Override
            public void bytes(byte[] buffer, int offset, int length) {
                int start = offset;
                int n = offset + length;
                for (int i = offset; i < n; i++) {
                    if (buffer[i] == '\n') {
                        if (passing) {
                            pass(buffer, start, i + 1 - start);
                        } else {
                            line.write(buffer, start, i - start);
                            line(pe, line.toByteArray());
                        }
                        line.reset();
                        passing = false;
                        start = i + 1;
                    }
                }
                if (passing) {
                    pass(buffer, start, n - start);
                } else {
                    line.write(buffer, start, n - start);
                    if (line.size() > 0 && (line.size() >= MAX_LINE_BYTES || !mayBeMessage(pe, line))) {
                        byte[] partial = line.toByteArray();
                        pass(partial, 0, partial.length);
                        line.reset();
                        passing = true;
                    }
                }
            }

            @Override
            public void end() {
                if (line.size() > 0) {
                    line(pe, line.toByteArray());
                }
                synchronized (MessageAggregator.this) {
                    endTrace(pe);
                    flush(false, System.nanoTime());
                }
            }
        };
    }

    /** Whether the partial line may still become a message that is held (so it must wait for its end). */
    private synchronized boolean mayBeMessage(int pe, ByteArrayOutputStream partial) {
        if (traces[pe] != null) {
            return true;
        }
        String s = partial.toString(StandardCharsets.ISO_8859_1);
        return compatible(s, DIAGNOSTIC) || compatible(s, UNCAUGHT);
    }

    private static boolean compatible(String partial, String prefix) {
        return partial.length() <= prefix.length() ? prefix.startsWith(partial) : partial.startsWith(prefix);
    }

    private void pass(byte[] bytes, int from, int length) {
        if (length > 0) {
            err.write(bytes, from, length); // holds the stream's lock for the whole array
            err.flush();
        }
    }

    /** One complete line of PE {@code pe} (without its newline). */
    private synchronized void line(int pe, byte[] bytes) {
        // ISO-8859-1 maps every byte to one char and back: the line is printed as it came.
        String s = new String(bytes, StandardCharsets.ISO_8859_1);
        long now = System.nanoTime();
        Trace trace = traces[pe];
        if (trace != null) {
            if (s.startsWith("\t") || s.startsWith("Caused by: ")) {
                trace.lines.add(s);
                trace.last = now;
                return;
            }
            endTrace(pe);
        }
        if (s.startsWith(UNCAUGHT)) {
            traces[pe] = new Trace(s, now);
            return;
        }
        Matcher m = DIAGNOSTIC_LINE.matcher(s);
        if (m.matches() && m.group(1).equals(Integer.toString(pe))) {
            String key = normalize(s, pe);
            explained.add(key.substring("jshmem: ".length()));
            add(pe, key, List.of(s), false, now);
            return;
        }
        byte[] withNewline = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, withNewline, 0, bytes.length);
        withNewline[bytes.length] = '\n';
        pass(withNewline, 0, withNewline.length);
    }

    private void endTrace(int pe) {
        Trace trace = traces[pe];
        if (trace == null) {
            return;
        }
        traces[pe] = null;
        StringBuilder key = new StringBuilder();
        for (String l : trace.lines) {
            key.append(normalize(l, pe)).append('\n');
        }
        add(pe, key.toString(), trace.lines, true, trace.last);
    }

    /** {@code line} with the PE's own number ("PE 7", not "PE 70") replaced by {@link #SELF}. */
    static String normalize(String line, int pe) {
        return line.replaceAll("\\bPE " + pe + "(?!\\d)", Matcher.quoteReplacement(SELF));
    }

    private void add(int pe, String key, List<String> lines, boolean trace, long now) {
        Message m = pending.get(key);
        if (m == null) {
            m = new Message(key, List.copyOf(lines), trace, now);
            pending.put(key, m);
        }
        m.pes.set(pe);
        m.lastJoined = now;
        if (m.pes.cardinality() == npes) {
            flush(false, now);
        }
    }

    // ------------------------------------------------------------------ printing

    /** Prints the messages that are complete (every PE, or quiet for long enough), or all of them. */
    private void flush(boolean all, long now) {
        List<Message> ready = new ArrayList<>();
        for (Message m : pending.values()) {
            if (all || m.pes.cardinality() == npes || now - m.lastJoined >= QUIET_MILLIS * 1_000_000) {
                ready.add(m);
            }
        }
        if (ready.isEmpty()) {
            return;
        }
        ready.sort(Comparator.comparingLong(m -> m.firstSeen));
        StringBuilder out = new StringBuilder();
        for (Message m : ready) {
            pending.remove(m.key);
            render(m, out);
        }
        byte[] bytes = out.toString().getBytes(StandardCharsets.ISO_8859_1);
        pass(bytes, 0, bytes.length);
    }

    private void render(Message m, StringBuilder out) {
        List<String> keyLines = m.key.lines().toList();
        boolean one = m.pes.cardinality() == 1;
        String who = one ? "PE " + m.pes.nextSetBit(0) : "PEs " + ranges(m.pes);
        int because = m.trace ? explainedAt(keyLines.get(0)) : -1;
        if (because >= 0) {
            // The exception carries the message jshmem's line already printed: name it, not again.
            out.append(keyLines.get(0), 0, because).append(" on ").append(who)
                    .append(": as jshmem's message above says (its stack trace: oshrun --no-aggregate)\n");
            return;
        }
        for (int i = 0; i < m.lines.size(); i++) {
            String line = keyLines.get(i);
            if (one) {
                line = m.lines.get(i);
            } else if (line.contains(SELF)) {
                line = line.replace(SELF, who);
            } else if (i == 0) {
                line = "[" + who + "] " + line;
            }
            out.append(line).append('\n');
        }
    }

    /**
     * Where an exception's first line ({@code Exception in thread "main" Class: PE k: why}) starts
     * the text of a jshmem line ({@code PE k: why}), or -1.
     */
    private int explainedAt(String header) {
        for (String text : explained) {
            if (header.endsWith(": " + text)) {
                return header.length() - text.length() - 2;
            }
        }
        return -1;
    }

    /** "0-3,5,7-9". */
    static String ranges(BitSet pes) {
        StringBuilder b = new StringBuilder();
        for (int start = pes.nextSetBit(0); start >= 0; ) {
            int end = pes.nextClearBit(start) - 1;
            b.append(b.isEmpty() ? "" : ",").append(start);
            if (end > start) {
                b.append('-').append(end);
            }
            start = pes.nextSetBit(end + 1);
        }
        return b.toString();
    }

    /** One message: its key (the lines with the PE's number normalized), the first PE's lines, who printed it. */
    private static final class Message {
        final String key;
        final List<String> lines;
        final boolean trace;
        final long firstSeen;
        final BitSet pes = new BitSet();
        long lastJoined;

        Message(String key, List<String> lines, boolean trace, long firstSeen) {
            this.key = key;
            this.lines = lines;
            this.trace = trace;
            this.firstSeen = firstSeen;
        }
    }

    /** A PE's uncaught exception report being read. */
    private static final class Trace {
        final List<String> lines = new ArrayList<>();
        long last;

        Trace(String header, long now) {
            lines.add(header);
            last = now;
        }
    }
}
