/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.base;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The few {@code /proc} files the subprocess guard reads, under an injectable root so that tests can
 * describe a process tree with plain files ({@code <root>/<pid>/stat}, {@code environ},
 * {@code cmdline}, {@code maps}, and {@code <root>/uptime}). Every read of another process may fail
 * (it exited, or belongs to another user): that gives an empty result, never an exception.
 *
 * <p>Plain loops, no regular expression or lambda: this runs at every init, before anything else
 * has loaded those.
 */
public final class ProcFs {
    /** The real /proc. */
    public static final ProcFs SYSTEM = new ProcFs(Path.of("/proc"));
    /** Linux reports process start times in USER_HZ ticks, 100 per second on every architecture jshmem runs on. */
    public static final long TICKS_PER_SECOND = 100;

    private final Path root;

    public ProcFs(Path root) {
        this.root = root;
    }

    /**
     * This process's id, from {@code /proc/self}; else {@link ProcessHandle}, whose first use sets up
     * the JDK's process reaper (a few milliseconds of every PE's start, for a number).
     */
    public static long selfPid() {
        try {
            return Long.parseLong(Files.readSymbolicLink(Path.of("/proc/self")).toString());
        } catch (IOException | RuntimeException e) {
            return ProcessHandle.current().pid();
        }
    }

    public Path root() {
        return root;
    }

    /**
     * The fields of {@code /proc/<pid>/stat} the guard uses.
     *
     * @param startTicks when the process was created, in ticks since boot (field 22)
     */
    public record Stat(long pid, String comm, char state, long ppid, long startTicks) {
    }

    public Optional<Stat> stat(long pid) {
        return stat(pid, file(pid, "stat"));
    }

    /** A stat file of process {@code pid}: its own, or one of its threads' ({@code task/TID/stat}). */
    private Optional<Stat> stat(long pid, Path statFile) {
        byte[] b = readBytes(statFile);
        return b == null ? Optional.empty() : parseStat(pid, new String(b, StandardCharsets.UTF_8));
    }

    /**
     * Whether process {@code pid} is alive and waiting for a CPU rather than stopped: some thread of it
     * is runnable ({@code R}) and none is stopped ({@code T}, {@code t}). A PE that sent nothing for a
     * while on a machine with far more runnable threads than cores is starved, not gone.
     */
    public boolean waitingForCpu(long pid) {
        boolean runnable = false;
        try (var tasks = Files.newDirectoryStream(file(pid, "task"))) {
            for (Path task : tasks) {
                Optional<Stat> st = stat(pid, task.resolve("stat"));
                if (st.isEmpty()) {
                    continue; // the thread ended meanwhile
                }
                char state = st.get().state();
                if (state == 'T' || state == 't') {
                    return false;
                }
                runnable |= state == 'R';
            }
        } catch (IOException | RuntimeException e) {
            return false; // gone, or not ours to read
        }
        return runnable;
    }

    /** Parses a stat line; the command name (field 2) is in parentheses and may hold spaces and parentheses. */
    public static Optional<Stat> parseStat(long pid, String s) {
        int open = s.indexOf('(');
        int close = s.lastIndexOf(')');
        if (open < 0 || close < open) {
            return Optional.empty();
        }
        // Fields from 3 (state) on, separated by single spaces: we need 3, 4 (ppid) and 22 (starttime).
        List<String> f = words(s.substring(close + 1), 20);
        if (f.size() < 20) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Stat(pid, s.substring(open + 1, close), f.get(0).charAt(0), Long.parseLong(f.get(1)),
                    Long.parseLong(f.get(19))));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The environment the process was started with, or empty if it cannot be read. */
    public Optional<Map<String, String>> environ(long pid) {
        byte[] b = readBytes(file(pid, "environ"));
        return b == null ? Optional.empty() : Optional.of(parseEnviron(b));
    }

    public static Map<String, String> parseEnviron(byte[] bytes) {
        Map<String, String> env = new HashMap<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == 0) {
                if (i > start) {
                    String entry = new String(bytes, start, i - start, StandardCharsets.UTF_8);
                    int eq = entry.indexOf('=');
                    if (eq > 0) {
                        env.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
                    }
                }
                start = i + 1;
            }
        }
        return env;
    }

    /** The command line, arguments separated by spaces, or empty if it cannot be read. */
    public Optional<String> cmdline(long pid) {
        byte[] b = readBytes(file(pid, "cmdline"));
        if (b == null) {
            return Optional.empty();
        }
        String s = new String(b, StandardCharsets.UTF_8).replace('\0', ' ').strip();
        return s.isEmpty() ? Optional.empty() : Optional.of(s);
    }

    /** The path column of every mapping that has one (e.g. {@code /dev/shm/jshmem-ab12-0 (deleted)}). */
    public Optional<List<String>> mappedPaths(long pid) {
        byte[] b = readBytes(file(pid, "maps"));
        if (b == null) {
            return Optional.empty();
        }
        List<String> paths = new ArrayList<>();
        for (String line : new String(b, StandardCharsets.UTF_8).split("\n")) {
            // address perms offset dev inode [path]: the path starts after the fifth field's spaces.
            int i = 0;
            for (int field = 0; field < 5 && i >= 0; field++) {
                i = skipSpaces(line, i);
                i = line.indexOf(' ', i);
            }
            if (i < 0) {
                continue;
            }
            String path = line.substring(skipSpaces(line, i)).strip();
            if (!path.isEmpty()) {
                paths.add(path);
            }
        }
        return Optional.of(paths);
    }

    /** Ticks since boot now, from {@code uptime} (the clock process start times use), or -1. */
    public long uptimeTicks() {
        byte[] b = readBytes(root.resolve("uptime"));
        return b == null ? -1L : parseUptime(new String(b, StandardCharsets.US_ASCII));
    }

    /** "12345.67 ..." (seconds, two decimals) to ticks; -1 if malformed. */
    public static long parseUptime(String s) {
        String first = s.strip();
        int space = first.indexOf(' ');
        if (space >= 0) {
            first = first.substring(0, space);
        }
        int dot = first.indexOf('.');
        try {
            long seconds = Long.parseLong(dot < 0 ? first : first.substring(0, dot));
            String frac = dot < 0 ? "00" : (first.substring(dot + 1) + "00").substring(0, 2);
            return (seconds * 100 + Long.parseLong(frac)) * TICKS_PER_SECOND / 100;
        } catch (NumberFormatException e) {
            return -1L;
        }
    }

    private Path file(long pid, String name) {
        return root.resolve(Long.toString(pid)).resolve(name);
    }

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && s.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    /** The first {@code max} space-separated words of {@code s}. */
    private static List<String> words(String s, int max) {
        List<String> w = new ArrayList<>(max);
        int i = skipSpaces(s, 0);
        while (i < s.length() && w.size() < max) {
            int end = i;
            while (end < s.length() && s.charAt(end) != ' ' && s.charAt(end) != '\n') {
                end++;
            }
            w.add(s.substring(i, end));
            i = skipSpaces(s, end);
        }
        return w;
    }

    private static byte[] readBytes(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException | SecurityException e) {
            return null;
        }
    }
}
