/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The JDK's Runtime.exit record, read back (the job-level behaviour is EndingMessagesTest's). */
class ExitStatusTest {
    @Test
    void readsTheStatusFromTheJdksMessage() {
        assertEquals(3, ExitStatus.parse("Runtime.exit() called with status: 3"));
        assertEquals(143, ExitStatus.parse("Runtime.exit() called with status: 143"));
        assertEquals(-1, ExitStatus.parse("Runtime.exit() called with status: -1"));
    }

    @Test
    void ignoresOtherMessages() {
        assertNull(ExitStatus.parse(null));
        assertNull(ExitStatus.parse("something else: 3"));
        assertNull(ExitStatus.parse("Runtime.exit() called with status: three"));
    }

    @Test
    void watchesUnderTheJdksDefaultLogging() {
        ExitStatus.watch();
        assertTrue(ExitStatus.watching(), "JUL is the backend of this test JVM");
        assertEquals(ExitStatus.UNKNOWN, ExitStatus.get(), "no exit yet");
    }
}
