package io.jshmem.core.launcher;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Copies one PE output stream to the launcher's, prefixing each line with {@code [PE k] }
 * (--tag-output). Works on bytes, so any encoding passes through. Each batch of complete lines goes
 * out in one locked write, so lines of different PEs never interleave mid-line.
 */
final class OutputForwarder implements Runnable {
    /** A line longer than this is cut and emitted in parts rather than buffered without bound. */
    private static final int MAX_LINE_BYTES = 64 * 1024;

    private final byte[] prefix;
    private final InputStream in;
    private final PrintStream out;
    private final ByteArrayOutputStream partialLine = new ByteArrayOutputStream();
    private final ByteArrayOutputStream batch = new ByteArrayOutputStream();

    private OutputForwarder(int pe, InputStream in, PrintStream out) {
        this.prefix = ("[PE " + pe + "] ").getBytes(StandardCharsets.US_ASCII);
        this.in = in;
        this.out = out;
    }

    /** Starts forwarding on a daemon thread, which ends at end of stream. */
    static Thread start(int pe, InputStream in, PrintStream out, String streamName) {
        return Thread.ofPlatform().daemon().name("oshrun-pe" + pe + "-" + streamName)
                .start(new OutputForwarder(pe, in, out));
    }

    @Override
    public void run() {
        byte[] buffer = new byte[8192];
        try (in) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                split(buffer, n);
                emit();
            }
        } catch (IOException e) {
            // The PE's end of the pipe is gone; forward what we have.
        }
        if (partialLine.size() > 0) {
            endLine();
            emit();
        }
    }

    private void split(byte[] buffer, int length) {
        int start = 0;
        for (int i = 0; i < length; i++) {
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
        batch.writeBytes(prefix);
        batch.writeBytes(partialLine.toByteArray());
        batch.write('\n');
        partialLine.reset();
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
