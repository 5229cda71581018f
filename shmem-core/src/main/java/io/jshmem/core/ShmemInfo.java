package io.jshmem.core;

import io.jshmem.core.forksafety.ForkSafety;

/** {@code bin/shmem-info}: prints the version, the specification version, transports and settings. */
public final class ShmemInfo {
    private ShmemInfo() {
    }

    public static void main(String[] args) {
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help")) {
                System.out.println("usage: shmem-info\n  Prints jshmem's version, the OpenSHMEM version it implements, its transports,\n"
                        + "  and the settings the SHMEM_* environment variables give (SHMEM_SYMMETRIC_SIZE,\n"
                        + "  SHMEM_DEBUG, SHMEM_INFO, SHMEM_VERSION).");
                System.out.println("  Then whether fork() is safe in this process, and why (Shmem.forkSafety()).");
                return;
            }
            System.err.println("shmem-info: unknown option " + a + " (see shmem-info --help)");
            System.exit(2);
        }
        try {
            InfoReport.settings(Config.fromEnvironment(System.getenv()), System.getenv()).forEach(System.out::println);
            InfoReport.forkSafety(ForkSafety.beforeInit(System.getenv())).forEach(System.out::println);
        } catch (RuntimeException e) {
            System.err.println("shmem-info: " + e.getMessage());
            System.exit(1);
        }
    }
}
