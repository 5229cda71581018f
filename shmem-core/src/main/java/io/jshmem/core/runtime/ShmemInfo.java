/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.runtime;

import io.jshmem.ForkSafetyReport;
import io.jshmem.ShmemVersion;
import io.jshmem.core.base.Config;
import io.jshmem.core.base.Settings;
import io.jshmem.core.forksafety.ForkSafety;

/** {@code bin/shmem-info}: prints the version, the specification version, transports and settings. */
public final class ShmemInfo {
    private ShmemInfo() {
    }

    /** The --version line, as oshrun's: {@code shmem-info (jshmem 0.1.0), OpenSHMEM 1.6}. */
    static String version() {
        return "shmem-info (jshmem " + ShmemVersion.JSHMEM_VERSION + "), OpenSHMEM "
                + ShmemVersion.SPEC_MAJOR + "." + ShmemVersion.SPEC_MINOR;
    }

    public static void main(String[] args) {
        boolean all = false;
        boolean parsable = false;
        for (String a : args) {
            switch (a) {
                case "-h", "--help" -> {
                    System.out.println("""
                            usage: shmem-info [--all] [--parsable] | --version
                              Prints jshmem's version, the OpenSHMEM version it implements, its transports
                              and devices, the settings the SHMEM_* and JSHMEM_* environment variables give,
                              then whether fork() is safe in this process, and why (Shmem.forkSafety()).
                              --parsable  the same as section:key:value lines (version:, path:prefix:,
                                          setting:<VARIABLE>:, setting_source:<VARIABLE>: default,
                                          environment or property, heap:, transport:<name>:), one fact
                                          a line, for scripts and bug reports; only the last field, the
                                          value, may hold colons
                              --all       with --parsable, also each network device
                                          (transport:<name>:device:<transport>:<devices>) and each fork-safety
                                          finding (forksafety:finding:<name>:<safe|risk|neutral>:<value>);
                                          the readable report always shows everything
                              -V, --version  only the version line: shmem-info (jshmem VERSION), OpenSHMEM X.Y""");
                    return;
                }
                case "-V", "--version" -> {
                    System.out.println(version());
                    return;
                }
                case "-a", "--all" -> all = true;
                case "-p", "--parsable", "--parseable" -> parsable = true;
                default -> {
                    System.err.println("shmem-info: unknown option " + a + " (see shmem-info --help)");
                    System.exit(2);
                }
            }
        }
        try {
            Settings settings = Settings.system();
            Config config = Config.from(settings);
            ForkSafetyReport forkSafety = ForkSafety.beforeInit(settings.environment());
            if (parsable) {
                ParsableInfo.lines(config, settings, forkSafety, all).forEach(System.out::println);
            } else {
                InfoReport.settings(config, settings).forEach(System.out::println);
                InfoReport.forkSafety(forkSafety).forEach(System.out::println);
            }
        } catch (RuntimeException e) {
            System.err.println("shmem-info: " + e.getMessage());
            System.exit(1);
        }
    }
}
