/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.launcher;

import io.jshmem.ShmemVersion;
import io.jshmem.core.base.LaunchEnv;
import io.jshmem.core.base.Setting;
import io.jshmem.core.base.SettingsReference;
import io.jshmem.core.bootstrap.BootstrapProtocol;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The parsed oshrun command line. Options come first; the first non-option (the main class) or
 * {@code -jar app.jar} ends them, and everything after belongs to the program.
 *
 * @param action         what to do: run the job, or print help or the version
 * @param npes           number of PEs (-np)
 * @param classpath      the program's class path (-cp), or null if not given
 * @param tagOutput      prefix output lines with {@code [PE k]}
 * @param exportedEnv    variables set for every PE (-x), in command-line order
 * @param timeoutSeconds end the job after this many seconds (--timeout), 0 for never
 * @param jvmOptions     options for every PE's JVM (--jvm-opt)
 * @param mainClass      the program's main class, or null if {@code jar} is given
 * @param jar            the program's jar (-jar), or null if {@code mainClass} is given
 * @param programArgs    the program's arguments
 * @param hosts          the hosts to run on (--host, --hostfile), empty for this machine only
 * @param oversubscribe  allow more PEs than the hosts' slots (--oversubscribe)
 * @param launchAgent    the command, as words, that runs a command on another host (--launch-agent)
 * @param bootstrapAddress address[:port] for the bootstrap server (--bootstrap-address), null to choose
 * @param launchTimeoutSeconds how long a PE on another host may take to start (--launch-timeout)
 * @param bindTo         --bind-to: {@code auto} (a core each when this machine's PEs fit its cores),
 *                       {@code core} or {@code none}
 * @param modulePath     the program's module path (-p), or null
 * @param module         the program's module, {@code module[/class]} (-m), or null: then the PEs run
 *                       it on the module path, after jshmem's modules
 * @param heartbeatTimeoutSeconds a PE that sends nothing, not even its heartbeat, for this long
 *                       before finalize has stopped answering (--heartbeat-timeout)
 * @param report         write the job's report from its recordings when it ends (--report, with --jfr)
 * @param output         how the PEs' output is passed on
 * @param mapping        where the PEs go (--map-by, -N) and whether oshrun reports it (--report-bindings)
 */
record LaunchOptions(Action action, int npes, String classpath, boolean tagOutput, Map<String, String> exportedEnv,
                     int timeoutSeconds, List<String> jvmOptions, String mainClass, String jar,
                     List<String> programArgs, List<HostList.Host> hosts, boolean oversubscribe,
                     List<String> launchAgent, String bootstrapAddress, int launchTimeoutSeconds, String bindTo,
                     String modulePath, String module, int heartbeatTimeoutSeconds, boolean report,
                     Output output, Mapping mapping) {

    /**
     * How the PEs' output is passed on.
     *
     * @param aggregate print jshmem's diagnostics and uncaught-exception reports that several PEs
     *                  print once, with the PEs' list ({@link MessageAggregator}); off with
     *                  --no-aggregate, and whenever oshrun shows every PE's lines (--tag-output,
     *                  --timestamp-output, --output-filename)
     * @param timestamp prefix every line with the time oshrun received it (--timestamp-output)
     * @param directory write PE k's standard output and error to {@code directory/pe<k>.stdout} and
     *                  {@code .stderr} instead of oshrun's (--output-filename), or null
     * @param quiet     leave out oshrun's informational lines (PEs sharing CPUs, the start-up
     *                  cache being made); errors are still printed (-q)
     */
    record Output(boolean aggregate, boolean timestamp, String directory, boolean quiet) {
        static final Output DEFAULT = new Output(true, false, null, false);
    }

    /**
     * Where the PEs go.
     *
     * @param mapBy          {@code core} (default: fill each host's slots, then the next host; on this
     *                       machine PE k gets the k-th CPU), {@code socket} (as core, but on this
     *                       machine consecutive PEs go to different sockets) or {@code node} (PE k on
     *                       host k modulo the hosts, round-robin)
     * @param perNode        -N: PEs on each node (every host gets this many slots), 0 when not given
     * @param reportBindings print which host and CPU each PE got (--report-bindings)
     */
    record Mapping(String mapBy, int perNode, boolean reportBindings) {
        static final Mapping DEFAULT = new Mapping("core", 0, false);
    }

    /** Over this many PEs a CPU on this machine, oshrun refuses to start them without --oversubscribe. */
    static final int MAX_PES_PER_CPU = 8;

    /*
     * Scale limits of oshrun's own launcher. Past them a job belongs to the resource manager's
     * launcher: srun (--mpi=pmix or pmi2) or mpirun/prterun start the PEs with their own daemons, one
     * per node, in a tree, and the PEs find each other through PMI; nothing jshmem-specific then
     * grows with N. oshrun's launcher is one process: it starts every remote PE through a launch
     * agent (ssh) of its own, keeps a pipe per PE output stream and a connection per PE to its
     * bootstrap server, and the JDK gives each child process a reaper thread. That is fine for a
     * workstation or a few dozen nodes, and is not the tool for thousands of PEs: refusing says so
     * before a job half-starts. --allow-large-job lifts the limits.
     */
    /** The most hosts oshrun's own launcher starts PEs on without --allow-large-job. */
    static final int MAX_OWN_LAUNCHER_HOSTS = 64;
    /** The most PEs oshrun's own launcher starts without --allow-large-job. */
    static final int MAX_OWN_LAUNCHER_PES = 4096;

    /** The launch agent unless --launch-agent says otherwise. */
    static final List<String> DEFAULT_AGENT = List.of("ssh");
    /** Default for --heartbeat-timeout. */
    static final int DEFAULT_HEARTBEAT_TIMEOUT_SECONDS = BootstrapProtocol.PE_SILENCE_LIMIT_MILLIS / 1000;
    /** Default for --launch-timeout: ssh connection set-up plus a shell start, with a wide margin. */
    static final int DEFAULT_LAUNCH_TIMEOUT_SECONDS = 60;

    enum Action { RUN, HELP, VERSION }

    /** A command-line mistake: oshrun prints the message and exits with status 2. */
    static final class UsageException extends Exception {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    private static final Pattern VARIABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    LaunchOptions {
        exportedEnv = Map.copyOf(exportedEnv);
        jvmOptions = List.copyOf(jvmOptions);
        programArgs = List.copyOf(programArgs);
        hosts = List.copyOf(hosts);
        launchAgent = List.copyOf(launchAgent);
    }

    /** Whether a host list was given (then node ids come from it, and hosts may be remote). */
    boolean multiHost() {
        return !hosts.isEmpty();
    }

    /** With --jfr: the directory the recordings go to (JSHMEM_JFR_DIR); else null. */
    String jfrDirectory() {
        return exportedEnv.containsKey("JSHMEM_JFR") ? exportedEnv.get("JSHMEM_JFR_DIR") : null;
    }

    /**
     * Parses {@code args}; {@code env} is oshrun's environment, whose values {@code -x VAR} forwards.
     *
     * @throws UsageException if the command line is wrong
     */
    static LaunchOptions parse(List<String> args, Map<String, String> env) throws UsageException {
        Cursor cursor = new Cursor(args);
        int npes = 0;
        String classpath = null;
        boolean tagOutput = false;
        Map<String, String> exported = new LinkedHashMap<>();
        int timeout = 0;
        List<String> jvmOptions = new ArrayList<>();
        String mainClass = null;
        String jar = null;
        List<HostList.Host> hosts = List.of();
        String hostSource = null;
        boolean oversubscribe = false;
        boolean allowLarge = false;
        List<String> agent = DEFAULT_AGENT;
        String bootstrapAddress = null;
        int launchTimeout = DEFAULT_LAUNCH_TIMEOUT_SECONDS;
        int heartbeatTimeout = DEFAULT_HEARTBEAT_TIMEOUT_SECONDS;
        String bindTo = "auto";

        String modulePath = null;
        String module = null;
        boolean report = false;
        boolean aggregate = true;
        boolean timestamp = false;
        String outputDirectory = null;
        boolean quiet = false;
        String mapBy = "core";
        int perNode = 0;
        boolean reportBindings = false;

        while (cursor.hasNext() && mainClass == null && jar == null && module == null) {
            String arg = cursor.next();
            if (!arg.startsWith("-") || arg.equals("--")) {
                mainClass = arg.equals("--") ? cursor.required("--", "the main class") : arg;
                continue;
            }
            // Long options also accept --name=value.
            int eq = arg.startsWith("--") ? arg.indexOf('=') : -1;
            String name = eq < 0 ? arg : arg.substring(0, eq);
            String inline = eq < 0 ? null : arg.substring(eq + 1);
            switch (name) {
                case "-h", "--help" -> {
                    return special(Action.HELP);
                }
                case "-V", "--version" -> {
                    return special(Action.VERSION);
                }
                case "-np", "-n", "--np" -> npes = positive(name, cursor.value(name, inline, "a number of PEs"));
                case "-cp", "-classpath", "--classpath", "--class-path" ->
                        classpath = cursor.value(name, inline, "a class path");
                case "--tag-output" -> tagOutput = true;
                case "--no-aggregate" -> aggregate = false;
                case "--timestamp-output", "-timestamp-output" -> timestamp = true;
                case "--output-filename", "-output-filename" -> outputDirectory = java.nio.file.Path.of(
                        cursor.value(name, inline, "a directory")).toAbsolutePath().toString();
                case "-q", "--quiet" -> quiet = true;
                case "--map-by", "-map-by" -> {
                    mapBy = cursor.value(name, inline, "core, socket or node").toLowerCase(java.util.Locale.ROOT);
                    if (!mapBy.equals("core") && !mapBy.equals("socket") && !mapBy.equals("node")) {
                        throw new UsageException("--map-by " + mapBy + ": use core, socket or node");
                    }
                }
                case "-N", "--npernode", "-npernode" -> perNode = positive(name, cursor.value(name, inline, "a number of PEs"));
                case "--report-bindings", "-report-bindings" -> reportBindings = true;
                case "-x" -> export(cursor.value(name, inline, "VAR or VAR=VALUE"), env, exported);
                case "--timeout" -> timeout = positive(name, cursor.value(name, inline, "a number of seconds"));
                case "--jvm-opt" -> jvmOptions.add(cursor.value(name, inline, "a JVM option"));
                case "-jar" -> jar = cursor.value(name, inline, "a jar file");
                case "-p", "--module-path" -> modulePath = cursor.value(name, inline, "a module path");
                case "-m", "--module" -> module = cursor.value(name, inline, "a module, as module[/class]");
                case "--host", "-host", "-H" -> {
                    String spec = cursor.value(name, inline, "host[:slots],...");
                    hostSource = oneHostSource(hostSource, "--host");
                    hosts = HostList.parseHostOption(spec);
                }
                case "--hostfile", "-hostfile", "--machinefile" -> {
                    String file = cursor.value(name, inline, "a host file");
                    hostSource = oneHostSource(hostSource, "--hostfile");
                    hosts = HostList.readHostfile(file);
                }
                case "--oversubscribe" -> oversubscribe = true;
                case "--allow-large-job" -> allowLarge = true;
                case "--launch-agent" -> {
                    String command = cursor.value(name, inline, "a command, e.g. \"ssh\" or \"docker exec -i\"").strip();
                    if (command.isEmpty()) {
                        throw new UsageException("--launch-agent needs a command, e.g. \"ssh\" or \"docker exec -i\"");
                    }
                    agent = List.of(command.split("\\s+"));
                }
                case "--bootstrap-address" -> bootstrapAddress = bootstrapAddress(cursor.value(name, inline,
                        "an address of this machine, optionally with :port"));
                case "--launch-timeout" -> launchTimeout = positive(name, cursor.value(name, inline, "a number of seconds"));
                case "--heartbeat-timeout" -> {
                    heartbeatTimeout = positive(name, cursor.value(name, inline, "a number of seconds"));
                    if (heartbeatTimeout < 3) {
                        throw new UsageException(name + " must be at least 3 seconds (heartbeats go every second"
                                + " or more), not " + heartbeatTimeout);
                    }
                }
                case "--jfr" -> exported.put("JSHMEM_JFR", inline == null || inline.isBlank() ? "default" : inline);
                case "--report" -> report = true; // shmem-report on the recordings when the job ends (JobReport)
                case "--jfr-dir" -> exported.put("JSHMEM_JFR_DIR",
                        java.nio.file.Path.of(cursor.value(name, inline, "a directory")).toAbsolutePath().toString());
                case "--bind-to", "-bind-to" -> {
                    bindTo = cursor.value(name, inline, "core or none");
                    if (!bindTo.equals("core") && !bindTo.equals("none") && !bindTo.equals("auto")) {
                        throw new UsageException("--bind-to " + bindTo + ": use core, none or auto");
                    }
                }
                default -> throw new UsageException("unknown option " + arg);
            }
        }
        if (report && !exported.containsKey("JSHMEM_JFR")) {
            throw new UsageException("--report reports the job's flight recordings: use it with --jfr");
        }
        if (exported.containsKey("JSHMEM_JFR")) {
            exported.putIfAbsent("JSHMEM_JFR_DIR", java.nio.file.Path.of("jshmem-jfr").toAbsolutePath().toString());
        }
        if (perNode > 0 && !hosts.isEmpty()) {
            int n = perNode;
            hosts = hosts.stream().map(h -> new HostList.Host(h.name(), n)).toList(); // -N: n slots on every host
        }
        if (npes == 0 && !hosts.isEmpty()) {
            npes = HostList.totalSlots(hosts); // as Open MPI: one PE per slot
        }
        if (perNode > 0 && hosts.isEmpty()) {
            if (npes == 0) {
                npes = perNode; // this machine is the one node
            } else if (npes > perNode && !oversubscribe) {
                throw new UsageException("-np " + npes + " is more than -N " + perNode + " PEs on the one node, this"
                        + " machine (give a host list, a larger -N, or --oversubscribe)");
            }
        }
        if (npes == 0) {
            throw new UsageException("missing -np N (the number of PEs)");
        }
        int usedHosts = 1;
        if (!hosts.isEmpty()) {
            // reports too many PEs now, as a usage error
            usedHosts = HostList.nodes(HostList.place(hosts, npes, oversubscribe, mapBy.equals("node"))).size();
        }
        if (!allowLarge) {
            checkScale(npes, usedHosts);
        }
        if (mainClass == null && jar == null && module == null) {
            throw new UsageException("missing the program: a main class, -jar app.jar or -m module[/class]");
        }
        if (modulePath != null && module == null) {
            throw new UsageException("--module-path is for a modular program: give its module with -m module[/class]");
        }
        return new LaunchOptions(Action.RUN, npes, classpath, tagOutput, exported, timeout, jvmOptions,
                mainClass, jar, cursor.rest(), hosts, oversubscribe, agent, bootstrapAddress, launchTimeout, bindTo,
                modulePath, module, heartbeatTimeout, report,
                new Output(aggregate && !tagOutput && !timestamp && outputDirectory == null, timestamp, outputDirectory, quiet),
                new Mapping(mapBy, perNode, reportBindings));
    }

    /** Refuses a job past oshrun's own launcher's limits (see {@link #MAX_OWN_LAUNCHER_HOSTS}). */
    static void checkScale(int npes, int hosts) throws UsageException {
        if (hosts <= MAX_OWN_LAUNCHER_HOSTS && npes <= MAX_OWN_LAUNCHER_PES) {
            return;
        }
        String what = hosts > MAX_OWN_LAUNCHER_HOSTS
                ? hosts + " hosts is more than the " + MAX_OWN_LAUNCHER_HOSTS
                : npes + " PEs is more than the " + MAX_OWN_LAUNCHER_PES;
        throw new UsageException(what + " oshrun's own launcher starts: at this size launch through the resource"
                + " manager, which starts the PEs with a daemon per node: in a Slurm allocation `srun --mpi=pmix"
                + " -n " + npes + " java ...` (or plain oshrun, which delegates to srun there), with Open MPI/PRRTE"
                + " `mpirun -n " + npes + " java ...` (see the README, \"Which launcher at which size\");"
                + " --allow-large-job starts it anyway");
    }

    private static LaunchOptions special(Action action) {
        return new LaunchOptions(action, 0, null, false, Map.of(), 0, List.of(), null, null, List.of(), List.of(),
                false, DEFAULT_AGENT, null, DEFAULT_LAUNCH_TIMEOUT_SECONDS, "auto", null, null,
                DEFAULT_HEARTBEAT_TIMEOUT_SECONDS, false, Output.DEFAULT, Mapping.DEFAULT);
    }

    private static String oneHostSource(String previous, String option) throws UsageException {
        if (previous != null) {
            throw new UsageException(previous.equals(option) ? option + " given twice"
                    : "give either --host or --hostfile, not both");
        }
        return option;
    }

    private static final Pattern BOOTSTRAP_ADDRESS =
            Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9_.-]+|[0-9A-Fa-f:]*:[0-9A-Fa-f:.]*)(:\\d{1,5})?");

    /** ADDR, ADDR:PORT, [V6ADDR] or [V6ADDR]:PORT; the address itself is checked when the server binds. */
    private static String bootstrapAddress(String value) throws UsageException {
        String v = value.strip();
        BootstrapAddress parsed = null;
        if (BOOTSTRAP_ADDRESS.matcher(v).matches()) {
            try {
                parsed = BootstrapAddress.parse(v);
            } catch (RuntimeException e) {
                // reported below
            }
        }
        if (parsed == null || parsed.host().isEmpty()) {
            throw new UsageException("--bootstrap-address needs ADDRESS or ADDRESS:PORT, got \"" + value + "\"");
        }
        if (parsed.port() > 65535) {
            throw new UsageException("--bootstrap-address: port " + parsed.port() + " is out of range");
        }
        return v;
    }

    /** A parsed --bootstrap-address: host (no brackets) and port, 0 for any. */
    record BootstrapAddress(String host, int port) {
        static BootstrapAddress parse(String value) {
            if (value.startsWith("[")) {
                int close = value.indexOf(']');
                String host = value.substring(1, close);
                String rest = value.substring(close + 1);
                return new BootstrapAddress(host, rest.isEmpty() ? 0 : Integer.parseInt(rest.substring(1)));
            }
            int colon = value.indexOf(':');
            if (colon >= 0 && value.indexOf(':', colon + 1) < 0) {
                return new BootstrapAddress(value.substring(0, colon), Integer.parseInt(value.substring(colon + 1)));
            }
            return new BootstrapAddress(value, 0); // a name, an IPv4 address, or a bare IPv6 address
        }
    }

    private static int positive(String option, String value) throws UsageException {
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(option + " needs a positive integer, got \"" + value + "\"");
    }

    /** -x VAR=VALUE sets VAR; -x VAR forwards oshrun's own value of VAR, if it has one (as Open MPI). */
    private static void export(String spec, Map<String, String> env, Map<String, String> exported)
            throws UsageException {
        int eq = spec.indexOf('=');
        String name = eq < 0 ? spec : spec.substring(0, eq);
        if (!VARIABLE_NAME.matcher(name).matches()) {
            throw new UsageException("-x needs VAR or VAR=VALUE with a valid variable name, got \"" + spec + "\"");
        }
        if (LaunchEnv.JOB_VARIABLES.contains(name)) {
            throw new UsageException(name + " is set by oshrun for each PE and cannot be given with -x");
        }
        if (eq >= 0) {
            exported.put(name, spec.substring(eq + 1));
        } else if (env.containsKey(name)) {
            exported.put(name, env.get(name));
        }
    }

    /** Walks the arguments; knows how to fetch an option's value. */
    private static final class Cursor {
        private final List<String> args;
        private int next;

        Cursor(List<String> args) {
            this.args = args;
        }

        boolean hasNext() {
            return next < args.size();
        }

        String next() {
            return args.get(next++);
        }

        /** The option's value: the inline {@code --opt=value} part, or the next argument. */
        String value(String option, String inline, String what) throws UsageException {
            return inline != null ? inline : required(option, what);
        }

        String required(String option, String what) throws UsageException {
            if (!hasNext()) {
                throw new UsageException(option + " needs " + what);
            }
            return next();
        }

        List<String> rest() {
            return args.subList(next, args.size());
        }
    }

    static String version() {
        return "oshrun (jshmem " + ShmemVersion.JSHMEM_VERSION + "), OpenSHMEM " + ShmemVersion.SPEC_MAJOR + "."
                + ShmemVersion.SPEC_MINOR;
    }

    static String help() {
        return """
                Usage: oshrun -np N [options] MainClass [args...]
                       oshrun -np N [options] -jar app.jar [args...]
                       oshrun -np N [options] [-p MODULEPATH] -m module[/MainClass] [args...]

                Starts N processing elements (PEs), one JVM each, all running the same Java program,
                and exits with the job's status. Options must come before the main class or -jar;
                everything after it (or after -m) belongs to the program. A PE is done when its
                process exits: with status 0 after finalize it ended cleanly. PEs may finalize and
                initialize jshmem again (OpenSHMEM 1.6), all of them together; a PE that exits
                instead while the others initialize again ends the job (status 1).

                Options:
                  -np N, -n N             number of PEs to start (required without a host list;
                                          default with one: the total number of slots)
                  -cp, --classpath CP     the program's class path (default: $CLASSPATH, else .);
                                          jshmem's own classes are appended
                  -jar app.jar            run the Main-Class of app.jar (app.jar is put first on
                                          the class path, before any -cp)
                  -p, --module-path MP    the program's module path, for -m
                  -m, --module M[/CLASS]  run module M (its main class, or CLASS) on the module
                                          path: jshmem's modules (io.jshmem, io.jshmem.core,
                                          io.jshmem.ucx, io.jshmem.spawn) first, then MP; -cp, if
                                          given, is the class path beside it
                  --tag-output            prefix every output line with "[PE k] " (every PE's
                                          lines as they come, none aggregated)
                  --no-aggregate          print every PE's copy of jshmem's messages and of
                                          uncaught exceptions' stack traces as it comes; by
                                          default a message several PEs print is printed once
                                          naming them ("jshmem: PEs 0-19: ..."), and a stack
                                          trace that repeats a jshmem message is cut to its
                                          first line; the program's other output is never held
                  -x VAR=VALUE            set VAR for every PE (repeatable)
                  -x VAR                  forward oshrun's own value of VAR to every PE
                  --timeout SECONDS       end the job, with status 124, if it runs longer
                  --jvm-opt OPT           pass OPT to every PE's JVM (repeatable), e.g. --jvm-opt -Xmx2g
                  --jfr[=SETTINGS]        record each PE with JDK Flight Recorder (SETTINGS: default,
                                          profile or a .jfc file; default: default), jshmem's events
                                          included; written at finalize or exit to
                                          DIR/<job id>-pe<N>.jfr (-g<n> added after each
                                          re-initialization; read with jfr print/summary or
                                          JDK Mission Control); files 0600, DIR made 0700,
                                          JFR's repository DIR/.jfr-repository (0700)
                  --jfr-dir DIR           where --jfr writes (default ./jshmem-jfr); one that
                                          exists must be yours and writable by you alone
                  --report                with --jfr: when the job ends (failed or not), write its
                                          report, one HTML page (DIR/<job id>-report.html, see
                                          bin/shmem-report)
                  --bind-to core|none     core: bind each PE started on this machine to a core of its
                                          own (with taskset, over the CPUs oshrun may use); none:
                                          let the OS place them; default: core when this machine's
                                          PEs are no more than its CPUs, else none (as mpirun)
                  --map-by core|socket|node
                                          core (default): fill each host's slots in turn, and on
                                          this machine PE k gets the k-th CPU; socket: as core,
                                          but consecutive PEs of this machine go to different
                                          sockets; node: PE k on host k (round-robin over the
                                          hosts)
                  -N N                    N PEs on each node: every host of the list gets N slots
                                          (-np defaults to N x hosts; without a host list, N PEs)
                  --report-bindings       print the host and the CPU (core, socket) of each PE
                  --oversubscribe         allow more PEs than slots; on this machine without a host
                                          list, over 8 PEs a CPU (a local -np 1000 on 2 CPUs is
                                          refused without it); more PEs than CPUs is said in one
                                          line (they share the CPUs)
                  --allow-large-job       start a job past oshrun's own launcher's limits anyway
                                          (over 64 hosts or 4096 PEs it refuses, pointing to
                                          srun or mpirun, which launch at that size)
                  --output-filename DIR   write PE k's output to DIR/pe<k>.stdout and .stderr
                                          (made or truncated) instead of oshrun's; DIR is
                                          made 0700, or must be yours and writable by you alone
                  --timestamp-output      prefix every output line with the time oshrun got it
                  -q, --quiet             leave out oshrun's informational lines (PEs sharing CPUs,
                                          the start-up cache being made); errors are still printed
                  -h, --help              print this help and exit
                  -V, --version           print the version and exit
                Long options also accept --option=value.

                Several hosts:
                  -H, --host H1[:S1],H2[:S2]
                                          run on these hosts, S slots each (default 1)
                  --hostfile FILE         the hosts from FILE: one "host [slots=N]" a line, # comments
                  --oversubscribe         allow more PEs than slots (placement goes round again)
                  (--map-by node and -N apply to the hosts; see above)
                  --launch-agent CMD      how to run a command on a host (default: ssh); oshrun runs
                                          "CMD HOST /bin/sh -s" and writes the PE's start script to
                                          its standard input, so CMD must pass that on: ssh does,
                                          docker exec needs -i (--launch-agent "docker exec -i",
                                          container names as hosts)
                  --bootstrap-address A[:PORT]
                                          where oshrun's bootstrap server listens, an address of
                                          this machine that every host can reach (0.0.0.0: all
                                          interfaces); default: the address of this machine's
                                          route to the hosts, or 127.0.0.1 when all PEs are local
                  --launch-timeout SECONDS
                                          end the job if a PE's start script has not run on its
                                          host after this long (default 60); also how long a PE
                                          retries a launcher too busy to take its connection
                  --heartbeat-timeout SECONDS
                                          a PE that sends nothing (PEs send a heartbeat every 5 s,
                                          or a third of this if shorter) for this long before
                                          finalize has stopped answering: the job ends (default
                                          30; a PE of this host that is runnable but waiting for
                                          a CPU gets up to 5 more; PEs give up on a silent oshrun
                                          after twice this)
                PEs fill the hosts in order, each up to its slots. A host is a node: PEs on the same
                host share memory directly, PEs on different hosts communicate through the UCX
                transport (shmem-ucx, libucx0). JSHMEM_NODE is the host's index in the list, whatever
                the machines' hostnames. localhost, loopback and this machine's addresses and its
                hostname are started directly, without the agent (localhost:2,127.0.0.1:2 are two
                nodes on this machine). On other hosts, the JDK, jshmem and the program must be at
                the same paths as here; PEs there run in the same directory if it exists (else /),
                get the SHMEM_* and JSHMEM_* variables of oshrun's environment, the -x variables and
                the job's, and read /dev/null. Closing the agent's standard input (the job ending,
                oshrun dying) ends the remote PE: SIGTERM, then SIGKILL after 2 s.

                Each PE's JVM gets -XX:+UseSerialGC (unless an option picks another collector),
                -XX:CompileThresholdScaling=2 (less start-up compilation),
                --enable-native-access=ALL-UNNAMED (with -m: the jshmem modules and ALL-UNNAMED),
                the --jvm-opt values, then $JSHMEM_JAVA_OPTS (a later value of an option wins).
                PE 0 reads oshrun's standard input if it runs on this machine; other PEs read /dev/null.

                Environment read by oshrun:
                  JAVA_HOME               a JDK 25 or newer, for oshrun and the PEs
                                          (default: /usr/lib/jvm/*25*)
                  CLASSPATH               the program's class path when -cp is not given
                {LAUNCHER_SETTINGS}

                Environment read by the jshmem runtime in each PE (pass them with -x or export them):
                {PE_SETTINGS}

                oshrun sets for each PE: JSHMEM_JOBID, JSHMEM_PE, JSHMEM_NPES, JSHMEM_NODE,
                JSHMEM_LOCAL_PE, JSHMEM_LOCAL_NPES, JSHMEM_PROCESS_MAPPING (every PE's node,
                in PMI_process_mapping's format), JSHMEM_BOOTSTRAP, JSHMEM_SECRET_FILE (the
                job secret's file: 0600 in a 0700 directory, deleted by the PE once read; the
                secret is in no PE's environment), JSHMEM_LAUNCH_TIMEOUT,
                JSHMEM_HEARTBEAT_TIMEOUT (and JSHMEM_BIND=core for a PE
                bound to a core of its own, =shared for one bound to a core other PEs share;
                JSHMEM_LAUNCHER_PID for the PEs on this host).

                A PE that exits before finalizing jshmem, or exits non-zero, ends the whole job; so
                does a PE on another host whose agent fails, and a PE whose connection to oshrun is
                lost or silent for 30 s (--heartbeat-timeout; PEs and oshrun exchange heartbeats
                every 5 s, so a vanished host or a cut network is noticed). A PE that loses oshrun
                before finalizing (closed, or silent for twice that) says so on stderr at once
                ("the launcher (oshrun, pid N) died" when oshrun was its parent) and halts
                itself, with status 1, 10 s later.

                Exit status:
                  0     every PE finished cleanly
                  S     the status a PE gave to shmem global_exit (abort)
                  E     the exit status of the first PE that failed (128+n if killed by signal n),
                        or of the launch agent that could not start a PE; a PE killed by a
                        signal comes first, even when another PE's abort or failure naming it
                        (a transport's timeout) arrived before its death was seen
                  124   --timeout expired
                  130   interrupted (Ctrl-C)
                  2     usage error, or no JDK 25 / jshmem not built
                """.replace("{LAUNCHER_SETTINGS}\n", settings(s -> s.category() == Setting.Category.LAUNCHER))
                .replace("{PE_SETTINGS}\n", settings(s -> s.category() != Setting.Category.LAUNCHER
                        && s.category() != Setting.Category.JOB && s != Setting.JSHMEM_SPAWNED_BY));
    }

    /** The settings of the table that {@code which} selects, as --help lists them (one per line, wrapped). */
    private static String settings(java.util.function.Predicate<Setting> which) {
        return String.join("\n", SettingsReference.helpLines(which, 90)) + "\n";
    }
}
