/*
 * Copyright 2026 The jshmem developers
 * SPDX-License-Identifier: Apache-2.0
 */
package io.jshmem.spawn;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A subprocess started by {@link Spawn}: its pipes, its exit, its end. The child is reaped as soon
 * as it exits (by the JDK's process reaper, or by {@link NativeSpawn}'s), whether or not anyone
 * waits for it. Closing the handle closes the pipes and waits for the child.
 *
 * <p>Exit status as {@link Process#exitValue()} reports it: the status the child passed to exit,
 * or 128 + the signal number if a signal ended it.
 */
public final class Subprocess implements AutoCloseable {
    private final Process process;
    private final List<String> command;
    private final String mechanism;
    private final boolean stdinPiped;
    private final boolean stdoutPiped;
    private final boolean stderrPiped;

    Subprocess(Process process, List<String> command, String mechanism, boolean stdinPiped, boolean stdoutPiped,
               boolean stderrPiped) {
        this.process = process;
        this.command = List.copyOf(command);
        this.mechanism = mechanism;
        this.stdinPiped = stdinPiped;
        this.stdoutPiped = stdoutPiped;
        this.stderrPiped = stderrPiped;
    }

    /** {@return the child's process id} */
    public long pid() {
        return process.pid();
    }

    /** {@return the command and arguments it runs} */
    public List<String> command() {
        return command;
    }

    /**
     * {@return how it was created: {@code "ProcessBuilder (launch mechanism POSIX_SPAWN: posix_spawn of
     * jspawnhelper)"} or {@code "posix_spawnp (FFM)"}}
     */
    public String mechanism() {
        return mechanism;
    }

    /**
     * {@return the pipe to the child's standard input}
     *
     * @throws IllegalStateException if stdin is not {@code PIPE}
     */
    public OutputStream stdin() {
        if (!stdinPiped) {
            throw new IllegalStateException("stdin of " + this + " is not piped (use Spawn.stdin(Redirect.PIPE))");
        }
        return process.getOutputStream();
    }

    /**
     * {@return the pipe from the child's standard output}
     *
     * @throws IllegalStateException if stdout is not {@code PIPE}
     */
    public InputStream stdout() {
        if (!stdoutPiped) {
            throw new IllegalStateException("stdout of " + this + " is not piped (use Spawn.stdout(Redirect.PIPE))");
        }
        return process.getInputStream();
    }

    /**
     * {@return the pipe from the child's standard error}
     *
     * @throws IllegalStateException if stderr is not {@code PIPE} (or merged into stdout)
     */
    public InputStream stderr() {
        if (!stderrPiped) {
            throw new IllegalStateException("stderr of " + this + " is not piped (use Spawn.stderr(Redirect.PIPE), without redirectErrorStream)");
        }
        return process.getErrorStream();
    }

    /**
     * Waits for the child to exit.
     *
     * @return its exit status
     * @throws InterruptedException if this thread is interrupted while waiting
     */
    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /**
     * Waits at most {@code timeout} for the child to exit.
     *
     * @param timeout how long to wait at most
     * @param unit    the unit of {@code timeout}
     * @return whether the child has exited
     * @throws InterruptedException if this thread is interrupted while waiting
     */
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        return process.waitFor(timeout, unit);
    }

    /** {@return the exit status, or empty while the child runs} */
    public OptionalInt exitStatus() {
        return process.isAlive() ? OptionalInt.empty() : OptionalInt.of(process.exitValue());
    }

    /**
     * {@return the exit status}
     *
     * @throws IllegalStateException if the child has not exited
     */
    public int exitValue() {
        try {
            return process.exitValue();
        } catch (IllegalThreadStateException e) {
            throw new IllegalStateException(this + " has not exited", e);
        }
    }

    /** {@return whether the child is still running} */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Asks the child to end (SIGTERM). Does nothing once it has exited. */
    public void destroy() {
        process.destroy();
    }

    /** Ends the child (SIGKILL). Does nothing once it has exited. */
    public void destroyForcibly() {
        process.destroyForcibly();
    }

    /** {@return a future that completes with this handle when the child has exited and been reaped} */
    public CompletableFuture<Subprocess> onExit() {
        return process.onExit().thenApply(p -> this);
    }

    /** {@return the underlying {@link Process} (a ProcessBuilder one, or posix_spawnp's)} */
    public Process process() {
        return process;
    }

    /**
     * Closes the pipes (a child still writing to one then gets EPIPE) and waits for the child to
     * exit, like Python's {@code with Popen(...)}. It does not end the child: call {@link #destroy()}
     * first for one that would not exit on its own.
     */
    @Override
    public void close() {
        closeQuietly(process.getOutputStream());
        closeQuietly(process.getInputStream());
        closeQuietly(process.getErrorStream());
        boolean interrupted = false;
        while (true) {
            try {
                process.waitFor();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (IOException e) {
            // a broken pipe to a dead child: nothing to do
        } catch (Exception e) {
            // same
        }
    }

    @Override
    public String toString() {
        String cmd = String.join(" ", command);
        return "Subprocess[pid " + process.pid() + ", " + (cmd.length() > 80 ? cmd.substring(0, 77) + "..." : cmd) + "]";
    }
}
