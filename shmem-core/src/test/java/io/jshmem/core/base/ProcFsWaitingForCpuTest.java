/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ProcFs#waitingForCpu}: runnable and not stopped, from each thread's state in /proc/PID/task. */
class ProcFsWaitingForCpuTest {
    @TempDir
    Path proc;

    private void thread(long pid, int tid, char state) throws IOException {
        Path dir = Files.createDirectories(proc.resolve(pid + "/task/" + tid));
        // Fields 3 to 22 of a stat line; the command name holds a space and parentheses, as a JVM's may.
        Files.writeString(dir.resolve("stat"), tid + " (java (x) y) " + state + " 1 " + "0 ".repeat(17) + "1234\n");
    }

    @Test
    void aProcessWithARunnableThreadAndNoneStoppedIsWaitingForACpu() throws IOException {
        thread(10, 10, 'S');
        thread(10, 11, 'R');
        thread(10, 12, 'S');
        assertTrue(new ProcFs(proc).waitingForCpu(10));
    }

    @Test
    void aStoppedOrSleepingOrMissingProcessIsNot() throws IOException {
        thread(20, 20, 'T'); // SIGSTOP stops every thread
        thread(20, 21, 'T');
        thread(21, 21, 'S'); // blocked, not starved
        thread(21, 22, 'D');
        thread(22, 22, 'R'); // a runnable thread beside a traced one: stopped in a debugger
        thread(22, 23, 't');
        ProcFs fs = new ProcFs(proc);
        assertFalse(fs.waitingForCpu(20));
        assertFalse(fs.waitingForCpu(21));
        assertFalse(fs.waitingForCpu(22));
        assertFalse(fs.waitingForCpu(99)); // no such process
    }

    @Test
    void thisTestsOwnJvmIsReadFromTheRealProc() {
        // This thread is running while it asks, so at least one thread of this JVM is in state R.
        assertTrue(ProcFs.SYSTEM.waitingForCpu(ProcessHandle.current().pid()));
    }
}
