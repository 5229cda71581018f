/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads a job's recordings ({@code <job id>-pe<N>.jfr}, as {@code oshrun --jfr} writes them) and
 * checks that they are one whole job: every message names the file or directory at fault.
 */
final class Recordings {
    /** oshrun's file names: job id, PE, and the generation after a re-initialization. */
    private static final Pattern NAME = Pattern.compile("([a-z0-9]+)-pe(\\d+)(?:-g(\\d+))?\\.jfr");
    /** The first bytes of every JFR file. */
    private static final byte[] MAGIC = {'F', 'L', 'R', 0};

    /**
     * The job: its id, PEs (index = PE number), the span of its events in ns, and with
     * {@code partial} what was left out (a PE without a readable recording has an empty one).
     */
    record Job(String id, List<PeRecording> pes, long spanNanos, long startEpochNanos, List<String> notes) {
        Job(String id, List<PeRecording> pes, long spanNanos, long startEpochNanos) {
            this(id, pes, spanNanos, startEpochNanos, List.of());
        }
    }

    private Recordings() {
    }

    /**
     * Reads the recordings named by {@code inputs} (directories of recordings, or files) of job
     * {@code jobId} (null: the only job there).
     */
    static Job read(List<Path> inputs, String jobId) throws ReportException {
        return read(inputs, jobId, false);
    }

    /**
     * As {@link #read(List, String)}; with {@code partial} a PE whose recording is missing or
     * unreadable (a failed job) is a note and an empty lane instead of an error, as long as one PE's
     * recording is readable.
     */
    static Job read(List<Path> inputs, String jobId, boolean partial) throws ReportException {
        Map<String, Map<Integer, Path>> jobs = new TreeMap<>();
        for (Path input : inputs) {
            if (Files.isDirectory(input)) {
                int found = 0;
                try (DirectoryStream<Path> dir = Files.newDirectoryStream(input, "*.jfr")) {
                    for (Path f : dir) {
                        found += add(jobs, f, false) ? 1 : 0;
                    }
                } catch (IOException e) {
                    throw new ReportException(input + ": cannot list the directory: " + e.getMessage(), e);
                }
                if (found == 0) {
                    throw new ReportException(input + ": no recordings of a jshmem job (<job id>-pe<N>.jfr) in this directory;"
                            + " record one with oshrun --jfr --jfr-dir " + input);
                }
            } else if (Files.isRegularFile(input)) {
                add(jobs, input, true);
            } else if (Files.exists(input)) {
                // A FIFO or a device would be read for ever (JFR's parser waits for its end).
                throw new ReportException(input + ": not a regular file (a recording is a .jfr file)");
            } else {
                throw new ReportException(input + ": no such file or directory");
            }
        }
        String id = chooseJob(jobs, jobId, inputs);
        Map<Integer, Path> files = jobs.get(id);
        int npes = files.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        List<String> notes = new ArrayList<>();
        List<PeRecording> pes = readAll(id, files, partial ? notes : null);
        int recordedNpes = pes.stream().mapToInt(p -> intOr(p.env().get("JSHMEM_NPES"), npes)).max().orElse(npes);
        List<String> missing = new ArrayList<>();
        for (int pe = 0; pe < recordedNpes; pe++) {
            if (!files.containsKey(pe)) {
                missing.add(id + "-pe" + pe + ".jfr");
            }
        }
        if (!missing.isEmpty()) {
            Path where = files.values().iterator().next().toAbsolutePath().getParent();
            String message = where + ": job " + id + " had " + recordedNpes + " PEs but there is no recording of "
                    + (missing.size() == 1 ? "" : missing.size() + " of them: ") + String.join(", ", missing.subList(0, Math.min(8, missing.size())))
                    + (missing.size() > 8 ? ", ..." : "") + " (a PE that was killed writes none)";
            if (!partial) {
                throw new ReportException(message);
            }
            notes.add(message);
        }
        // the PEs without a readable recording: empty lanes
        java.util.Set<Integer> read = new java.util.HashSet<>();
        pes.forEach(p -> read.add(p.pe()));
        for (int pe = 0; pe < Math.max(recordedNpes, npes); pe++) {
            if (!read.contains(pe)) {
                pes.add(new PeRecording(pe, files.get(pe), "?", Map.of(), List.of(), Long.MAX_VALUE));
            }
        }
        return rebase(id, pes, notes);
    }

    /** Adds a file to its job; false for a .jfr file in a directory that oshrun did not name (left out). */
    private static boolean add(Map<String, Map<Integer, Path>> jobs, Path f, boolean named) throws ReportException {
        Matcher m = NAME.matcher(f.getFileName().toString());
        if (!m.matches()) {
            if (named) {
                throw new ReportException(f + ": not a recording of a jshmem PE by its name (oshrun --jfr writes <job id>-pe<N>.jfr)");
            }
            return false;
        }
        if (m.group(3) != null) {
            // A re-initialization's recording: a separate run of the library with its own teams and
            // sequences; the report is of the first (documented in docs/user-guide.md).
            return false;
        }
        Path before = jobs.computeIfAbsent(m.group(1), k -> new TreeMap<>()).put(Integer.parseInt(m.group(2)), f);
        if (before != null && !before.equals(f)) {
            throw new ReportException(f + ": PE " + m.group(2) + " of job " + m.group(1) + " is given twice (also " + before + ")");
        }
        return true;
    }

    private static String chooseJob(Map<String, Map<Integer, Path>> jobs, String jobId, List<Path> inputs) throws ReportException {
        if (jobId != null) {
            if (!jobs.containsKey(jobId)) {
                throw new ReportException(describe(inputs) + ": no recordings of job " + jobId + " (found: "
                        + (jobs.isEmpty() ? "none" : String.join(", ", jobs.keySet())) + ")");
            }
            return jobId;
        }
        if (jobs.isEmpty()) {
            throw new ReportException(describe(inputs) + ": no recordings of a jshmem job (<job id>-pe<N>.jfr)");
        }
        if (jobs.size() > 1) {
            // newest first, with its time: oshrun's default directory collects every job's recordings
            List<String> ids = new ArrayList<>(jobs.keySet());
            ids.sort(Comparator.comparing((String id) -> newest(jobs.get(id))).reversed());
            StringBuilder s = new StringBuilder();
            for (String id : ids) {
                Map<Integer, Path> files = jobs.get(id);
                s.append(s.isEmpty() ? "" : ", ").append(id).append(" (").append(files.size()).append(files.size() == 1 ? " PE" : " PEs")
                        .append(", ").append(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
                                .format(java.time.LocalDateTime.ofInstant(newest(files), java.time.ZoneId.systemDefault())))
                        .append(')');
            }
            throw new ReportException(describe(inputs) + ": recordings of " + jobs.size() + " jobs: " + s
                    + "; choose one with --job ID");
        }
        return jobs.keySet().iterator().next();
    }

    /** When the newest of a job's recordings was written (the epoch when none can be read). */
    private static Instant newest(Map<Integer, Path> files) {
        Instant newest = Instant.EPOCH;
        for (Path f : files.values()) {
            try {
                Instant t = Files.getLastModifiedTime(f).toInstant();
                newest = t.isAfter(newest) ? t : newest;
            } catch (IOException e) {
                // unreadable: its message comes when it is read
            }
        }
        return newest;
    }

    private static String describe(List<Path> inputs) {
        return inputs.size() == 1 ? inputs.get(0).toString() : inputs.toString();
    }

    /** Reads the files on a few threads (a file is read sequentially). */
    /** With {@code notes}, a file that cannot be read is a note instead of an error (unless none can). */
    private static List<PeRecording> readAll(String id, Map<Integer, Path> files, List<String> notes) throws ReportException {
        int threads = Math.max(1, Math.min(files.size(), Runtime.getRuntime().availableProcessors()));
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "shmem-report-reader");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<PeRecording>> futures = new ArrayList<>();
            for (var e : files.entrySet()) {
                futures.add(pool.submit(() -> readOne(id, e.getKey(), e.getValue())));
            }
            List<PeRecording> pes = new ArrayList<>();
            for (Future<PeRecording> f : futures) {
                try {
                    pes.add(f.get());
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof ReportException r) {
                        if (notes == null || notes.size() + 1 == files.size()) {
                            throw r; // nothing to report without one readable recording
                        }
                        notes.add(r.getMessage());
                        continue;
                    }
                    throw new ReportException("cannot read a recording: " + e.getCause(), e.getCause());
                }
            }
            return pes;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReportException("interrupted while reading the recordings", e);
        } finally {
            pool.shutdownNow();
        }
    }

    /** One PE's recording, with absolute times (epoch ns). */
    static PeRecording readOne(String id, int pe, Path file) throws ReportException {
        checkMagic(file);
        Map<String, String> env = new TreeMap<>();
        List<Op> ops = new ArrayList<>();
        Map<String, String> strings = new HashMap<>();
        boolean jshmemEvent = false;
        String host = null;
        long first = Long.MAX_VALUE;
        long recordingStart = Long.MAX_VALUE;
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                String type = e.getEventType().getName();
                long start = nanos(e.getStartTime());
                recordingStart = Math.min(recordingStart, start);
                if (type.equals("jdk.InitialEnvironmentVariable")) {
                    String key = e.getString("key");
                    if (key != null && (key.startsWith("JSHMEM_") || key.startsWith("SHMEM_")) && !key.contains("SECRET")) {
                        env.put(key, e.getString("value"));
                    }
                    continue;
                }
                if (type.equals("jshmem.Host")) {
                    host = e.getString("host");
                    continue;
                }
                Kind kind = Kind.of(type);
                if (kind == null) {
                    continue;
                }
                jshmemEvent = true;
                first = Math.min(first, start);
                ops.add(new Op(kind, intern(strings, string(e, "routine", kind.label())), intern(strings, string(e, "team", null)),
                        number(e, "sequence"), start, e.getDuration().toNanos(), number(e, "bytes"),
                        e.hasField("pe") ? e.getInt("pe") : -1, intern(strings, string(e, "algorithm", null))));
            }
        } catch (IOException | RuntimeException e) {
            throw new ReportException(file + ": truncated or corrupt flight recording (" + e.getMessage()
                    + "); was the PE killed while writing it?", e);
        }
        String recordedJob = env.get("JSHMEM_JOBID");
        if (recordedJob == null && !jshmemEvent) {
            throw new ReportException(file + ": a flight recording, but not of a jshmem PE (no JSHMEM_JOBID in its"
                    + " environment, no jshmem events); record jobs with oshrun --jfr");
        }
        if (recordedJob != null && !recordedJob.equals(id)) {
            throw new ReportException(file + ": the recording of a PE of job " + recordedJob + ", not of job " + id
                    + " as its name says (renamed, or files of different jobs mixed?)");
        }
        String recordedPe = env.get("JSHMEM_PE");
        if (recordedPe != null && !recordedPe.equals(Integer.toString(pe))) {
            throw new ReportException(file + ": the recording of PE " + recordedPe + ", not of PE " + pe + " as its name says");
        }
        ops.sort(Comparator.comparingLong(Op::start));
        // the host's name (jshmem.Host, from jshmem 0.1.0) or else its node number in the job
        String node = host != null ? host : env.containsKey("JSHMEM_NODE") ? "node " + env.get("JSHMEM_NODE") : "?";
        return new PeRecording(pe, file, node, env, ops,
                first == Long.MAX_VALUE ? recordingStart : first);
    }

    private static void checkMagic(Path file) throws ReportException {
        byte[] head = new byte[MAGIC.length];
        int n;
        try (InputStream in = Files.newInputStream(file)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (NoSuchFileException e) {
            throw new ReportException(file + ": no such file");
        } catch (IOException e) {
            throw new ReportException(file + ": cannot read: " + e.getMessage(), e);
        }
        if (n == 0) {
            throw new ReportException(file + ": empty: the PE ended before it wrote its recording (killed?)");
        }
        if (n < MAGIC.length || !java.util.Arrays.equals(head, MAGIC)) {
            throw new ReportException(file + ": not a JDK Flight Recorder file");
        }
    }

    /** Times relative to the job's first event, PEs by number. */
    private static Job rebase(String id, List<PeRecording> pes, List<String> notes) {
        long base = pes.stream().mapToLong(PeRecording::firstNanos).min().orElse(0);
        long end = 0;
        List<PeRecording> out = new ArrayList<>();
        for (PeRecording p : pes) {
            List<Op> ops = new ArrayList<>(p.ops().size());
            for (Op o : p.ops()) {
                Op r = new Op(o.kind(), o.routine(), o.team(), o.sequence(), o.start() - base, o.duration(), o.bytes(),
                        o.target(), o.algorithm());
                ops.add(r);
                end = Math.max(end, r.end());
            }
            out.add(new PeRecording(p.pe(), p.file(), p.node(), p.env(), ops, p.ops().isEmpty() ? 0 : p.firstNanos() - base));
        }
        out.sort(Comparator.comparingInt(PeRecording::pe));
        return new Job(id, out, end, base, List.copyOf(notes));
    }

    /** The set of nodes of the job, in order. */
    static List<String> nodes(Job job) {
        return new ArrayList<>(new TreeSet<>(job.pes().stream().map(PeRecording::node).toList()));
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    private static String string(RecordedEvent e, String field, String otherwise) {
        String s = e.hasField(field) ? e.getString(field) : null;
        return s != null ? s : otherwise;
    }

    private static long number(RecordedEvent e, String field) {
        return e.hasField(field) ? e.getLong(field) : 0;
    }

    private static String intern(Map<String, String> strings, String s) {
        return s == null ? null : strings.computeIfAbsent(s, k -> k);
    }

    private static int intOr(String s, int otherwise) {
        try {
            return s == null ? otherwise : Integer.parseInt(s.strip());
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
