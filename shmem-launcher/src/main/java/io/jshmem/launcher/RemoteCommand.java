/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.core.base.LaunchEnv;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * How the PEs on another host are started: the launch agent runs {@code /bin/sh -s} there
 * ({@code <agent words...> <host> /bin/sh -s}), once per host, and oshrun writes the start script
 * of all the host's PEs ({@link #hostScript}) to the agent's standard input, then keeps that pipe
 * open for the life of the PEs.
 *
 * <p>Why a script on standard input rather than {@code env VAR=... java ...} as arguments:
 * <ul>
 * <li>Agents disagree on arguments: ssh joins them into one string for the remote shell, docker exec
 *     passes them as they are. {@code /bin/sh -s} means the same to both, and the script is read
 *     verbatim, so no value needs agent-specific quoting.
 * <li>The job secret stays out of every command line ({@code ps} shows arguments to all users) and out of
 *     the PEs' environment: the script writes it (with the shell's builtin printf, under umask 077) to
 *     one file of mode 0600 per PE in a new directory of mode 0700 there, whose path it exports as
 *     {@link LaunchEnv#SECRET_FILE}; each PE deletes its file once read, the script the directory once
 *     the PEs have ended.
 * <li>The open pipe is the host's lifeline. Killing the agent does not kill the remote processes (with
 *     docker exec they survive; with ssh they do unless they read or write a closed stream), but the
 *     remote end of the pipe does see end-of-file when oshrun closes it, dies, or the agent dies.
 *     The script runs the PEs in the background with a watchdog reading the pipe: at end-of-file it
 *     sends SIGTERM to the PEs, then SIGKILL after 2 s. So the remote PEs die with their job, even when
 *     oshrun is killed with SIGKILL.
 * <li>One agent per host, not per PE (issue 35): a job on H hosts costs H ssh sessions and H local
 *     agent processes, whatever the PEs per host.
 * </ul>
 * The script first prints {@link #STARTED_MARKER} on standard output (oshrun swallows it): its
 * absence tells an agent that failed (unreachable host, or an agent that does not pass standard
 * input on, such as docker exec without -i) from PEs that ran. It then reports each PE's exit
 * status (128+n if a signal killed it) in a line of its own, and after each PE ends removes its
 * shared-memory segment, in case the PE was killed before unlinking it (oshrun sweeps only its own
 * machine's).
 */
final class RemoteCommand {
    /** The first line of a host script's standard output. */
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

    /** What the host script prints on its standard output when one of its PEs has ended: {@code <marker> <pe> <status>}. */
    static final String EXIT_MARKER = "jshmem-remote-pe-exit";
    /** Longest piece of a PE's line the host script sends in one line; a longer line goes as continuations. */
    static final int MAX_PIECE = 2000;

    /** One PE of a host script: its number and the variables to export for it. */
    record HostPe(int pe, Map<String, String> env) {
    }

    /**
     * The start script for all the PEs of one host (issue 35: one launch agent per host, not per PE).
     * It keeps every property of the per-PE script it replaces: read whole before it runs (one brace
     * group, so nothing it runs can consume script text from standard input); the
     * {@link #STARTED_MARKER} first; the secret in 0600 files (one per PE) in a new 0700 directory,
     * written with the shell's printf, never on a command line; the lifeline (at end-of-file of its
     * standard input, SIGTERM to every PE of the host, SIGKILL after {@link #REMOTE_KILL_GRACE_SECONDS});
     * each PE's segment removed after it ends; the directory removed at the end. In addition:
     * <ul>
     * <li>Output is multiplexed: each PE writes to two FIFOs in the private directory, and an awk per
     *     FIFO copies its lines to the script's standard output or error, each prefixed with
     *     {@code @<pe> } (a piece of a line longer than {@value #MAX_PIECE} bytes with {@code @<pe>+ },
     *     meaning "no newline here", so every write stays under the pipe's atomic size and lines of
     *     different PEs never mix). oshrun's {@link HostOutput} takes them apart again. (awk ends an
     *     unterminated last line with a newline.)
     * <li>Each PE runs under a subshell that waits for it and then prints
     *     {@code jshmem-remote-pe-exit <pe> <status>} (128+n for signal n): oshrun's {@link RemotePe}
     *     for that PE exits with that status, so the PE that died is named with its status or signal
     *     while its host's other PEs run on.
     * <li>The watchdog finds the PEs' pids in files of the directory; a PE started after the lifeline
     *     ended (a file "ending" there) gets its SIGTERM from its own subshell.
     * </ul>
     *
     * @param command   the PEs' java command line, valid on the host
     * @param pes       the host's PEs and the variables each gets
     * @param workDir   directory to run in if it exists there (else /)
     * @param jobId     the job's id, which names the PEs' shared-memory segments (removed after each PE ends)
     * @param secretHex the job secret, in hex, for the PEs' secret files
     * @param secretDir name of the new directory for those files, in the first writable of
     *                  {@code $XDG_RUNTIME_DIR}, {@code /dev/shm}, {@code $TMPDIR} or {@code /tmp}
     */
    static String hostScript(List<String> command, List<HostPe> pes, String workDir, String jobId, String secretHex,
                             String secretDir) {
        StringBuilder s = new StringBuilder();
        s.append("{\n");
        s.append("exec 3<&0\n");
        s.append("echo ").append(STARTED_MARKER).append('\n');
        s.append("cd ").append(quote(workDir)).append(" 2>/dev/null || cd /\n");
        s.append("jshmem_dir=\n");
        s.append("for jshmem_base in \"${XDG_RUNTIME_DIR:-}\" /dev/shm \"${TMPDIR:-/tmp}\"; do")
                .append(" if [ -n \"$jshmem_base\" ] && [ -d \"$jshmem_base\" ] && [ -w \"$jshmem_base\" ]; then")
                .append(" jshmem_dir=\"$jshmem_base\"/").append(quote(secretDir)).append("; break; fi; done\n");
        s.append("if [ -z \"$jshmem_dir\" ] || ! (umask 077 && mkdir \"$jshmem_dir\"");
        for (HostPe pe : pes) {
            s.append(" && printf '%s\\n' ").append(quote(secretHex)).append(" > \"$jshmem_dir/secret-").append(pe.pe())
                    .append('"');
        }
        s.append("); then echo \"jshmem: cannot write the job secret's files in a new directory $jshmem_dir on $(uname -n)\" >&2;")
                .append(" exit 1; fi\n");
        s.append("jshmem_pids() { cat \"$jshmem_dir\"/pid-* 2>/dev/null; }\n");
        s.append("jshmem_alive() { for p in $(jshmem_pids); do kill -0 $p 2>/dev/null && return 0; done; return 1; }\n");
        // The line copier: every line of a PE's stream, prefixed, each in one write of under 4 KiB (atomic
        // on a pipe: ORS is empty and the line one string). mawk reads a FIFO by filling its whole buffer
        // unless -W interactive (line-buffered input, unbuffered output: hence one string a line).
        s.append("case \"$(awk -W version 2>&1 </dev/null)\" in mawk*) jshmem_awk='awk -W interactive' ;;")
                .append(" *) jshmem_awk=awk ;; esac\n");
        s.append("jshmem_copy() { LC_ALL=C $jshmem_awk -v p=\"@$1\" 'BEGIN { ORS = \"\" } { while (length($0) > ")
                .append(MAX_PIECE).append(") { print (p \"+ \" substr($0, 1, ").append(MAX_PIECE)
                .append(") \"\\n\"); fflush(); $0 = substr($0, ").append(MAX_PIECE + 1)
                .append(") } print (p \" \" $0 \"\\n\"); fflush() }'; }\n");
        s.append("jshmem_subshells=\n");
        for (HostPe pe : pes) {
            int k = pe.pe();
            String out = "\"$jshmem_dir/out-" + k + "\"";
            String err = "\"$jshmem_dir/err-" + k + "\"";
            s.append("(\n");
            for (Map.Entry<String, String> e : pe.env().entrySet()) {
                if (!NAME.matcher(e.getKey()).matches()) {
                    throw new IllegalArgumentException("not a variable name: " + e.getKey());
                }
                s.append("export ").append(e.getKey()).append('=').append(quote(e.getValue())).append('\n');
            }
            s.append("if [ -n \"${JSHMEM_JFR:-}\" ] && [ -n \"${JSHMEM_JFR_DIR:-}\" ]; then")
                    .append(" (umask 077 && mkdir -p \"$JSHMEM_JFR_DIR\") 2>/dev/null; fi\n");
            s.append("export ").append(LaunchEnv.SECRET_FILE).append("=\"$jshmem_dir/secret-").append(k).append("\"\n");
            s.append("mkfifo ").append(out).append(' ').append(err).append(" || exit 1\n");
            s.append("jshmem_copy ").append(k).append(" < ").append(out).append(" &\n");
            s.append("jshmem_copy ").append(k).append(" < ").append(err).append(" >&2 &\n");
            for (String word : command) {
                s.append(quote(word)).append(' ');
            }
            s.append("0</dev/null >").append(out).append(" 2>").append(err).append(" &\n");
            s.append("jshmem_pe=$!\n");
            s.append("echo $jshmem_pe > \"$jshmem_dir/pid-").append(k).append("\"\n");
            s.append("if [ -e \"$jshmem_dir/ending\" ]; then kill -TERM $jshmem_pe 2>/dev/null; fi\n");
            s.append("wait $jshmem_pe 2>/dev/null\n");
            s.append("jshmem_status=$?\n");
            s.append("rm -f \"${JSHMEM_SHM_DIR:-/dev/shm}\"/").append(quote("jshmem-" + jobId + "-" + k)).append('\n');
            s.append("echo ").append(EXIT_MARKER).append(' ').append(k).append(" $jshmem_status\n");
            // Then the copiers' last lines: the script, whose end may end the agent, ends after them.
            s.append("wait\n");
            s.append(") 3<&- &\n");
            s.append("jshmem_subshells=\"$jshmem_subshells $!\"\n");
        }
        // The watchdog: at end-of-file, SIGTERM to every PE; SIGKILL to those alive after the grace; then
        // the directory, also when the script itself was killed (its own cleanup below is then lost).
        s.append("{ while read -r _; do :; done; : > \"$jshmem_dir/ending\"; kill -TERM $(jshmem_pids) 2>/dev/null; i=0;")
                .append(" while [ $i -lt ").append(REMOTE_KILL_GRACE_SECONDS * 10)
                .append(" ] && jshmem_alive; do sleep 0.1; i=$((i+1)); done;")
                .append(" kill -KILL $(jshmem_pids) 2>/dev/null; sleep 0.5; rm -rf \"$jshmem_dir\"; } 0<&3 >/dev/null 2>&1 &\n");
        s.append("jshmem_watchdog=$!\n");
        s.append("exec 3<&-\n");
        s.append("wait $jshmem_subshells 2>/dev/null\n");
        s.append("kill $jshmem_watchdog 2>/dev/null\n");
        s.append("rm -rf \"$jshmem_dir\"\n"); // the secret files of PEs that never read theirs, the FIFOs, the pid files
        s.append("exit 0\n");
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
