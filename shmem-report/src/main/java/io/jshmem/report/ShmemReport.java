/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code shmem-report}: a job's flight recordings ({@code oshrun --jfr}) as one self-contained HTML
 * page. Also run by {@code oshrun --jfr --report} when the job ends (through {@link #run}).
 */
public final class ShmemReport {
    /** Exit statuses. */
    static final int OK = 0;
    static final int BAD_INPUT = 1;
    static final int USAGE = 2;

    private ShmemReport() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /**
     * Runs the command with {@code args}; returns its exit status: 0 written, 1 missing, foreign,
     * truncated or mixed recordings (or the page could not be written), 2 a usage mistake.
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Path output = null;
        String job = null;
        boolean quiet = false;
        boolean partial = false;
        List<Path> inputs = new ArrayList<>();
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "-h", "--help" -> {
                        out.print(help());
                        return OK;
                    }
                    case "-o", "--output" -> output = Path.of(value(args, ++i, a, "a file"));
                    case "--job" -> job = value(args, ++i, a, "a job id");
                    case "-q", "--quiet" -> quiet = true;
                    case "--partial" -> partial = true;
                    case "--" -> {
                        for (i++; i < args.length; i++) {
                            inputs.add(Path.of(args[i]));
                        }
                    }
                    default -> {
                        if (a.startsWith("-")) {
                            throw new IllegalArgumentException("unknown option " + a);
                        }
                        inputs.add(Path.of(a));
                    }
                }
            }
            if (inputs.isEmpty()) {
                throw new IllegalArgumentException("missing the recordings: a directory (oshrun --jfr-dir, default ./jshmem-jfr) or .jfr files");
            }
        } catch (IllegalArgumentException e) {
            err.println("shmem-report: " + e.getMessage());
            err.println("see shmem-report --help");
            return USAGE;
        }
        try {
            Recordings.Job recorded = Recordings.read(inputs, job, partial);
            for (String note : recorded.notes()) {
                err.println("shmem-report: warning: " + note);
            }
            Page page = new Page(recorded);
            String html = page.html();
            if (output == null) {
                Path dir = inputs.size() == 1 && Files.isDirectory(inputs.get(0)) ? inputs.get(0) : Path.of(".");
                output = dir.resolve(recorded.id() + "-report.html");
            }
            if (!Files.exists(output, LinkOption.NOFOLLOW_LINKS)) {
                // As private as the recordings it is made of (0600): it names the job's hosts, paths and settings.
                Files.createFile(output, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            }
            Files.writeString(output, html, StandardCharsets.UTF_8);
            if (!quiet) {
                out.println("shmem-report: " + output + " (" + Units.bytes(Files.size(output)) + "): job " + recorded.id()
                        + ", " + recorded.pes().size() + " PEs, " + Units.seconds(recorded.spanNanos()) + ". "
                        + page.late().summary());
            }
            return OK;
        } catch (ReportException e) {
            err.println("shmem-report: " + e.getMessage());
            return BAD_INPUT;
        } catch (IOException e) {
            err.println("shmem-report: cannot write " + output + ": " + e.getMessage());
            return BAD_INPUT;
        }
    }

    private static String value(String[] args, int i, String option, String what) {
        if (i >= args.length || args[i].isEmpty()) {
            throw new IllegalArgumentException(option + " needs " + what);
        }
        return args[i];
    }

    static String help() {
        return """
                Usage: shmem-report [-o FILE] [--job ID] [-q] DIR|FILE...
                Turns the flight recordings of a jshmem job (oshrun --jfr) into one HTML page that
                needs no network to view: a timeline with a lane per PE (zoom with the wheel, pan by
                dragging, hover for an event's fields), the PE that arrived last at each barrier and
                collective and how long the others waited for it, a PE x PE traffic matrix of large
                puts and gets, per routine and PE the count, total time, p50 and p99, and the job's
                settings and hosts. oshrun --jfr --report runs it when the job ends.

                  DIR                 a directory of recordings (<job id>-pe<N>.jfr, as oshrun --jfr-dir)
                  FILE                recordings given one by one (all of one job)
                  -o, --output FILE   write the page there (default: DIR/<job id>-report.html,
                                      or ./<job id>-report.html for files; a new
                                      file is made 0600, like the recordings)
                  --job ID            the job to report when DIR holds recordings of several
                  --partial           report a failed job: a PE whose recording is missing or
                                      unreadable gets an empty lane and a warning (here and on
                                      the page) instead of an error (oshrun --report does this)
                  -q, --quiet         print nothing when the page is written
                  -h, --help          print this help and exit

                Exit status: 0 the page was written; 1 missing, foreign, truncated or mixed recordings
                (the message names the file; with --partial only when no PE's is readable), or the
                page could not be written; 2 a usage mistake.
                """;
    }
}
