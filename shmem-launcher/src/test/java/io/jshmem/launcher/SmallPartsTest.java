/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link OutputForwarder} and {@link ExitStatus}. */
class SmallPartsTest {
    @Test
    void forwarderPrefixesEveryLineIncludingAnUnterminatedLastOne() throws InterruptedException {
        assertEquals("[PE 3] one\n[PE 3] \n[PE 3] twø\n[PE 3] partial\n", forward(3, "one\n\ntwø\npartial"));
    }

    @Test
    void forwarderCutsOverlongLines() throws InterruptedException {
        String line = "x".repeat(64 * 1024 + 10);
        String out = forward(0, line + "\n");
        assertEquals("[PE 0] " + "x".repeat(64 * 1024) + "\n[PE 0] " + "x".repeat(10) + "\n", out);
    }

    private static String forward(int pe, String input) throws InterruptedException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(sink, true, StandardCharsets.UTF_8);
        OutputForwarder.start(pe, new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), out, "test")
                .join();
        return sink.toString(StandardCharsets.UTF_8);
    }

    @Test
    void exitCodesAreDescribed() {
        assertEquals("exited with status 3", ExitStatus.describe(3));
        assertEquals("exited with status 0", ExitStatus.describe(0));
        assertEquals("was killed by signal 9 (SIGKILL)", ExitStatus.describe(137));
        assertEquals("was killed by signal 15 (SIGTERM)", ExitStatus.describe(143));
        assertEquals("was killed by signal 11 (SIGSEGV)", ExitStatus.describe(139));
    }

    @Test
    void statusesBecomeExitCodesWithoutTurningFailureIntoSuccess() {
        assertEquals(0, ExitStatus.toExitCode(0));
        assertEquals(7, ExitStatus.toExitCode(7));
        assertEquals(255, ExitStatus.toExitCode(-1));
        assertEquals(1, ExitStatus.toExitCode(256));
        assertEquals(44, ExitStatus.toExitCode(300));
    }
}
