/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.conformance;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes whole lines to standard output with one write(2) each, so that the lines of PEs sharing
 * the launcher's stdout pipe never interleave (a pipe write of up to 4096 bytes is atomic).
 */
public final class Out {
    private static final int MAX_LINE = 3_500;
    private static final FileOutputStream STDOUT = new FileOutputStream(FileDescriptor.out);

    private Out() {
    }

    /** Prints {@code text} (made one line, shortened if very long) followed by a newline. */
    public static synchronized void line(String text) {
        String s = text.replace('\n', ' ').replace('\r', ' ');
        if (s.length() > MAX_LINE) {
            s = s.substring(0, MAX_LINE) + "...";
        }
        System.out.flush();
        try {
            STDOUT.write((s + "\n").getBytes(StandardCharsets.UTF_8));
            STDOUT.flush();
        } catch (IOException e) {
            // stdout is gone: nothing to report to.
        }
    }
}
