/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CloseSite tells a close() on an exception's way out from an ordinary one, from the caller's bytecode. */
class CloseSiteTest {
    /** Records, at each close(), what CloseSite says (it looks past this close method to its caller). */
    private static final class Resource implements AutoCloseable {
        final List<Boolean> seen = new ArrayList<>();

        @Override
        public void close() {
            seen.add(CloseSite.unwinding());
        }
    }

    @Test
    void classFilesAreReadFromTheirJarOrDirectoryOrThroughTheLoader() throws IOException {
        // a directory (test-classes), a jar (JUnit's), the JDK (no code source: through the loader)
        for (Class<?> c : List.of(CloseSiteTest.class, Test.class, String.class)) {
            byte[] expected;
            try (InputStream in = c.getResourceAsStream("/" + c.getName().replace('.', '/') + ".class")) {
                expected = in.readAllBytes();
            }
            assertArrayEquals(expected, CloseSite.classFile(c), c.getName());
        }
    }

    @Test
    void tryWithResources() {
        Resource r = new Resource();
        try (Resource x = r) {
            x.seen.size();
        }
        assertThrows(IllegalStateException.class, () -> {
            try (Resource x = r) {
                throw new IllegalStateException("unwinding");
            }
        });
        assertEquals(List.of(false, true), r.seen);
    }

    @Test
    void finallyBlocks() {
        Resource r = new Resource();
        try {
            r.seen.size();
        } finally {
            r.close();
        }
        try {
            throw new IllegalArgumentException("unwinding");
        } catch (IllegalArgumentException e) {
            r.close(); // a handled exception: an ordinary close
        } finally {
            r.close();
        }
        assertThrows(IllegalStateException.class, () -> {
            try {
                throw new IllegalStateException("unwinding");
            } finally {
                r.close();
            }
        });
        assertEquals(List.of(false, false, false, true), r.seen);
    }

    @Test
    void anExceptionCaughtAsThrowable() {
        Resource r = new Resource();
        try {
            throw new UncheckedIOException(new IOException("x"));
        } catch (Throwable t) {
            r.close();
        }
        assertEquals(List.of(true), r.seen);
    }
}
