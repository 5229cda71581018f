/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn;

import io.jshmem.ForkSafetyReport;
import io.jshmem.Shmem;
import io.jshmem.spi.ClassPathProviders;
import io.jshmem.spi.SubprocessSupport;
import java.io.File;
import java.io.FileOutputStream;
import java.io.IOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.ServiceLoader;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Starts a subprocess safely at any point of a jshmem program: before init, within the OpenSHMEM
 * portion, after finalize. It is the jshmem form of {@code posix_spawn}, which the proposed
 * OpenSHMEM subprocess clauses (PR #474) tell applications to use.
 *
 * <pre>{@code
 * try (Subprocess p = Spawn.command("uname", "-a").stdout(Redirect.PIPE).start()) {
 *     String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
 *     int status = p.waitFor();
 * }
 * }</pre>
 *
 * <h2>Safe: no copy of the address space</h2>
 * {@code Spawn} is a {@link ProcessBuilder} with two guarantees added. With the JVM's default launch
 * mechanism ({@code jdk.lang.Process.launchMechanism=POSIX_SPAWN} on Linux), ProcessBuilder calls
 * {@code posix_spawn} on the JDK's small {@code jspawnhelper}, which then execs the command: glibc's
 * posix_spawn is {@code clone(CLONE_VM|CLONE_VFORK)} + exec, which copies no page table, so memory
 * registered with a network adapter cannot be left behind by copy-on-write. That is what makes
 * {@code Spawn} safe, and {@code Spawn} then simply uses ProcessBuilder ({@link Mechanism#PROCESS_BUILDER}).
 * If the JVM was started with {@code FORK} or {@code VFORK}, ProcessBuilder would fork the whole
 * JVM; {@code Spawn} then calls {@code posix_spawnp} itself through the FFM API
 * ({@link Mechanism#POSIX_SPAWN}) so that it stays safe whatever the kernel and the network. That
 * path needs native access ({@code --enable-native-access=ALL-UNNAMED}, which oshrun gives every
 * PE; on the module path {@code --enable-native-access=io.jshmem.spawn}, without which that path
 * throws a {@link SpawnException} naming the flag) and glibc 2.29+ for a working directory. Refusing
 * instead would have made a program's correctness depend on a JVM flag someone else chose.
 *
 * <h2>The child is not a PE</h2>
 * The child's environment is this process's minus the PE identity and the job's bootstrap secret
 * (every {@code JSHMEM_*} variable oshrun sets per PE, and the Slurm, PMI-2, PMIx and Open MPI
 * task identity; the runtime lists them, through {@link SubprocessSupport}), plus {@code JSHMEM_SPAWNED_BY} naming this PE and
 * its phase, so that a child that calls {@code Shmem.init} gets a clear exception (subprocess
 * clause 1 if spawned before init, clause 2 if within the OpenSHMEM portion or after finalize)
 * instead of joining, or disturbing, the job. {@link #markChild(boolean) markChild(false)} drops
 * that variable, for a child meant to run an independent jshmem job of its own.
 *
 * <h2>Streams, waiting, reaping</h2>
 * Standard input, output and error are each inherited, piped or redirected to a file, with
 * {@link Redirect} as in ProcessBuilder, and the same defaults (all three {@link Redirect#PIPE}).
 * The {@link Subprocess} handle gives the pipes, {@code waitFor}, the exit status, {@code destroy}
 * and the pid. Every child is reaped when it exits, whether or not anyone waits for it: no zombie
 * is left. A command that cannot be started (not found, not executable, a bad working directory)
 * throws a {@link SpawnException} naming it.
 *
 * <p>Not thread-safe (like ProcessBuilder); {@link #start()} may be called more than once.
 */
public final class Spawn {

    /** How the child is created. */
    public enum Mechanism {
        /** {@link #PROCESS_BUILDER} when the JVM's launch mechanism is POSIX_SPAWN (the default), else {@link #POSIX_SPAWN}. */
        AUTO,
        /**
         * {@link ProcessBuilder}. Refused when the JVM's launch mechanism forks (FORK, VFORK) and
         * {@link Shmem#forkSafety()} says fork is not safe.
         */
        PROCESS_BUILDER,
        /** posix_spawnp(3) called through the FFM API, whatever the JVM's launch mechanism. */
        POSIX_SPAWN
    }

    private final List<String> command;
    private final Map<String, String> environment;
    private Path directory;
    private Redirect stdin = Redirect.PIPE;
    private Redirect stdout = Redirect.PIPE;
    private Redirect stderr = Redirect.PIPE;
    private boolean redirectErrorStream;
    private boolean markChild = true;
    private Mechanism mechanism = Mechanism.AUTO;

    private Spawn(List<String> command) {
        if (command.isEmpty()) {
            throw new IllegalArgumentException("spawn: empty command");
        }
        for (String s : command) {
            Objects.requireNonNull(s, "spawn: null in command");
        }
        this.command = new ArrayList<>(command);
        this.environment = runtime().stripIdentity(new HashMap<>(System.getenv())); // the marker is set at start()
    }

    /**
     * A subprocess running {@code command}.
     *
     * @param command the program, then its arguments; the program is looked up on PATH unless it holds a '/'
     * @return a builder, to configure and then {@link #start()}
     */
    public static Spawn command(String... command) {
        return new Spawn(List.of(command));
    }

    /**
     * A subprocess running {@code command}.
     *
     * @param command the program, then its arguments
     * @return a builder, to configure and then {@link #start()}
     */
    public static Spawn command(List<String> command) {
        return new Spawn(List.copyOf(command));
    }

    /**
     * Appends arguments.
     *
     * @param arguments arguments to add after the ones already given
     * @return this builder
     */
    public Spawn arguments(String... arguments) {
        for (String a : arguments) {
            command.add(Objects.requireNonNull(a, "spawn: null argument"));
        }
        return this;
    }

    /** {@return the command and its arguments (a copy)} */
    public List<String> command() {
        return List.copyOf(command);
    }

    /**
     * The child's environment, to read or change: this process's environment without the PE
     * identity and bootstrap secret. What is put here is given to the child as is.
     *
     * @return the child's environment (modifiable)
     */
    public Map<String, String> environment() {
        return environment;
    }

    /**
     * Sets one variable of the child's environment.
     *
     * @param name  the variable
     * @param value its value
     * @return this builder
     */
    public Spawn env(String name, String value) {
        environment.put(Objects.requireNonNull(name), Objects.requireNonNull(value));
        return this;
    }

    /**
     * The child's working directory (default: this process's).
     *
     * @param directory the directory, or null for this process's
     * @return this builder
     */
    public Spawn directory(Path directory) {
        this.directory = directory;
        return this;
    }

    /**
     * Standard input: {@link Redirect#PIPE} (default), {@link Redirect#INHERIT} or {@link Redirect#from(File)}.
     *
     * @param r where the child's standard input comes from
     * @return this builder
     */
    public Spawn stdin(Redirect r) {
        if (r.type() == Redirect.Type.WRITE || r.type() == Redirect.Type.APPEND) {
            throw new IllegalArgumentException("spawn: stdin cannot be redirected to a file for writing: " + r);
        }
        this.stdin = r;
        return this;
    }

    /**
     * Standard output: {@link Redirect#PIPE} (default), {@link Redirect#INHERIT}, {@link Redirect#to(File)},
     * {@link Redirect#appendTo(File)}, {@link Redirect#DISCARD}.
     *
     * @param r where the child's standard output goes
     * @return this builder
     */
    public Spawn stdout(Redirect r) {
        if (r.type() == Redirect.Type.READ) {
            throw new IllegalArgumentException("spawn: stdout cannot be read from a file: " + r);
        }
        this.stdout = r;
        return this;
    }

    /**
     * Standard error, as {@link #stdout(Redirect)}.
     *
     * @param r where the child's standard error goes
     * @return this builder
     */
    public Spawn stderr(Redirect r) {
        if (r.type() == Redirect.Type.READ) {
            throw new IllegalArgumentException("spawn: stderr cannot be read from a file: " + r);
        }
        this.stderr = r;
        return this;
    }

    /**
     * Sends standard error where standard output goes (as {@link ProcessBuilder#redirectErrorStream(boolean)}).
     *
     * @param merge whether to merge standard error into standard output
     * @return this builder
     */
    public Spawn redirectErrorStream(boolean merge) {
        this.redirectErrorStream = merge;
        return this;
    }

    /**
     * All three standard streams inherited from this process.
     *
     * @return this builder
     */
    public Spawn inheritIO() {
        return stdin(Redirect.INHERIT).stdout(Redirect.INHERIT).stderr(Redirect.INHERIT);
    }

    /**
     * Whether the child gets {@code JSHMEM_SPAWNED_BY} (default true), which makes {@code Shmem.init}
     * refuse in it. False is for a child meant to run an independent jshmem job of its own.
     *
     * @param mark whether to mark the child
     * @return this builder
     */
    public Spawn markChild(boolean mark) {
        this.markChild = mark;
        return this;
    }

    /**
     * How to create the child (default {@link Mechanism#AUTO}).
     *
     * @param m the mechanism
     * @return this builder
     */
    public Spawn mechanism(Mechanism m) {
        this.mechanism = Objects.requireNonNull(m);
        return this;
    }

    /** {@return the mechanism {@link Mechanism#AUTO} resolves to in this JVM} */
    public static Mechanism defaultMechanism() {
        return forks(launchMechanism()) ? Mechanism.POSIX_SPAWN : Mechanism.PROCESS_BUILDER;
    }

    /** How the JVM's ProcessBuilder creates processes: POSIX_SPAWN (the default on Linux), FORK or VFORK. */
    private static String launchMechanism() {
        String m = System.getProperty("jdk.lang.Process.launchMechanism");
        return m == null || m.isBlank() ? "POSIX_SPAWN" : m.strip().toUpperCase(Locale.ROOT);
    }

    private static boolean forks(String mechanism) {
        return mechanism.equals("FORK") || mechanism.equals("VFORK");
    }

    /** The runtime's side of spawning (shmem-core provides it), looked up once. */
    private static final class RuntimeHolder {
        static final SubprocessSupport SUPPORT = load();

        private static SubprocessSupport load() {
            // A runtime on the class path while the API is a named module: the SPI is exported to it first.
            ClassPathProviders.open(Spawn.class.getClassLoader());
            return ServiceLoader.load(SubprocessSupport.class, Spawn.class.getClassLoader()).findFirst().orElse(null);
        }
    }

    private static SubprocessSupport runtime() {
        SubprocessSupport s = RuntimeHolder.SUPPORT;
        if (s == null) {
            throw new SpawnException("spawn: no jshmem runtime found, so the child's environment cannot be cleared of"
                    + " the PE identity: put shmem-core on the class path or the module path (bin/oshrun does)");
        }
        return s;
    }

    /**
     * Starts the subprocess.
     *
     * @return the running subprocess
     * @throws SpawnException if it cannot be started (the message names the command and why)
     */
    public Subprocess start() {
        Map<String, String> env = new HashMap<>(environment);
        SubprocessSupport runtime = runtime();
        OptionalInt pe = runtime.pe();
        env.remove(SubprocessSupport.MARKER_VARIABLE);
        if (markChild) {
            runtime.childMarker().ifPresent(m -> env.put(SubprocessSupport.MARKER_VARIABLE, m));
        }
        Mechanism m = mechanism == Mechanism.AUTO ? defaultMechanism() : mechanism;
        checkRedirects(pe);
        if (directory != null && !Files.isDirectory(directory)) {
            throw fail(pe, "working directory " + directory + " does not exist or is not a directory", null);
        }
        try {
            Process p;
            String how;
            if (m == Mechanism.PROCESS_BUILDER) {
                String jvm = launchMechanism();
                if (forks(jvm)) {
                    ForkSafetyReport r = Shmem.forkSafety();
                    if (!r.safe()) {
                        throw fail(pe, "the JVM's launch mechanism is " + jvm + ", so ProcessBuilder would fork this"
                                + " process, and fork is not safe here (" + String.join("; ", r.reasons())
                                + "); use Mechanism.AUTO or POSIX_SPAWN", null);
                    }
                }
                ProcessBuilder pb = new ProcessBuilder(command);
                pb.environment().clear();
                pb.environment().putAll(env);
                if (directory != null) {
                    pb.directory(directory.toFile());
                }
                pb.redirectInput(stdin).redirectOutput(stdout).redirectError(stderr).redirectErrorStream(redirectErrorStream);
                p = pb.start();
                how = "ProcessBuilder (launch mechanism " + jvm + (jvm.equals("POSIX_SPAWN") ? ": posix_spawn of jspawnhelper)" : ")");
            } else {
                if (!Spawn.class.getModule().isNativeAccessEnabled() && Spawn.class.getModule().isNamed()) {
                    throw fail(pe, "posix_spawnp is called through the FFM API, which module io.jshmem.spawn may not use:"
                            + " add --enable-native-access=io.jshmem.spawn to the java command", null);
                }
                p = NativeSpawn.start(command, env, directory, absolute(stdin), absolute(stdout), absolute(stderr),
                        redirectErrorStream);
                how = "posix_spawnp (FFM)";
            }
            return new Subprocess(p, command, how, stdin.type() == Redirect.Type.PIPE, stdout.type() == Redirect.Type.PIPE,
                    !redirectErrorStream && stderr.type() == Redirect.Type.PIPE);
        } catch (IOException e) {
            throw fail(pe, explain(e), e);
        }
    }

    /** Fails early, in this process, on redirect files that cannot be used (as ProcessBuilder does). */
    private void checkRedirects(OptionalInt pe) {
        if (stdin.type() == Redirect.Type.READ && !Files.isReadable(stdin.file().toPath())) {
            throw fail(pe, "stdin file " + stdin.file() + " cannot be read", null);
        }
        for (Redirect r : redirectErrorStream ? List.of(stdout) : List.of(stdout, stderr)) {
            if (r.type() == Redirect.Type.WRITE || r.type() == Redirect.Type.APPEND) {
                try {
                    new FileOutputStream(r.file(), true).close(); // created if missing; the child truncates or appends
                } catch (IOException e) {
                    throw fail(pe, "output file " + r.file() + " cannot be written: " + e.getMessage(), e);
                }
            }
        }
    }

    private static Redirect absolute(Redirect r) {
        return switch (r.type()) {
            case READ -> Redirect.from(r.file().getAbsoluteFile());
            case WRITE -> Redirect.to(r.file().getAbsoluteFile());
            case APPEND -> Redirect.appendTo(r.file().getAbsoluteFile());
            default -> r;
        };
    }

    private static final Pattern ERRNO = Pattern.compile("error[=:] ?(\\d+)");

    /** Why the command could not be started, in words: not found on PATH, not executable, ... */
    private String explain(IOException e) {
        int errno = e instanceof NativeSpawn.SpawnError se ? se.errno : -1;
        if (errno < 0) {
            Matcher m = ERRNO.matcher(String.valueOf(e.getMessage()));
            if (m.find()) {
                errno = Integer.parseInt(m.group(1));
            }
        }
        String program = command.get(0);
        String what = "cannot spawn " + quote(command) + ": ";
        if (errno == 2) { // ENOENT
            if (!program.contains("/")) {
                return what + "command \"" + program + "\" not found on PATH (" + System.getenv().getOrDefault("PATH", "unset") + ")";
            }
            return what + "no such file: " + program;
        }
        if (errno == 13) { // EACCES
            return what + program + " is not executable (permission denied)";
        }
        return what + e.getMessage();
    }

    private static String quote(List<String> command) {
        StringBuilder sb = new StringBuilder();
        for (String s : command) {
            sb.append(sb.isEmpty() ? "" : " ").append(s.isEmpty() || s.matches(".*[\\s\"'].*") ? "\"" + s + "\"" : s);
        }
        return sb.length() > 200 ? sb.substring(0, 197) + "..." : sb.toString();
    }

    private static SpawnException fail(OptionalInt pe, String message, Throwable cause) {
        String who = pe.isPresent() ? "PE " + pe.getAsInt() + ": " : "";
        return new SpawnException(who + "spawn: " + message, cause);
    }
}
