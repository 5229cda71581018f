/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.logging;

import io.jshmem.core.base.Settings;
import java.io.IOException;
import java.util.Map;
import java.util.logging.FileHandler;
import java.util.logging.LogManager;

/**
 * A {@code java.util.logging} file handler with one file per PE: {@code %p} in its pattern is the
 * PE's number, so PE 3 writes {@code jshmem-pe3.log}.
 *
 * <p>Why: JUL's {@code FileHandler} has no PE in its pattern. {@code %u} is its own counter, unique
 * only among the files open at that moment on the machine, so with one handler per PE JVM PE 2 may
 * well write {@code jshmem-pe3.log}. This handler takes the PE's number from the environment the
 * launcher gives the PE before {@code Shmem.init} (so it works for messages logged before init too):
 * {@code JSHMEM_PE} (oshrun), else the rank of PMIx ({@code PMIX_RANK}), PMI-2 ({@code PMI_RANK}),
 * Slurm ({@code SLURM_PROCID}) or Open MPI ({@code OMPI_COMM_WORLD_RANK}), else 0 (plain
 * {@code java}: a job of one PE).
 *
 * <p>Configured like {@code FileHandler}, under its own name: {@code io.jshmem.logging.PeFileHandler.pattern}
 * (default {@code jshmem-pe%p.log}; JUL's {@code %t}, {@code %h}, {@code %g}, {@code %u} still work),
 * {@code .append} (default false), {@code .level}, {@code .formatter}, {@code .encoding}.
 */
public final class PeFileHandler extends FileHandler {
    /** The pattern when the configuration gives none. */
    public static final String DEFAULT_PATTERN = "jshmem-pe%p.log";

    /** Environment variables holding the PE number (rank), the first set one wins. */
    private static final String[] RANK_VARIABLES = {"JSHMEM_PE", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID",
            "OMPI_COMM_WORLD_RANK"};

    /**
     * Opens this PE's file (JUL calls this for a handler named in a logging configuration).
     *
     * @throws IOException if the file cannot be opened
     */
    public PeFileHandler() throws IOException {
        super(pattern(property("pattern", DEFAULT_PATTERN), Settings.systemEnvironment()),
                Boolean.parseBoolean(property("append", "false").strip()));
    }

    private static String property(String name, String otherwise) {
        String v = LogManager.getLogManager().getProperty(PeFileHandler.class.getName() + "." + name);
        return v == null || v.isBlank() ? otherwise : v.strip();
    }

    /**
     * {@code pattern} with each {@code %p} replaced by the PE number found in {@code env}; JUL's own
     * tokens ({@code %%} included) are left for {@code FileHandler}.
     *
     * @param pattern the configured pattern
     * @param env the PE's environment
     * @return the pattern for {@code FileHandler}
     */
    static String pattern(String pattern, Map<String, String> env) {
        String pe = "0";
        for (String name : RANK_VARIABLES) {
            String v = env.get(name);
            if (v != null && v.strip().matches("\\d+")) {
                pe = v.strip();
                break;
            }
        }
        StringBuilder b = new StringBuilder(pattern.length() + 8);
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '%' && i + 1 < pattern.length()) {
                char next = pattern.charAt(++i);
                if (next == 'p') {
                    b.append(pe);
                } else {
                    b.append(c).append(next);   // %% and JUL's tokens stay as they are
                }
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
