/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.core.launcher;

import io.jshmem.core.bootstrap.LaunchEnv;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How a PE on another host is started: the launch agent runs {@code /bin/sh -s} there
 * ({@code <agent words...> <host> /bin/sh -s}), and oshrun writes the PE's start script to the
 * agent's standard input, then keeps that pipe open for the life of the PE.
 *
 * <p>Why a script on standard input rather than {@code env VAR=... java ...} as arguments:
 * <ul>
 * <li>Agents disagree on arguments: ssh joins them into one string for the remote shell, docker exec
 *     passes them as they are. {@code /bin/sh -s} means the same to both, and the script is read
 *     verbatim, so no value needs agent-specific quoting.
 * <li>The job secret stays out of every command line ({@code ps} shows arguments to all users) and out of
 *     the PE's environment: the script writes it (with the shell's builtin printf, under umask 077) to
 *     a file of mode 0600 in a new directory of mode 0700 there, whose path it exports as
 *     {@link LaunchEnv#SECRET_FILE}; the PE deletes the file once read, the script the directory once
 *     the PE has ended.
 * <li>The open pipe is the PE's lifeline. Killing the agent does not kill the remote process (with
 *     docker exec it survives; with ssh it does unless it reads or writes a closed stream), but the
 *     remote end of the pipe does see end-of-file when oshrun closes it, dies, or the agent dies.
 *     The script runs the PE in the background with a watchdog reading the pipe: at end-of-file it
 *     sends SIGTERM to the PE, then SIGKILL after 2 s. So the remote PE dies with its job, even when
 *     oshrun is killed with SIGKILL.
 * </ul>
 * The script first prints {@link #STARTED_MARKER} on standard output (oshrun swallows it): its
 * absence tells an agent that failed (unreachable host, or an agent that does not pass standard
 * input on, such as docker exec without -i) from a PE that ran. The script's exit status is the
 * PE's (128+n if a signal killed it). After the PE ends it removes the PE's shared-memory segment,
 * in case the PE was killed before unlinking it (oshrun sweeps only its own machine's).
 */
final class RemoteCommand {
    /** The first line of a remote PE's standard output. */
    static final String STARTED_MARKER = "jshmem-remote-pe-started";
    /** Seconds between SIGTERM and SIGKILL, on the remote host. */
    static final int REMOTE_KILL_GRACE_SECONDS = 2;

    /**
     * Variables of oshrun's environment that remote PEs get as local PEs do (they inherit all of it):
     * jshmem's and OpenSHMEM's settings. Anything else needs -x.
     */
    private static final Pattern FORWARDED = Pattern.compile("(SHMEM|JSHMEM)_[A-Za-z0-9_]*");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private RemoteCommand() {
    }

    /** The local command: {@code agent... host /bin/sh -s}. */
    static List<String> agentCommand(List<String> agent, String host) {
        List<String> command = new ArrayList<>(agent);
        command.add(host);
        command.add("/bin/sh");
        command.add("-s");
        return command;
    }

    /**
     * The environment a remote PE gets: jshmem and OpenSHMEM settings from oshrun's environment,
     * then the -x variables, then the job's variables for this PE.
     */
    static Map<String, String> environment(Map<String, String> launcherEnv, Map<String, String> exported,
                                           Map<String, String> jobVariables) {
        Map<String, String> env = new LinkedHashMap<>();
        launcherEnv.entrySet().stream()
                .filter(e -> FORWARDED.matcher(e.getKey()).matches())
                .filter(e -> !LaunchEnv.JOB_VARIABLES.contains(e.getKey()) && !e.getKey().equals(LaunchEnv.JAVA_OPTS))
                .sorted(Map.Entry.comparingByKey())
                .forEach(e -> env.put(e.getKey(), e.getValue()));
        env.putAll(exported);
        env.putAll(jobVariables);
        return env;
    }

    /**
     * The start script for one remote PE: one brace group, so the shell has read all of it before
     * running any of it (nothing it runs can then consume script text from standard input).
     *
     * @param command    the PE's java command line, valid on the remote host
     * @param env        the variables to export
     * @param workDir    directory to run in if it exists there (else /)
     * @param segment    file name of the PE's shared-memory segment, removed after the PE ends
     * @param secretHex  the job secret, in hex, for the PE's secret file
     * @param secretDir  name of the new directory for that file, in the first writable of
     *                   {@code $XDG_RUNTIME_DIR}, {@code /dev/shm}, {@code $TMPDIR} or {@code /tmp}
     */
    static String script(List<String> command, Map<String, String> env, String workDir, String segment,
                         String secretHex, String secretDir) {
        StringBuilder s = new StringBuilder();
        s.append("{\n");
        // fd 3 keeps the pipe from oshrun: the PE's lifeline, read only by the watchdog.
        s.append("exec 3<&0\n");
        s.append("echo ").append(STARTED_MARKER).append('\n');
        s.append("cd ").append(quote(workDir)).append(" 2>/dev/null || cd /\n");
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (!NAME.matcher(e.getKey()).matches()) {
                throw new IllegalArgumentException("not a variable name: " + e.getKey());
            }
            s.append("export ").append(e.getKey()).append('=').append(quote(e.getValue())).append('\n');
        }
        // The recordings' directory (oshrun --jfr), JFR's repository too: private, made before the JVM makes it.
        s.append("if [ -n \"${JSHMEM_JFR:-}\" ] && [ -n \"${JSHMEM_JFR_DIR:-}\" ]; then")
                .append(" (umask 077 && mkdir -p \"$JSHMEM_JFR_DIR\") 2>/dev/null; fi\n");
        // The secret: a builtin (no process whose arguments ps would show), in a subshell (the PE keeps the umask).
        s.append("jshmem_secret_dir=\n");
        s.append("for jshmem_base in \"${XDG_RUNTIME_DIR:-}\" /dev/shm \"${TMPDIR:-/tmp}\"; do")
                .append(" if [ -n \"$jshmem_base\" ] && [ -d \"$jshmem_base\" ] && [ -w \"$jshmem_base\" ]; then")
                .append(" jshmem_secret_dir=\"$jshmem_base\"/").append(quote(secretDir)).append("; break; fi; done\n");
        s.append("if [ -z \"$jshmem_secret_dir\" ] || ! (umask 077 && mkdir \"$jshmem_secret_dir\" && printf '%s\\n' ")
                .append(quote(secretHex)).append(" > \"$jshmem_secret_dir/secret\"); then")
                .append(" echo \"jshmem: cannot write the job secret's file in a new directory $jshmem_secret_dir on $(uname -n)\" >&2;")
                .append(" exit 1; fi\n");
        s.append("export ").append(LaunchEnv.SECRET_FILE).append("=\"$jshmem_secret_dir/secret\"\n");
        for (String word : command) {
            s.append(quote(word)).append(' ');
        }
        s.append("0</dev/null 3<&- &\n");
        s.append("jshmem_pe=$!\n");
        // The watchdog: at end-of-file, SIGTERM; SIGKILL if the PE still lives after the grace.
        s.append("{ while read -r _; do :; done; kill -TERM $jshmem_pe 2>/dev/null; i=0; while [ $i -lt ")
                .append(REMOTE_KILL_GRACE_SECONDS * 10)
                .append(" ] && kill -0 $jshmem_pe 2>/dev/null; do sleep 0.1; i=$((i+1)); done;")
                .append(" kill -KILL $jshmem_pe 2>/dev/null; } 0<&3 >/dev/null 2>&1 &\n");
        s.append("jshmem_watchdog=$!\n");
        s.append("exec 3<&-\n");
        s.append("wait $jshmem_pe 2>/dev/null\n"); // no "Terminated"/"Killed" from the shell: oshrun reports

        s.append("jshmem_status=$?\n");
        s.append("kill $jshmem_watchdog 2>/dev/null\n");
        s.append("rm -f \"${JSHMEM_SHM_DIR:-/dev/shm}\"/").append(quote(segment)).append('\n');
        s.append("rm -rf \"$jshmem_secret_dir\"\n"); // the PE's file, if it never read it, and the directory
        s.append("exit $jshmem_status\n");
        s.append("}\n");
        return s.toString();
    }

    /** One word for a POSIX shell: single quotes, each ' as '\''. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    /** The agent and host, for messages: {@code "ssh node2"}. */
    static String describeAgent(List<String> agent, String host) {
        return String.join(" ", agent) + " " + host;
    }
}
