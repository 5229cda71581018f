/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.bootstrap;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;

/** Counts the bytes read through it; read by other threads, hence atomic. */
final class CountingInputStream extends FilterInputStream {
    private final AtomicLong count = new AtomicLong();

    CountingInputStream(InputStream in) {
        super(in);
    }

    long count() {
        return count.get();
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        if (b >= 0) {
            count.incrementAndGet();
        }
        return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n > 0) {
            count.addAndGet(n);
        }
        return n;
    }
}
