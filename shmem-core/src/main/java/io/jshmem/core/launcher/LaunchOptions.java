package io.jshmem.core.launcher;

import io.jshmem.ShmemVersion;
import io.jshmem.core.bootstrap.LaunchEnv;
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
 */
record LaunchOptions(Action action, int npes, String classpath, boolean tagOutput, Map<String, String> exportedEnv,
                     int timeoutSeconds, List<String> jvmOptions, String mainClass, String jar,
                     List<String> programArgs) {

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

        while (cursor.hasNext() && mainClass == null && jar == null) {
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
                case "-x" -> export(cursor.value(name, inline, "VAR or VAR=VALUE"), env, exported);
                case "--timeout" -> timeout = positive(name, cursor.value(name, inline, "a number of seconds"));
                case "--jvm-opt" -> jvmOptions.add(cursor.value(name, inline, "a JVM option"));
                case "-jar" -> jar = cursor.value(name, inline, "a jar file");
                default -> throw new UsageException("unknown option " + arg);
            }
        }
        if (npes == 0) {
            throw new UsageException("missing -np N (the number of PEs)");
        }
        if (mainClass == null && jar == null) {
            throw new UsageException("missing the program: a main class or -jar app.jar");
        }
        return new LaunchOptions(Action.RUN, npes, classpath, tagOutput, exported, timeout, jvmOptions,
                mainClass, jar, cursor.rest());
    }

    private static LaunchOptions special(Action action) {
        return new LaunchOptions(action, 0, null, false, Map.of(), 0, List.of(), null, null, List.of());
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

                Starts N processing elements (PEs), one JVM each, all running the same Java program,
                and exits with the job's status. Options must come before the main class or -jar;
                everything after it belongs to the program.

                Options:
                  -np N, -n N             number of PEs to start (required)
                  -cp, --classpath CP     the program's class path (default: $CLASSPATH, else .);
                                          jshmem's own classes are appended
                  -jar app.jar            run the Main-Class of app.jar (app.jar is put first on
                                          the class path, before any -cp)
                  --tag-output            prefix every output line with "[PE k] "
                  -x VAR=VALUE            set VAR for every PE (repeatable)
                  -x VAR                  forward oshrun's own value of VAR to every PE
                  --timeout SECONDS       end the job, with status 124, if it runs longer
                  --jvm-opt OPT           pass OPT to every PE's JVM (repeatable), e.g. --jvm-opt -Xmx2g
                  -h, --help              print this help and exit
                  -V, --version           print the version and exit
                Long options also accept --option=value.

                Each PE's JVM gets -XX:+UseSerialGC (unless an option picks another collector),
                --enable-native-access=ALL-UNNAMED, the --jvm-opt values, then $JSHMEM_JAVA_OPTS.
                PE 0 reads oshrun's standard input; the other PEs read /dev/null.

                Environment read by oshrun:
                  JAVA_HOME               a JDK 25 or newer, for oshrun and the PEs
                                          (default: /usr/lib/jvm/*25*)
                  JSHMEM_JAVA_OPTS        extra JVM options for every PE, split on whitespace
                  CLASSPATH               the program's class path when -cp is not given

                Environment read by the jshmem runtime in each PE (pass them with -x or export them):
                  SHMEM_SYMMETRIC_SIZE    size of each PE's symmetric heap, e.g. 512M or 2G
                  SHMEM_INFO              print information about the library at startup
                  SHMEM_DEBUG             print debugging output
                  SHMEM_VERSION           print the library version at startup

                oshrun sets for each PE: JSHMEM_JOBID, JSHMEM_PE, JSHMEM_NPES, JSHMEM_NODE,
                JSHMEM_LOCAL_PE, JSHMEM_LOCAL_NPES, JSHMEM_BOOTSTRAP, JSHMEM_SECRET.

                A PE that exits before finalizing jshmem, or exits non-zero, ends the whole job.

                Exit status:
                  0     every PE finished cleanly
                  S     the status a PE gave to shmem global_exit (abort)
                  E     the exit status of the first PE that failed (128+n if killed by signal n)
                  124   --timeout expired
                  130   interrupted (Ctrl-C)
                  2     usage error, or no JDK 25 / jshmem not built
                """;
    }
}
