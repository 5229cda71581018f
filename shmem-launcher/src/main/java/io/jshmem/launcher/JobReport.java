/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import java.io.IOException;
import java.util.List;

/**
 * {@code oshrun --jfr --report}: runs shmem-report on the job's recordings once the job has ended,
 * also after a failed job ({@code --partial}: the PEs that wrote a recording are shown, the others
 * are named as missing). shmem-report is a module of its own that shmem-core does not depend on; it is on
 * oshrun's class path in the source tree and the binary distribution. It runs in a JVM of its own
 * with the full JIT: a dense run's recordings hold millions of events, which the launcher's C1-only
 * JVM reads at about half the speed. The job's exit status stays the job's: a report that fails
 * says why on stderr.
 */
final class JobReport {
    static final String MAIN = "io.jshmem.report.ShmemReport";

    private JobReport() {
    }

    static void write(String jfrDir, String jobId) {
        if (ClassLoader.getSystemResource(MAIN.replace('.', '/') + ".class") == null) {
            System.err.println("oshrun: --report needs shmem-report (" + MAIN + "), which is not on oshrun's class path:"
                    + " build the shmem-report module, or use the binary distribution");
            return;
        }
        String java = Launcher.java();
        List<String> command = List.of(java, "-XX:+UseSerialGC", "-XX:-UsePerfData", "-cp", System.getProperty("java.class.path"),
                MAIN, "--partial", "--job", jobId, jfrDir);
        try {
            int status = new ProcessBuilder(command).inheritIO().start().waitFor();
            if (status != 0) {
                System.err.println("oshrun: --report: shmem-report exited with status " + status);
            }
        } catch (IOException e) {
            System.err.println("oshrun: --report: cannot run shmem-report: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
